"""Which worker process lints a batch of a big run, and why.

A front-end's first file costs far more than the next (a Python file ~30 ms of imports
against ~2 ms after; a Markdown file ~15 ms): each worker pays that once per kind it reads. So a batch goes to the worker that is expected to finish it first: the
work it has in flight, plus the kind's warm-up if it has not read that kind yet. Python files
then stay with one worker while the other lints shell scripts, until the first has so much
more to do that warming up the second pays. The main process only reads one file of the
kind cheapest to warm up before forking (`warm_up_kind`): the rest is paid in parallel.
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

FILE_COST_MS = {"python": 5.0, "markdown": 2.0, "notebook": 9.0, "yaml": 2.5}
"""Estimated CPU time of one file by kind once its front-end is warm (else
DEFAULT_FILE_COST_MS), and of a kind's first file in a process that already read a shell
script (else 0): `bench/first_file_costs.py`, rounded, on the 2-core machine of
bench/README.md, in units where a shell script costs 1.5 (python, markdown and the
warm-ups: 2026-12-02, after Python files came to be read with `ast`; the mixed corpus's
instruction counts agree: a Python file ~3.3 and a Markdown file ~1.3 shell scripts). Only
their ratios matter, and only for choosing a worker."""
DEFAULT_FILE_COST_MS = 1.5
WARM_UP_MS = {"python": 40.0, "notebook": 350.0, "markdown": 20.0, "yaml": 30.0, "dockerfile": 30.0}


def file_cost(kind: str | None) -> float:
    return FILE_COST_MS.get(kind or "", DEFAULT_FILE_COST_MS)


class WorkerDied(Exception):
    """The worker ended before it answered (a crash in a native parser, a kill)."""


def forks() -> bool:
    """Whether workers are forked from this process (Linux), so that they inherit what it
    read; elsewhere each starts afresh with the platform's default and imports again."""
    import sys

    return sys.platform == "linux"


def choose(workers: Sequence[W], kind: str | None) -> W:
    """The worker expected to finish a batch of `kind` first (the first of equals)."""
    warm_up = WARM_UP_MS.get(kind or "", 0.0)
    return min(workers, key=lambda worker: worker.load() + (0.0 if kind in worker.kinds else warm_up))


def warm_up_kind(kinds: Sequence[str | None]) -> str | None:
    """The kind the main process reads one file of before forking (the workers inherit it
    and everything every kind needs: rules, schema, the release's tables): the one whose own
    warm-up is cheapest. An expensive warm-up done there would keep the other cores idle
    for as long; done in a worker, the others lint meanwhile."""
    return min(kinds, key=lambda kind: WARM_UP_MS.get(kind or "", 0.0))
