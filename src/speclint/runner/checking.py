"""`speclint check` for many files: per-file settings, fixing, and never stopping at one bad file."""

from __future__ import annotations

from collections import deque

from speclint.core import collector
from speclint.runner.walk import iter_lint_paths
from speclint.runner.workers import internal_error, lint_all
from speclint.settings.errors import ConfigError
from speclint.settings.files import Settings
from speclint.settings.merge import options_with, walk_options
from speclint.settings.options import LintOptions

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Generator, Iterator

    from speclint.engine import FileResult
    from speclint.runner.outcome import Outcome
    from speclint.runner.workers import Job
    from speclint.settings.files import SettingsFinder
    from speclint.settings.merge import CommandLine
    from speclint.settings.options import WalkOptions

Planned = tuple[str, LintOptions, str]
"""(path, options, fail_on): a file `check` lints."""


def _plan(paths: list[str], cli: CommandLine, finder: SettingsFinder) -> Iterator[Planned | str]:
    """(path, options, fail_on) per file to lint, or an error line, in input order, lazily."""

    def walk(root: str) -> WalkOptions:
        try:
            return walk_options(cli, finder.for_folder(root))
        except ConfigError:
            return walk_options(cli, Settings())  # reported with the root's first file

    made: dict[tuple[int, tuple[str, ...]], tuple[Settings, LintOptions]] = {}
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
        key = (id(settings), settings.ignores_for(named))
        known = made.get(key)
        if known is None or known[0] is not settings:  # (the settings object is kept: ids stay unique)
            known = made[key] = (settings, options_with(key[1], cli, settings))
        yield path, known[1], cli.fail_on or settings.fail_on or "warning"


def stream_paths(
    paths: list[str], cli: CommandLine, finder: SettingsFinder, keep_contexts: bool = False
) -> Generator[str | tuple[FileResult, str], None, None]:
    """Each file's result with its failure threshold, or an error line, in input order, as
    soon as it is linted: `check` reports while the rest is linted and keeps nothing.
    Without `keep_contexts`, big batches run on every core and results are CheckedFiles."""
    order: deque[Planned | str] = deque()  # planned items whose results have not come back yet

    def jobs() -> Iterator[Job]:
        for item in _plan(paths, cli, finder):
            order.append(item)
            if not isinstance(item, str):
                yield item[0], item[1], keep_contexts, None if keep_contexts else cli.cache_dir

    if cli.cache_dir is not None and not keep_contexts:
        from speclint.runner.index import ResultCache
        from speclint.runner.results import CheckedFile, LaunchSummary
        from speclint.runner.workers import lint_job

        linted = ResultCache(cli.cache_dir, (CheckedFile, LaunchSummary), cli.recorder).through(
            jobs(), lint_all, lint_job
        )
    else:
        linted = lint_all(jobs())
    from speclint.runner.depends import settled_tree

    try:
        with settled_tree():  # `check` rewrites no file while it streams (--fix does not stream)
            for result, error in linted:
                collector.resume()  # a replayed result too: see `core.collector`
                while isinstance(line := order[0], str):
                    order.popleft()
                    yield line
                planned = order.popleft()
                assert not isinstance(planned, str)  # error lines were yielded just above
                fail_on = planned[2]
                if error is not None:
                    yield error
                    continue
                assert result is not None  # `lint_job` gives a result or an error
                if result.error:
                    yield f"{result.path}: {result.error}"
                else:
                    yield result, fail_on
            for line in order:  # error lines after the last file
                assert isinstance(line, str)  # every planned file had its result
                yield line
    finally:
        linted.close()  # stop the workers now when the caller stops early


def check_paths(
    paths: list[str],
    cli: CommandLine,
    finder: SettingsFinder,
    fix: bool = False,
    diff: bool = False,
    keep_contexts: bool = True,
) -> Outcome:
    """Every file under `paths` at once, in input order, one bad file never stopping the rest:
    for `explain` (LaunchContexts) and --fix/--diff; `check` streams (`stream_paths`)."""
    from speclint.runner.outcome import Outcome

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
            result = (
                _fix_stdin(options, fix, diff, cli.unsafe_fixes, outcome)
                if path == "-"
                else _fix_one(path, options, paths, fix, diff, outcome, cli.unsafe_fixes)
            )
        except Exception as exc:  # a bug must not stop the other files
            outcome.errors.append(internal_error(path, exc))
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


def _fix_one(
    path: str,
    options: LintOptions,
    roots: list[str],
    fix: bool,
    diff: bool,
    outcome: Outcome,
    unsafe: bool = False,
) -> FileResult | None:
    from speclint.runner.fix import fix_path

    counts: dict[str, int] = {}
    result, file_diff, applied, problem = fix_path(
        path, options, roots, write=fix and not diff, unsafe=unsafe, counts=counts
    )
    if problem:
        outcome.errors.append(f"{path}: {problem}")
    outcome.diffs.append(file_diff)
    outcome.fixed += applied
    if applied:
        outcome.fixed_codes[path] = counts
    return result


def _fix_stdin(
    options: LintOptions, fix: bool, diff: bool, unsafe: bool, outcome: Outcome
) -> FileResult | None:
    """`--fix -` / `--diff -`: standard input is fixed in memory; `--fix` writes the fixed
    text to standard output (the CLI puts the report on standard error), `--diff` a diff."""
    from speclint.engine import stdin_names, too_large_result
    from speclint.frontends.reading import read_source
    from speclint.runner.fix import fix_text, unified_diff

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
