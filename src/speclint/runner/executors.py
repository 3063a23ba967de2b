"""Worker processes where they are not forked (`runner.pool.forks`): one executor each, of
the platform's default kind, importing everything again. A worker that dies breaks only its
own executor."""

from __future__ import annotations

from speclint.runner.pool import WorkerDied, file_cost

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from concurrent.futures import Future, ProcessPoolExecutor
    from multiprocessing.context import BaseContext
    from typing import Any


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


class ExecutorWorker:
    """One worker process (an executor of one: a worker that dies breaks only its own
    executor), the kinds it has read, and the work it was given that is not done yet."""

    __slots__ = ("context", "pool", "kinds", "inherited", "in_flight", "lint_batch")

    def __init__(
        self, context: BaseContext, inherited: frozenset[str | None], lint_batch: Callable[[list[Any]], Any]
    ) -> None:
        self.context = context
        self.lint_batch = lint_batch
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

        try:
            pending = Pending(self.pool.submit(self.lint_batch, list(batch)))
        except BrokenProcessPool:
            return Pending(None)
        self.in_flight.append((pending, len(batch) * file_cost(kind)))
        self.kinds.add(kind)
        return pending

    def replace_if(self, broken: object) -> None:
        """A new process instead of the one that died (once, however many of its batches
        report it)."""
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
