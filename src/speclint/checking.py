"""`speclint check` for many files: per-file settings, fixing, and never stopping at one bad file."""

from __future__ import annotations

import os
from collections import deque
from dataclasses import dataclass, field
from itertools import chain, islice
from typing import TYPE_CHECKING, Iterable, Iterator

from speclint.config import ConfigError, Settings, SettingsFinder
from speclint.lint import FileResult, LintOptions, Selection, iter_lint_paths, lint_path

if TYPE_CHECKING:
    from speclint.resolve.gpu_profiles import GpuProfile


@dataclass(frozen=True)
class CommandLine:
    """What the command line says; None / () means "not given" (a config file may decide)."""

    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    sglang_version: str | None = None
    fail_on: str | None = None
    model_configs: tuple[tuple[str, str], ...] = ()
    extend_select: tuple[str, ...] = ()
    unsafe_fixes: bool = False
    """--unsafe-fixes: --fix/--diff also apply fixes that change what the launch asks for."""
    stdin_filename: str | None = None
    """--stdin-filename: the name standard input is linted, configured and reported as."""
    exclude: tuple[str, ...] | None = None
    extend_exclude: tuple[str, ...] = ()
    respect_gitignore: bool | None = None
    cache_dir: str | None = None
    """Where `check` keeps results for re-runs (`speclint.runner.cache`); None: no cache."""
    gpu: GpuProfile | None = None
    """From `--gpu`/`--gpus` (wins over the configuration's `gpu`)."""


@dataclass
class Outcome:
    results: list[FileResult] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    """One line per file that could not be linted (or fixed)."""
    diffs: list[str] = field(default_factory=list)
    fixed: int = 0
    fixed_codes: dict[str, dict[str, int]] = field(default_factory=dict)
    """path -> code -> findings fixed (`--show-fixes`)."""
    stdin_fixed: str | None = None
    """Standard input after `--fix` (written to standard output, as ruff does)."""
    fail_on: dict[str, str] = field(default_factory=dict)
    """Failure threshold per linted file (its config may set one)."""


def options_for(path: str, cli: CommandLine, settings: Settings) -> LintOptions:
    select = cli.select or settings.select
    if not select:  # ruff's way: a default rule set, opt-in rules only when selected
        from speclint.rules import default_selection

        select = default_selection()
    select += settings.extend_select + cli.extend_select
    ignore = cli.ignore + settings.ignore + settings.ignores_for(path)
    models = dict(settings.models)
    models.update(cli.model_configs)  # the command line wins
    gpu = cli.gpu
    if gpu is None and settings.gpu:
        from speclint.resolve.gpu_profiles import parse_gpu_setting

        gpu = parse_gpu_setting(settings.gpu)
    return LintOptions(cli.sglang_version, Selection(select, ignore), tuple(models.items()),
                       configured_version=settings.sglang_version,
                       stdin_filename=cli.stdin_filename, read_pyproject=False,
                       flag_prefixes=settings.flag_prefixes or None, gpu=gpu)


def walk_options(cli: CommandLine, settings: Settings):
    """What a folder walk skips: the command line over the configuration over the defaults."""
    from speclint.walk import DEFAULT_EXCLUDE, WalkOptions

    exclude = cli.exclude if cli.exclude is not None else settings.exclude
    respect = cli.respect_gitignore if cli.respect_gitignore is not None \
        else settings.respect_gitignore
    return WalkOptions(DEFAULT_EXCLUDE if exclude is None else exclude,
                       settings.extend_exclude + cli.extend_exclude,
                       True if respect is None else respect)


PARALLEL_MIN_FILES = 50
"""From this many files on, `check` lints in worker processes (one per core): below it, starting
them costs more than it saves."""


class LaunchSummary:
    """What `check` keeps of a launch once its rules ran: the release it was checked against
    (all the summary line reads). Keeps memory flat over thousands of files and results cheap
    to send back from worker processes; `explain` keeps the whole LaunchContext."""

    __slots__ = ("version", "counted", "partly_read", "drafter_unchecked")

    def __init__(self, version, counted: bool = True, partly_read: bool = False,
                 drafter_unchecked: bool = False) -> None:
        self.version = version
        self.counted = counted
        """False for the second and later alternatives of one launch (counted once)."""
        self.partly_read = partly_read
        """Some words SGLang would receive are unknown to speclint."""
        self.drafter_unchecked = drafter_unchecked
        """An EAGLE-family launch whose model configs are not on disk (DRF011's case)."""


@dataclass(slots=True)
class CheckedFile(FileResult):
    """What `check` keeps of a file: findings, a LaunchSummary per launch and only the source
    lines findings point at (`text` stays empty): cheap to send back from a worker and to hold."""

    lines: dict[int, str] = field(default_factory=dict)


Job = tuple[str, LintOptions, bool, "str | None"]
"""(path, options, keep_contexts, cache_dir): what a worker needs to lint one file."""


