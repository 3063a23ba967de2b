"""Which worker process lints a batch of a big run, and why.

A front-end's first file costs far more than the next (a Python file ~23 ms of imports
and set-up against ~2 ms after; a Markdown file ~11 ms): each worker pays that once per
kind it reads. So a batch goes to the worker that is expected to finish it first: the work
it has in flight, plus the kind's warm-up if it has not read that kind yet. When the round
also has files any worker reads without a warm-up (shell scripts), those even out the work
for nothing: a worker then warms up a kind only when it is about to run dry. The main
process only reads one file of the kind cheapest to warm up before forking
(`warm_up_kind`): the rest is paid in parallel.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Protocol, TypeVar

    class Busy(Protocol):
        """What `choose` weighs: the kinds a worker has read and its work in flight."""

        kinds: set[str | None]

        def load(self) -> float: ...

    W = TypeVar("W", bound=Busy)

FILE_COST_MS = {"python": 3.1, "markdown": 1.5, "notebook": 9.0, "yaml": 2.5}
"""Estimated CPU time of one file by kind once its front-end is warm (else
DEFAULT_FILE_COST_MS), and of a kind's first file in a process that already read a shell
script (else 0): `bench/first_file_costs.py`, rounded, on the 2-core machine of
bench/README.md, in units where a shell script costs 1.5 (the warm-ups: 2026-12-02, after
Python files came to be read with `ast`; python and markdown: 2026-12-03, the mixed
corpus's instructions per kind, one process (bench/README.md, session 19), less the start
and the kind's first file, per file: Python 7.5 M, shell 3.6 M, Markdown 3.6 M, ~2.1 and ~1.0
shell scripts; CPU time per file agrees, 2.0-2.3 ms against 0.9-1.2 ms). Only their ratios
matter, and only for choosing a worker."""
DEFAULT_FILE_COST_MS = 1.5
WARM_UP_MS = {"python": 40.0, "notebook": 350.0, "markdown": 20.0, "yaml": 30.0, "dockerfile": 30.0}
RUNNING_DRY_MS = 16 * DEFAULT_FILE_COST_MS
"""Less work in flight than one round of shell scripts (`runner.workers.BATCH`): the worker
would idle before the next rounds could give it more of what it has read."""


def file_cost(kind: str | None) -> float:
    return FILE_COST_MS.get(kind or "", DEFAULT_FILE_COST_MS)


class WorkerDied(Exception):
    """The worker ended before it answered (a crash in a native parser, a kill)."""


def forks() -> bool:
    """Whether workers are forked from this process (Linux), so that they inherit what it
    read; elsewhere each starts afresh with the platform's default and imports again."""
    import sys

    return sys.platform == "linux"


def choose(workers: Sequence[W], kind: str | None, evened_out: bool = False) -> W:
    """The worker expected to finish a batch of `kind` first, warm-up included (the first
    of equals). When the round has files that any worker lints without a warm-up
    (`evened_out`: they go to the least busy), one that has not read `kind` is chosen only
    when it is running dry (`RUNNING_DRY_MS`): the rest of the round evens out the work for
    nothing. A kind without a warm-up goes to the least busy worker."""
    warm_up = WARM_UP_MS.get(kind or "", 0.0)
    loads = [(worker.load(), index) for index, worker in enumerate(workers)]
    warm = [pair for pair in loads if kind in workers[pair[1]].kinds]
    if not warm or not warm_up:
        return workers[min(loads)[1]]
    best = min(warm)
    cold = min((pair for pair in loads if kind not in workers[pair[1]].kinds), default=None)
    if cold is None or cold[0] + warm_up >= best[0] or (evened_out and cold[0] >= RUNNING_DRY_MS):
        return workers[best[1]]
    return workers[cold[1]]


def evens_out(workers: Sequence[Busy], kind: str | None) -> bool:
    """Whether any worker lints a file of `kind` without a warm-up."""
    return not WARM_UP_MS.get(kind or "", 0.0) or all(kind in worker.kinds for worker in workers)


def warm_up_kind(kinds: Sequence[str | None]) -> str | None:
    """The kind the main process reads one file of before forking (the workers inherit it
    and everything every kind needs: rules, schema, the release's tables): the one whose own
    warm-up is cheapest. An expensive warm-up done there would keep the other cores idle
    for as long; done in a worker, the others lint meanwhile."""
    return min(kinds, key=lambda kind: WARM_UP_MS.get(kind or "", 0.0))
