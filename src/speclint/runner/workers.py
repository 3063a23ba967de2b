"""Linting many files: one file at a time, never raising (`lint_job`), in this process or on
every core for a big batch, in input order, a worker that dies costing only its file."""

from __future__ import annotations

from collections import deque
from itertools import chain, islice

from speclint.engine import FileResult, lint_path
from speclint.runner.results import CheckedFile, LaunchSummary
from speclint.settings.options import LintOptions

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Generator, Iterable, Iterator
    from typing import Any, TypeAlias

    from speclint.runner.executors import ExecutorWorker, Pending
    from speclint.runner.forked import ForkedWorker, Reply
    from speclint.runner.staged import Later, LaterReply

    AnyWorker: TypeAlias = "ExecutorWorker | ForkedWorker"
    InFlight: TypeAlias = "list[Linted] | Pending | Reply | LaterReply"
    """A batch's results: linted here, or to come from a worker."""

PARALLEL_MIN_FILES = 50
"""From this many files on, `check` lints in worker processes (one per core): below it, starting
them costs more than it saves."""


Job = tuple[str, LintOptions, bool, "str | None"]
"""(path, options, keep_contexts, cache_dir): what a worker needs to lint one file."""
Linted = tuple[FileResult | None, "str | None"]
"""(result, None) or (None, error line): what linting one file gives."""


def internal_error(path: str, exc: BaseException) -> str:
    return f"{path}: internal error while linting ({type(exc).__name__}: {exc}); please report it"


def lint_job(job: Job) -> tuple[Any, ...]:
    """Lint one file, never raising (runs in a worker process for big batches): (result,
    error), and for a file linted for the result cache (result, error, (key, entry))."""
    path, options, keep_contexts, cache_dir = job
    try:
        if cache_dir is not None and not keep_contexts and path != "-":
            from speclint.runner.cache import entry_for

            result, stored = entry_for(path, options, _checked_text)
            if result is not None:
                return result, None, stored
        result = lint_path(path, options)
        if not keep_contexts:
            result = _checked(result)
    except Exception as exc:  # a bug must not stop the other files
        return None, internal_error(path, exc)
    return result, None


def _checked(result: FileResult) -> CheckedFile:
    """What `check` keeps of a lint result (see CheckedFile)."""
    # (modules, not names: `from M import name` in a function costs a failed lookup each call)
    import speclint.report.text as report_text
    import speclint.rules.drafter as drafter

    return CheckedFile(
        result.path,
        result.findings,
        [
            LaunchSummary(ctx.version, ctx.counted, ctx.partly_read, bool(drafter.unread_model_configs(ctx)))
            for ctx in result.contexts
        ],
        result.error,
        lines=report_text.excerpt_lines(result.text, result.findings),
        launch_not_found=result.launch_not_found,
    )


def _checked_text(text: str, path: str, options: LintOptions) -> CheckedFile:
    from speclint.engine import lint_text

    return _checked(lint_text(text, path, options))


def lint_batch(jobs: list[Job]) -> list[Linted]:
    return [lint_job(job) for job in jobs]


BATCH = 16
"""Files per round trip to a worker: enough to make sending them cheap, few enough that the
workers finish together."""


ROUNDS_PER_WORKER = 4
"""Rounds of BATCH files in flight per worker (results come back in input order: a round
waits for its slowest part, and while the oldest round waits no new one is sent)."""


