"""`speclint check` for many files: per-file settings, fixing, and never stopping at one bad file."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator

from speclint.config import ConfigError, Settings, SettingsFinder
from speclint.lint import FileResult, LintOptions, Selection, iter_lint_paths, lint_path


@dataclass(frozen=True)
class CommandLine:
    """What the command line says; None / () means "not given" (a config file may decide)."""

    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    sglang_version: str | None = None
    fail_on: str | None = None
    model_configs: tuple[tuple[str, str], ...] = ()


@dataclass
class Outcome:
    results: list[FileResult] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    """One line per file that could not be linted (or fixed)."""
    diffs: list[str] = field(default_factory=list)
    fixed: int = 0
    fail_on: dict[str, str] = field(default_factory=dict)
    """Failure threshold per linted file (its config may set one)."""


def options_for(path: str, cli: CommandLine, settings: Settings) -> LintOptions:
    select = cli.select or settings.select
    ignore = cli.ignore + settings.ignore + settings.ignores_for(path)
    models = dict(settings.models)
    models.update(cli.model_configs)  # the command line wins
    return LintOptions(cli.sglang_version, Selection(select, ignore), tuple(models.items()),
                       configured_version=settings.sglang_version, read_pyproject=False)


PARALLEL_MIN_FILES = 50
"""From this many files on, `check` lints in worker processes (one per core): below it, starting
them costs more than it saves."""


class LaunchSummary:
    """What `check` keeps of a launch once its rules ran: the release it was checked against
    (all the summary line reads). Keeps memory flat over thousands of files and results cheap
    to send back from worker processes; `explain` keeps the whole LaunchContext."""

    __slots__ = ("version",)

    def __init__(self, version) -> None:
        self.version = version


def check_paths(paths: list[str], cli: CommandLine, finder: SettingsFinder,
                fix: bool = False, diff: bool = False, keep_contexts: bool = True) -> Outcome:
    """Lint every file under `paths`, in input order, one bad file never stopping the rest.
    Without `keep_contexts` (plain `check`), big batches run on every core."""
    outcome = Outcome()
    jobs: list[tuple[str, LintOptions, str] | str] = []  # a job, or an error line, in order
    for path, problem in iter_lint_paths(paths):
        if problem:
            jobs.append(f"{path}: {problem}")
            continue
        try:
            settings = finder.for_path(path)
        except ConfigError as error:
            jobs.append(str(error))
            continue
        jobs.append((path, options_for(path, cli, settings),
                     cli.fail_on or settings.fail_on or "warning"))
    if fix or diff:
        for job in jobs:
            if isinstance(job, str):
                outcome.errors.append(job)
                continue
            path, options, fail_on = job
            if path == "-":  # standard input is linted, never fixed
                _record(outcome, *lint_job((path, options, keep_contexts)), fail_on)
                continue
            try:
                result = _fix_one(path, options, paths, fix, diff, outcome)
            except Exception as exc:  # a bug must not stop the other files
                outcome.errors.append(_internal_error(path, exc))
                continue
            _record(outcome, result, None, fail_on)
        return outcome
    lintable = [job for job in jobs if not isinstance(job, str)]
    linted = _lint_all([(path, options, keep_contexts) for path, options, _ in lintable])
    for job in jobs:
        if isinstance(job, str):
            outcome.errors.append(job)
            continue
        result, error = next(linted)
        _record(outcome, result, error, job[2])
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


def lint_job(job: tuple[str, LintOptions, bool]) -> tuple[FileResult | None, str | None]:
    """Lint one file, never raising (runs in a worker process for big batches)."""
    path, options, keep_contexts = job
    try:
        result = lint_path(path, options)
    except Exception as exc:  # a bug must not stop the other files
        return None, _internal_error(path, exc)
    if not keep_contexts:
        result.contexts = [LaunchSummary(ctx.version) for ctx in result.contexts]
        if not result.findings:
            result.text = ""  # only used to show the lines findings point at
    return result, None


def _lint_all(jobs: list) -> Iterator[tuple[FileResult | None, str | None]]:
    """Results in input order: in this process, or on every core for a big batch (the first
    file is linted here first, so the workers inherit the loaded rules and schema)."""
    workers = min(_usable_cpus(), len(jobs) // PARALLEL_MIN_FILES)
    if workers < 2 or any(job[2] or job[0] == "-" for job in jobs):
        yield from map(lint_job, jobs)
        return
    import multiprocessing
    import sys

    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    yield lint_job(jobs[0])
    # fork reuses what this process already imported; elsewhere the platform's default
    context = multiprocessing.get_context("fork" if sys.platform == "linux" else None)
    chunk = max(1, min(32, len(jobs) // (workers * 8)))
    done = 1
    try:
        # an executor, not multiprocessing.Pool: a worker that dies (a crash in a native
        # parser) breaks the executor instead of hanging the run forever
        with ProcessPoolExecutor(workers, mp_context=context) as pool:
            for item in pool.map(lint_job, jobs[1:], chunksize=chunk):
                yield item
                done += 1
    except BrokenProcessPool:
        for job in jobs[done:]:
            yield _lint_isolated(job, context)


def _lint_isolated(job, context) -> tuple[FileResult | None, str | None]:
    """One file in its own worker, after a worker died: the file that kills it is reported,
    the others are linted."""
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    with ProcessPoolExecutor(1, mp_context=context) as pool:
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


def _fix_one(path, options, roots, fix, diff, outcome) -> FileResult | None:
    from speclint.fix import fix_path

    result, file_diff, applied, problem = fix_path(path, options, roots, write=fix and not diff)
    if problem:
        outcome.errors.append(f"{path}: {problem}")
    outcome.diffs.append(file_diff)
    outcome.fixed += applied
    return result
