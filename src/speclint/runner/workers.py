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
    from concurrent.futures import Future, ProcessPoolExecutor
    from multiprocessing.context import BaseContext
    from typing import Any

    InFlight = list["Linted"] | Future[list["Linted"]] | None
    """A batch's results: linted here, a worker's future, or None when the pool was broken."""

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
    from speclint.report.text import excerpt_lines
    from speclint.rules.drafter import unread_model_configs

    return CheckedFile(
        result.path,
        result.findings,
        [
            LaunchSummary(ctx.version, ctx.counted, ctx.partly_read, bool(unread_model_configs(ctx)))
            for ctx in result.contexts
        ],
        result.error,
        lines=excerpt_lines(result.text, result.findings),
        launch_not_found=result.launch_not_found,
    )


def _checked_text(text: str, path: str, options: LintOptions) -> CheckedFile:
    from speclint.engine import lint_text

    return _checked(lint_text(text, path, options))


def _lint_batch(jobs: list[Job]) -> list[tuple[FileResult | None, str | None]]:
    return [lint_job(job) for job in jobs]


BATCH = 16
"""Files per round trip to a worker: enough to make sending them cheap, few enough that the
workers finish together."""


def lint_all(jobs: Iterable[Job]) -> Generator[Linted, None, None]:
    """Results in input order: in this process, or on every core for a big batch (the first
    file is linted here first, so the workers inherit the loaded rules and schema). Jobs are
    read as they are needed and only a few batches are in flight: memory stays flat."""
    jobs = iter(jobs)
    cpus = _usable_cpus()
    head = list(islice(jobs, cpus * PARALLEL_MIN_FILES))
    workers = min(cpus, len(head) // PARALLEL_MIN_FILES)
    if workers < 2 or any(job[2] for job in head):
        yield from map(lint_job, chain(head, jobs))
        return
    here = {index: lint_job(head[index]) for index in _first_of_each_kind(head)}
    yield from _lint_in_workers(
        chain(((job, here.get(index)) for index, job in enumerate(head)), ((job, None) for job in jobs)),
        workers,
    )


def _first_of_each_kind(head: list[Job]) -> list[int]:
    """The first file of each kind (by name) among the first ones: linted here before the
    workers are forked, so that they inherit what it loaded (the parser, the per-release
    tables) instead of each loading it again."""
    from speclint.frontends import file_kind

    firsts: dict[str | None, int] = {}
    for index, job in enumerate(head):
        firsts.setdefault(file_kind(job[0]), index)
    return sorted(firsts.values())


def _lint_in_workers(jobs: Iterator[tuple[Job, Linted | None]], workers: int) -> Iterator[Linted]:
    """`jobs` with the result of those already linted here (else None), linted in `workers`
    processes, results in input order."""
    import multiprocessing
    import sys
    from concurrent.futures.process import BrokenProcessPool

    # fork reuses what this process already imported; elsewhere the platform's default
    context = multiprocessing.get_context("fork" if sys.platform == "linux" else None)
    # an executor, not multiprocessing.Pool: a worker that dies (a crash in a native parser)
    # breaks the executor instead of hanging the run forever
    pool = _pool(workers, context)
    window: deque[tuple[list[Job], InFlight]] = deque()  # (jobs, future or their results), in input order
    finished = False
    try:
        while True:
            while len(window) < 2 * workers:
                taken = list(islice(jobs, BATCH))
                if not taken:
                    break
                for part, linted in _parts(taken):
                    window.append((part, linted if linted is not None else _submit(pool, part)))
            if not window:
                finished = True
                return
            batch, pending = window.popleft()
            if isinstance(pending, list):
                yield from pending
                continue
            try:
                if pending is None:
                    raise BrokenProcessPool("already broken when this batch was sent")
                results = pending.result()
            except BrokenProcessPool:
                # a worker died: the batches in flight are linted again, then a new pool
                # takes the rest
                pool.shutdown(wait=False, cancel_futures=True)
                lost = [(batch, None), *window]
                window.clear()
                pool = _pool(workers, context)
                for part, done in lost:
                    yield from done if isinstance(done, list) else _relint(part, context)
                continue
            yield from results
    finally:
        if not finished:  # Ctrl-C, or the caller stopped early: end the workers, don't wait
            for process in list((getattr(pool, "_processes", None) or {}).values()):
                process.terminate()  # (no public way to do this before Python 3.14)
        pool.shutdown(wait=finished, cancel_futures=True)


def _submit(pool: ProcessPoolExecutor, batch: list[Job]) -> Future[list[Linted]] | None:
    """The batch's future, or None when the pool already broke (the batch is linted again)."""
    from concurrent.futures.process import BrokenProcessPool

    try:
        return pool.submit(_lint_batch, batch)
    except BrokenProcessPool:
        return None


def _pool(workers: int, context: BaseContext) -> ProcessPoolExecutor:
    from concurrent.futures import ProcessPoolExecutor

    return ProcessPoolExecutor(workers, mp_context=context, initializer=_ignore_sigint)


def _ignore_sigint() -> None:
    """Ctrl-C is the main process's to handle: a worker interrupted while it holds the queue
    lock would leave the others waiting for it forever."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _parts(batch: list[tuple[Job, Linted | None]]) -> list[tuple[list[Job], list[Linted] | None]]:
    """The batch in input order: a file already linted here and standard input (which the
    workers can't read: linted here now) each on its own with its result; the runs of files
    between them for the workers (None)."""
    parts: list[tuple[list[Job], list[Linted] | None]] = []
    for job, done in batch:
        if done is None and job[0] == "-":
            done = lint_job(job)
        if done is not None:
            parts.append(([job], [done]))
        elif parts and parts[-1][1] is None:
            parts[-1][0].append(job)
        else:
            parts.append(([job], None))
    return parts


def _relint(batch: list[Job], context: BaseContext) -> list[tuple[FileResult | None, str | None]]:
    """A batch that was in flight when a worker died, in a process of its own; if that one
    dies too, file by file."""
    from concurrent.futures.process import BrokenProcessPool

    with _pool(1, context) as pool:
        try:
            return pool.submit(_lint_batch, batch).result()
        except BrokenProcessPool:
            pass
    return [_lint_isolated(job, context) for job in batch]


def _lint_isolated(job: Job, context: BaseContext) -> tuple[FileResult | None, str | None]:
    """One file in its own worker, after a worker died: the file that kills it is reported,
    the others are linted."""
    from concurrent.futures.process import BrokenProcessPool

    with _pool(1, context) as pool:
        try:
            return pool.submit(lint_job, job).result()
        except BrokenProcessPool:
            return None, (
                f"{job[0]}: internal error: the process linting this file died "
                "(a crash in a native parser); please report it with the file"
            )


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