def lint_all(jobs: Iterable[Job]) -> Generator[Linted, None, None]:
    """Results in input order: in this process, or on every core for a big batch (one file
    of the batch's main kind is linted here first, so the workers inherit the loaded rules,
    schema and parser). Jobs are read as they are needed and only a few batches are in
    flight: memory stays flat."""
    jobs = iter(jobs)
    cpus = _usable_cpus()
    head = list(islice(jobs, cpus * PARALLEL_MIN_FILES))
    workers = min(cpus, len(head) // PARALLEL_MIN_FILES)
    if workers < 2 or any(job[2] for job in head):
        yield from map(lint_job, chain(head, jobs))
        return
    from speclint.frontends import file_kind
    from speclint.runner.pool import forks, warm_up_kind

    kinds = [file_kind(job[0]) for job in head]
    first = kinds.index(warm_up_kind(kinds))
    here = {first: lint_job(head[first])}
    yield from _lint_in_workers(
        chain(((job, here.get(index)) for index, job in enumerate(head)), ((job, None) for job in jobs)),
        workers,
        frozenset({kinds[first]}),
        frozenset(kinds) - {kinds[first]} if forks() else frozenset(),
    )


Piece = tuple[list[int], "InFlight", "tuple[AnyWorker | Later, object] | None"]
"""A part of a round: its jobs' indices in the round, its results (linted here, or to come
from a worker), and the worker and the process it went to."""


def _lint_in_workers(
    jobs: Iterator[tuple[Job, Linted | None]],
    count: int,
    inherited: frozenset[str | None],
    other_kinds: frozenset[str | None] = frozenset(),
) -> Iterator[Linted]:
    """`jobs` with the result of those already linted here (else None), linted in `count`
    processes (`runner.pool`: each batch to the worker expected to finish it first),
    results in input order. With `other_kinds` (kinds of the first files other than those
    read here), the last worker is started once the first rounds are sent and this process
    has read one file of each (`runner.staged`)."""
    workers: list[AnyWorker | Later] = [
        start_worker(inherited) for _ in range(count - 1 if other_kinds else count)
    ]
    later = None
    if other_kinds:
        from speclint.runner.staged import Later

        later = Later(inherited, other_kinds)
        workers.append(later)
    window: deque[tuple[list[Job], list[Piece]]] = deque()  # rounds of BATCH files, in input order
    finished = False
    try:
        while True:
            while len(window) < ROUNDS_PER_WORKER * count:
                taken = list(islice(jobs, BATCH))
                if not taken:
                    break
                window.append(([job for job, _ in taken], _send(taken, workers)))
            if later is not None:
                workers[-1] = later.start(lint_job, start_worker)
                later = None
            if not window:
                finished = True
                return
            batch, pieces = window.popleft()
            placed: dict[int, Linted] = {}
            for indices, pending, sent_to in pieces:
                placed.update(
                    zip(indices, _collect([batch[i] for i in indices], pending, sent_to, inherited))
                )
            yield from (placed[index] for index in range(len(batch)))
    finally:
        for worker in workers:
            worker.end(wait=finished)


def _send(taken: list[tuple[Job, Linted | None]], workers: list[AnyWorker | Later]) -> list[Piece]:
    """One round: the files already linted here and standard input (which the workers can't
    read: linted here now) with their results; the others by kind, each kind's files to the
    worker `runner.pool.choose` picks (told whether the round has files that any worker
    reads without a warm-up)."""
    from speclint.frontends import file_kind
    from speclint.runner.pool import choose, evens_out

    pieces: list[Piece] = []
    by_kind: dict[str | None, list[int]] = {}
    for index, (job, done) in enumerate(taken):
        if done is None and job[0] == "-":
            done = lint_job(job)
        if done is not None:
            pieces.append(([index], [done], None))
        else:
            by_kind.setdefault(file_kind(job[0]), []).append(index)
    evened_out = any(evens_out(workers, kind) for kind in by_kind)
    for kind, indices in by_kind.items():
        worker = choose(workers, kind, evened_out)
        process = worker.pool
        pieces.append((indices, worker.submit([taken[i][0] for i in indices], kind), (worker, process)))
    return pieces


def _collect(
    batch: list[Job],
    pending: InFlight,
    sent_to: tuple[AnyWorker | Later, object] | None,
    inherited: frozenset[str | None],
) -> list[Linted]:
    """A piece's results; when its worker died, the piece is linted again (`_relint`) and
    the worker is replaced."""
    from speclint.runner.pool import WorkerDied

    if isinstance(pending, list):
        return pending
    try:
        results: list[Linted] = pending.result()
        return results
    except WorkerDied:
        if sent_to is not None:
            worker, process = sent_to
            worker.replace_if(process)
        return _relint(batch, inherited)


def _relint(batch: list[Job], inherited: frozenset[str | None]) -> list[Linted]:
    """A batch that was in flight when a worker died, in a process of its own; if that one
    dies too, file by file."""
    from speclint.runner.pool import WorkerDied

    worker = start_worker(inherited)
    try:
        results: list[Linted] = worker.submit(batch, None).result()
        return results
    except WorkerDied:
        pass
    finally:
        worker.end(wait=True)
    return [_lint_isolated(job, inherited) for job in batch]


def _lint_isolated(job: Job, inherited: frozenset[str | None]) -> Linted:
    """One file in its own worker, after a worker died: the file that kills it is reported,
    the others are linted."""
    from speclint.runner.pool import WorkerDied

    worker = start_worker(inherited)
    try:
        results: list[Linted] = worker.submit([job], None).result()
        return results[0]
    except WorkerDied:
        return None, (
            f"{job[0]}: internal error: the process linting this file died "
            "(a crash in a native parser); please report it with the file"
        )
    finally:
        worker.end(wait=True)


def start_worker(inherited: frozenset[str | None]) -> AnyWorker:
    """A worker process: forked on Linux (`runner.forked`: it inherits what this process read
    of the kinds `inherited`); elsewhere an executor of the platform's default kind."""
    from speclint.runner.pool import forks

    if forks():
        from speclint.runner.forked import ForkedWorker

        return ForkedWorker(inherited, lint_batch)
    import multiprocessing

    from speclint.runner.executors import ExecutorWorker

    return ExecutorWorker(multiprocessing.get_context(), frozenset(), lint_batch)


def _usable_cpus() -> int:
    """The cores this process may use; env SPECLINT_WORKERS overrides (1: no worker processes)."""
    import os

    wanted = os.environ.get("SPECLINT_WORKERS", "")
    if wanted.isdigit() and int(wanted) > 0:
        return int(wanted)
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1
