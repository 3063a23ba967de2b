"""Worker processes forked from this one, each with a pair of pipes (Linux).

A worker inherits everything this process imported and read, the options included, so a
request is only the batch's jobs and a reply only their results, each one pickle behind its
length (`runner.wire`). No thread runs here (an executor runs two per worker in this
process, and every job and result passes through them). A worker that dies closes its
pipe: its batches are linted again, in a fresh fork, and only the file that kills a worker
is reported.
"""

from __future__ import annotations

import os

from speclint.runner import wire
from speclint.runner.pool import WorkerDied, file_cost

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any

HEADER = 4
"""Bytes of a message's length, before its pickle."""

_parent_ends: set[int] = set()
"""This process's ends of every worker's pipes: a new fork closes them, so that a worker sees
the end of its requests when this process closes them (not when its siblings exit)."""


class Reply:
    """A batch's results, to come from the worker it was sent to (in the order sent)."""

    __slots__ = ("worker", "results", "ready")

    def __init__(self, worker: ForkedWorker) -> None:
        self.worker = worker
        self.results: Any = None
        self.ready = False

    def done(self) -> bool:
        if not self.ready:
            self.worker.poll()
        return self.ready

    def result(self) -> Any:
        while not self.ready:
            self.worker.wait_reply()
        if isinstance(self.results, WorkerDied):
            raise self.results
        return self.results


class ForkedWorker:
    """One forked worker: the kinds it has read, and its replies not read yet (in order)."""

    __slots__ = (
        "lint_batch",
        "pid",
        "requests",
        "replies",
        "buffer",
        "waiting",
        "kinds",
        "inherited",
        "in_flight",
        "alive",
    )

    def __init__(self, inherited: frozenset[str | None], lint_batch: Callable[[list[Any]], Any]) -> None:
        self.inherited = inherited
        self.lint_batch = lint_batch
        self._start()

    def _start(self) -> None:
        self.kinds: set[str | None] = set(self.inherited)
        self.in_flight: list[tuple[Reply, float]] = []
        self.waiting: list[Reply] = []
        self.buffer = bytearray()
        self.alive = True
        to_worker, requests = os.pipe()
        replies, from_worker = os.pipe()
        wire.dispatch_table()  # (made once, before the fork: every worker inherits it)
        pid = os.fork()
        if pid == 0:  # the worker: never returns
            os.close(requests)
            os.close(replies)
            for fd in _parent_ends:
                os.close(fd)
            _serve(to_worker, from_worker, self.lint_batch)
        os.close(to_worker)
        os.close(from_worker)
        os.set_blocking(requests, False)
        self.pid, self.requests, self.replies = pid, requests, replies
        _parent_ends.update((requests, replies))

    @property
    def pool(self) -> int:
        """Which process a batch was sent to (`replace_if` replaces it once, however many of
        its batches report it died)."""
        return self.pid

    def load(self) -> float:
        """The estimated work in flight (what is done is forgotten): the replies already
        written are taken first, with one look at the pipe (not one per batch in flight)."""
        self.poll()
        self.in_flight = [(reply, cost) for reply, cost in self.in_flight if not reply.ready]
        return sum(cost for _, cost in self.in_flight)

    def submit(self, batch: Sequence[Any], kind: str | None) -> Reply:
        reply = Reply(self)
        self.kinds.add(kind)
        self.in_flight.append((reply, len(batch) * file_cost(kind)))
        self.waiting.append(reply)
        if self.alive:
            payload = wire.dumps(list(batch))
            self._write(len(payload).to_bytes(HEADER, "little") + payload)
        if not self.alive:
            self._died()
        return reply

    def _write(self, data: bytes) -> None:
        """Writes a request whole; while the pipe is full, reads what the worker answers
        meanwhile (else both would wait for the other forever)."""
        import select

        view = memoryview(data)
        while view and self.alive:
            try:
                view = view[os.write(self.requests, view) :]
            except BlockingIOError:
                readable, _, _ = select.select([self.replies], [self.requests], [])
                if readable:
                    self._read()
            except OSError:  # the worker is gone (EPIPE)
                self.alive = False

    def _read(self) -> None:
        """Reads what the worker has written (at least one byte, or learns it ended)."""
        chunk = os.read(self.replies, 1 << 16) if self.alive else b""
        if not chunk:
            self.alive = False
        self.buffer += chunk

    def _take(self) -> bool:
        """Hands the replies complete in the buffer to their batches; False if none was."""
        taken = False
        while self.waiting and len(self.buffer) >= HEADER:
            size = int.from_bytes(self.buffer[:HEADER], "little")
            if len(self.buffer) < HEADER + size:
                break
            reply = self.waiting.pop(0)
            reply.results = wire.loads(self.buffer[HEADER : HEADER + size])
            reply.ready = True
            del self.buffer[: HEADER + size]
            taken = True
        return taken

    def poll(self) -> None:
        """Takes the replies already written, without waiting."""
        import select

        while self.alive and select.select([self.replies], [], [], 0)[0]:
            self._read()
        if not self._take() and not self.alive:
            self._died()

    def wait_reply(self) -> None:
        """Waits until the oldest batch's reply is complete, or the worker died."""
        while not self._take():
            if not self.alive:
                self._died()
                return
            self._read()

    def _died(self) -> None:
        """Every batch still waiting learns the worker died."""
        for reply in self.waiting:
            reply.results, reply.ready = WorkerDied(), True
        self.waiting = []

    def replace_if(self, broken: object) -> None:
        """A fresh fork instead of this worker's process when it is the one that died (once,
        however many of its batches report it)."""
        if broken == self.pid:
            self.end(wait=False)
            self._start()

    def end(self, wait: bool) -> None:
        """Closes the requests (the worker then sends what it added to the stores kept between
        runs, `_keep_learned`, and exits); without `wait` (Ctrl-C, a caller that stopped
        early) the worker is ended at once."""
        import signal

        if not wait and self.alive:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        elif self.alive and self.requests in _parent_ends:
            self._keep_learned()
        for fd in (self.requests, self.replies):
            if fd in _parent_ends:
                _parent_ends.discard(fd)
                os.close(fd)
        self.alive = False
        self._died()
        try:
            os.waitpid(self.pid, 0)
        except ChildProcessError:
            pass

    def _keep_learned(self) -> None:
        """Ends the requests and reads the worker's last message, what it added to the
        stores of values kept between runs, for this process to write (`core.kept.take`)."""
        _parent_ends.discard(self.requests)
        os.close(self.requests)
        os.set_blocking(self.replies, True)
        while self.alive:
            self._read()
        self._take()  # (the replies still waiting, if any)
        if self.waiting or len(self.buffer) < HEADER:
            return
        size = int.from_bytes(self.buffer[:HEADER], "little")
        if len(self.buffer) == HEADER + size and size:
            from speclint.core import kept

            kept.take(bytes(self.buffer[HEADER:]))