def _plan(paths: list[str], cli: CommandLine, finder: SettingsFinder) -> Iterator[tuple | str]:
    """(path, options, fail_on) per file to lint, or an error line, in input order, lazily."""
    def walk(root: str):
        try:
            return walk_options(cli, finder.for_folder(root))
        except ConfigError:
            return walk_options(cli, Settings())  # reported with the root's first file

    for path, problem in iter_lint_paths(paths, walk):
        if problem:
            yield f"{path}: {problem}"
            continue
        named = cli.stdin_filename if path == "-" and cli.stdin_filename else path
        try:
            settings = finder.for_path(named)
        except ConfigError as error:
            yield str(error)
            continue
        yield path, options_for(named, cli, settings), cli.fail_on or settings.fail_on or "warning"


def stream_paths(paths: list[str], cli: CommandLine, finder: SettingsFinder,
                 keep_contexts: bool = False) -> Iterator[str | tuple[FileResult, str]]:
    """Each file's result with its failure threshold, or an error line, in input order, as
    soon as it is linted: `check` reports while the rest is linted and keeps nothing.
    Without `keep_contexts`, big batches run on every core and results are CheckedFiles."""
    order: deque = deque()  # planned items whose results have not come back yet

    def jobs() -> Iterator[Job]:
        for item in _plan(paths, cli, finder):
            order.append(item)
            if not isinstance(item, str):
                yield item[0], item[1], keep_contexts, None if keep_contexts else cli.cache_dir

    linted = _lint_all(jobs())
    try:
        for result, error in linted:
            while isinstance(order[0], str):
                yield order.popleft()
            fail_on = order.popleft()[2]
            if error is not None:
                yield error
            elif result.error:
                yield f"{result.path}: {result.error}"
            else:
                yield result, fail_on
        yield from order  # error lines after the last file
    finally:
        linted.close()  # stop the workers now when the caller stops early


def check_paths(paths: list[str], cli: CommandLine, finder: SettingsFinder,
                fix: bool = False, diff: bool = False, keep_contexts: bool = True) -> Outcome:
    """Every file under `paths` at once, in input order, one bad file never stopping the rest:
    for `explain` (LaunchContexts) and --fix/--diff; `check` streams (`stream_paths`)."""
    outcome = Outcome()
    if not (fix or diff):
        for item in stream_paths(paths, cli, finder, keep_contexts):
            if isinstance(item, str):
                outcome.errors.append(item)
            else:
                outcome.results.append(item[0])
                outcome.fail_on[item[0].path] = item[1]
        return outcome
    for job in list(_plan(paths, cli, finder)):  # the whole walk before any file is rewritten
        if isinstance(job, str):
            outcome.errors.append(job)
            continue
        path, options, fail_on = job
        try:
            result = (_fix_stdin(options, fix, diff, cli.unsafe_fixes, outcome) if path == "-"
                      else _fix_one(path, options, paths, fix, diff, outcome, cli.unsafe_fixes))
        except Exception as exc:  # a bug must not stop the other files
            outcome.errors.append(_internal_error(path, exc))
            continue
        _record(outcome, result, None, fail_on)
    return outcome


def _record(outcome: Outcome, result: FileResult | None, error: str | None, fail_on: str) -> None:
    if error is not None:
        outcome.errors.append(error)
    elif result is not None and result.error:
        outcome.errors.append(f"{result.path}: {result.error}")
    elif result is not None:
        outcome.results.append(result)
        outcome.fail_on[result.path] = fail_on


def _internal_error(path: str, exc: BaseException) -> str:
    return (f"{path}: internal error while linting ({type(exc).__name__}: {exc}); "
            "please report it")


def lint_job(job: Job) -> tuple[FileResult | None, str | None]:
    """Lint one file, never raising (runs in a worker process for big batches)."""
    path, options, keep_contexts, cache_dir = job
    try:
        if cache_dir is not None and not keep_contexts and path != "-":
            from speclint.runner.cache import ResultCache, cached_check

            result = cached_check(path, options, ResultCache(cache_dir), _checked_text)
            if result is not None:
                return result, None
        result = lint_path(path, options)
        if not keep_contexts:
            result = _checked(result)
    except Exception as exc:  # a bug must not stop the other files
        return None, _internal_error(path, exc)
    return result, None


def _checked(result: FileResult) -> "CheckedFile":
    """What `check` keeps of a lint result (see CheckedFile)."""
    from speclint.report.text import excerpt_lines
    from speclint.rules.drafter import unread_model_configs

    return CheckedFile(result.path, result.findings,
                       [LaunchSummary(ctx.version, ctx.counted, ctx.partly_read,
                                      bool(unread_model_configs(ctx)))
                        for ctx in result.contexts],
                       result.error, lines=excerpt_lines(result.text, result.findings),
                       launch_not_found=result.launch_not_found)


def _checked_text(text: str, path: str, options: LintOptions) -> "CheckedFile":
    from speclint.lint import lint_text

    return _checked(lint_text(text, path, options))


