"""A worker started once this process has read the kinds the others were not forked with.

The main process reads one file of the cheapest kind to warm up (a shell script) before it
forks, so that every worker inherits the rules, the schema and the shell parser. A Python or
Markdown file's first read costs far more (~35 and ~20 ms of imports and set-up): read in
each worker, it is paid once per worker. So on 2 cores one worker is forked at once and
lints shell scripts, while this process reads the first file of each other kind of the
first rounds, then forks the last worker, which inherits them too. Until then, the batches
chosen for it wait here (`Later`).
"""

from __future__ import annotations

from speclint.runner.pool import WorkerDied, file_cost

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any, TypeAlias

    from speclint.runner.executors import ExecutorWorker
    from speclint.runner.forked import ForkedWorker

    Started: TypeAlias = "ExecutorWorker | ForkedWorker"


class LaterReply:
    """A batch sent to the worker to come: the result of its first file when this process
    read it, and the rest's, to come from the worker once started."""

    __slots__ = ("first", "inner", "sent_to")

    def __init__(self) -> None:
        self.first: list[Any] = []
        self.inner: Any = None
        self.sent_to: tuple[Started, object] | None = None

    def done(self) -> bool:
        return self.inner is None or self.inner.done()

    def result(self) -> list[Any]:
        if self.inner is None:
            return self.first
        try:
            return self.first + list(self.inner.result())
        except WorkerDied:
            if self.sent_to is not None:
                worker, process = self.sent_to
                worker.replace_if(process)
            raise


class Later:
    """The worker to start: it counts as warm for `kinds` and idle but for what waits here."""

    __slots__ = ("inherited", "kinds", "waiting")

    def __init__(self, inherited: frozenset[str | None], kinds: frozenset[str | None]) -> None:
        self.inherited = inherited
        self.kinds = set(inherited | kinds)
        self.waiting: list[tuple[list[Any], str | None, LaterReply]] = []

    @property
    def pool(self) -> int:
        return id(self)

    def load(self) -> float:
        return sum(len(batch) * file_cost(kind) for batch, kind, _ in self.waiting)

    def submit(self, batch: Sequence[Any], kind: str | None) -> LaterReply:
        reply = LaterReply()
        self.waiting.append((list(batch), kind, reply))
        return reply

    def start(
        self, lint_here: Callable[[Any], Any], start_worker: Callable[[frozenset[str | None]], Started]
    ) -> Started:
        """Reads here the first file of each kind waiting that the others were not forked
        with, then forks the worker (which inherits them) and sends it what waits."""
        read = set(self.inherited)
        for batch, kind, reply in self.waiting:
            if kind not in read:
                read.add(kind)
                reply.first = [lint_here(batch.pop(0))]
        worker = start_worker(frozenset(read))
        for batch, kind, reply in self.waiting:
            if batch:
                reply.sent_to = (worker, worker.pool)
                reply.inner = worker.submit(batch, kind)
        self.waiting = []
        return worker

    def replace_if(self, broken: object) -> None:
        """(A batch sent here learns of its worker's death through its reply.)"""

    def end(self, wait: bool) -> None:
        """Never started: nothing to end."""