def _serve(requests: int, replies: int, lint_batch: Callable[[list[Any]], Any]) -> None:
    """The worker's loop: a batch in, its results out, until the requests end."""
    import signal

    status = 1
    try:
        # Ctrl-C is the main process's to handle
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        while True:
            header = _read_exactly(requests, HEADER)
            if not header:  # the end: what this worker put in the stores, for `end` to keep
                learned = _added()
                _write_all(replies, len(learned).to_bytes(HEADER, "little") + learned)
                status = 0
                break
            jobs = wire.loads(_read_exactly(requests, int.from_bytes(header, "little")))
            payload = wire.dumps(lint_batch(jobs))
            _write_all(replies, len(payload).to_bytes(HEADER, "little") + payload)
    finally:
        os._exit(status)


def _added() -> bytes:
    """What this worker added to the stores of values kept between runs (`core.kept`), which
    only the command's own process writes: a release's flag table read from JSON, a module
    imported the usual way would else be worked out again by every parallel run."""
    import sys

    kept = sys.modules.get("speclint.core.kept")
    return kept.added() if kept is not None else b""


def _read_exactly(fd: int, size: int) -> bytes:
    """`size` bytes, or b"" at the end of the requests."""
    data = b""
    while len(data) < size:
        chunk = os.read(fd, size - len(data))
        if not chunk:
            return b""
        data += chunk
    return data


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