def _lint_batch(jobs: list[Job]) -> list[tuple[FileResult | None, str | None]]:
    return [lint_job(job) for job in jobs]


BATCH = 16
"""Files per round trip to a worker: enough to make sending them cheap, few enough that the
workers finish together."""


def _lint_all(jobs: Iterable[Job]) -> Iterator[tuple[FileResult | None, str | None]]:
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
    yield lint_job(head[0])
    yield from _lint_in_workers(chain(head[1:], jobs), workers)


def _lint_in_workers(jobs: Iterator[Job], workers: int):
    import multiprocessing
    import sys

    from concurrent.futures.process import BrokenProcessPool

    # fork reuses what this process already imported; elsewhere the platform's default
    context = multiprocessing.get_context("fork" if sys.platform == "linux" else None)
    # an executor, not multiprocessing.Pool: a worker that dies (a crash in a native parser)
    # breaks the executor instead of hanging the run forever
    pool = _pool(workers, context)
    window: deque = deque()  # (jobs, future or their results), in input order
    finished = False
    try:
        while True:
            while len(window) < 2 * workers:
                batch = list(islice(jobs, BATCH))
                if not batch:
                    break
                for part in _split_stdin(batch):  # workers can't read our standard input
                    window.append((part, [lint_job(part[0])] if part[0][0] == "-"
                                   else _submit(pool, part)))
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


def _submit(pool, batch: list[Job]):
    """The batch's future, or None when the pool already broke (the batch is linted again)."""
    from concurrent.futures.process import BrokenProcessPool

    try:
        return pool.submit(_lint_batch, batch)
    except BrokenProcessPool:
        return None


def _pool(workers: int, context):
    from concurrent.futures import ProcessPoolExecutor

    return ProcessPoolExecutor(workers, mp_context=context, initializer=_ignore_sigint)


def _ignore_sigint() -> None:
    """Ctrl-C is the main process's to handle: a worker interrupted while it holds the queue
    lock would leave the others waiting for it forever."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _split_stdin(batch: list[Job]) -> list[list[Job]]:
    """`-` in a batch of its own (linted here), the rest as they are."""
    if all(job[0] != "-" for job in batch):
        return [batch]
    parts: list[list[Job]] = [[]]
    for job in batch:
        if job[0] == "-":
            parts += [[job], []]
        else:
            parts[-1].append(job)
    return [part for part in parts if part]


def _relint(batch: list[Job], context) -> list[tuple[FileResult | None, str | None]]:
    """A batch that was in flight when a worker died, in a process of its own; if that one
    dies too, file by file."""
    from concurrent.futures.process import BrokenProcessPool

    with _pool(1, context) as pool:
        try:
            return pool.submit(_lint_batch, batch).result()
        except BrokenProcessPool:
            pass
    return [_lint_isolated(job, context) for job in batch]


def _lint_isolated(job, context) -> tuple[FileResult | None, str | None]:
    """One file in its own worker, after a worker died: the file that kills it is reported,
    the others are linted."""
    from concurrent.futures.process import BrokenProcessPool

    with _pool(1, context) as pool:
        try:
            return pool.submit(lint_job, job).result()
        except BrokenProcessPool:
            return None, (f"{job[0]}: internal error: the process linting this file died "
                          "(a crash in a native parser); please report it with the file")


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


def _fix_one(path, options, roots, fix, diff, outcome, unsafe=False) -> FileResult | None:
    from speclint.fix import fix_path

    counts: dict[str, int] = {}
    result, file_diff, applied, problem = fix_path(path, options, roots, write=fix and not diff,
                                                   unsafe=unsafe, counts=counts)
    if problem:
        outcome.errors.append(f"{path}: {problem}")
    outcome.diffs.append(file_diff)
    outcome.fixed += applied
    if applied:
        outcome.fixed_codes[path] = counts
    return result


def _fix_stdin(options, fix, diff, unsafe, outcome) -> FileResult | None:
    """`--fix -` / `--diff -`: standard input is fixed in memory; `--fix` writes the fixed
    text to standard output (the CLI puts the report on standard error), `--diff` a diff."""
    from speclint.fix import fix_text, unified_diff
    from speclint.frontends.reading import read_source
    from speclint.lint import stdin_names, too_large_result

    text, problem, size = read_source("-")
    frontend, display = stdin_names(options)
    if problem is not None:
        outcome.errors.append(f"{display}: {problem}")
        return None
    if text is None:
        return too_large_result(display, size, options)
    counts: dict[str, int] = {}
    result, fixed, applied = fix_text(text, frontend, options, unsafe, display, counts)
    outcome.fixed += applied
    if applied:
        outcome.fixed_codes[display] = counts
    outcome.diffs.append(unified_diff(display, text, fixed) if fixed != text else "")
    if fix and not diff:
        outcome.stdin_fixed = fixed
    return result
