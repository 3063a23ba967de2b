"""The worker processes of a big batch, one executor each, and which of them lints a batch.

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
    from concurrent.futures import Future, ProcessPoolExecutor
    from multiprocessing.context import BaseContext
    from typing import Any, Protocol, TypeVar

    from speclint.runner.forked import ForkedWorker

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


class Pending:
    """A batch's results from an executor's future (None: the executor had already broken)."""

    __slots__ = ("future",)

    def __init__(self, future: Future[Any] | None) -> None:
        self.future = future

    def done(self) -> bool:
        return self.future is None or self.future.done()

    def result(self) -> Any:
        from concurrent.futures.process import BrokenProcessPool

        if self.future is None:
            raise WorkerDied("already broken when this batch was sent")
        try:
            return self.future.result()
        except BrokenProcessPool as broken:
            raise WorkerDied(str(broken)) from broken


def forks() -> bool:
    """Whether workers are forked from this process (Linux), so that they inherit what it
    read; elsewhere each starts afresh with the platform's default and imports again."""
    import sys

    return sys.platform == "linux"


def start_worker(inherited: frozenset[str | None]) -> Worker | ForkedWorker:
    """A worker process: forked on Linux (`runner.forked`); elsewhere an executor of the
    platform's default kind."""
    if forks():
        from speclint.runner.forked import ForkedWorker

        return ForkedWorker(inherited)
    import multiprocessing

    return Worker(multiprocessing.get_context(), frozenset())


class Worker:
    """One worker process (an executor of one: a worker that dies breaks only its own
    executor), the kinds it has read, and the work it was given that is not done yet."""

    __slots__ = ("context", "pool", "kinds", "inherited", "in_flight")

    def __init__(self, context: BaseContext, inherited: frozenset[str | None]) -> None:
        self.context = context
        self.inherited = inherited
        self.pool = executor(context)
        self.kinds: set[str | None] = set(inherited)
        self.in_flight: list[tuple[Pending, float]] = []

    def load(self) -> float:
        """The estimated work in flight (what is done is forgotten)."""
        self.in_flight = [(pending, cost) for pending, cost in self.in_flight if not pending.done()]
        return sum(cost for _, cost in self.in_flight)

    def submit(self, batch: Sequence[Any], kind: str | None) -> Pending:
        """The batch's results to come (they raise WorkerDied when this worker's executor
        broke: the batch is then linted again where it is collected)."""
        from concurrent.futures.process import BrokenProcessPool

        from speclint.runner.workers import lint_batch

        try:
            pending = Pending(self.pool.submit(lint_batch, list(batch)))
        except BrokenProcessPool:
            return Pending(None)
        self.in_flight.append((pending, len(batch) * file_cost(kind)))
        self.kinds.add(kind)
        return pending

    def replace_if(self, broken: object) -> None:
        """A new process instead of the one that died (once, however many of its batches
        report it): a fresh fork of the main process, with what that had read."""
        if self.pool is broken:
            broken.shutdown(wait=False, cancel_futures=True)
            self.pool = executor(self.context)
            self.kinds = set(self.inherited)
            self.in_flight = []

    def end(self, wait: bool) -> None:
        if not wait:  # Ctrl-C, or the caller stopped early: end the process, don't wait
            for process in list((getattr(self.pool, "_processes", None) or {}).values()):
                process.terminate()  # (no public way to do this before Python 3.14)
        self.pool.shutdown(wait=wait, cancel_futures=True)


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


def executor(context: BaseContext) -> ProcessPoolExecutor:
    # an executor, not multiprocessing.Pool: a worker that dies (a crash in a native parser)
    # breaks the executor instead of hanging the run forever
    from concurrent.futures import ProcessPoolExecutor

    return ProcessPoolExecutor(1, mp_context=context, initializer=_ignore_sigint)


def _ignore_sigint() -> None:
    """Ctrl-C is the main process's to handle: a worker interrupted while it holds the queue
    lock would leave the others waiting for it forever."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
