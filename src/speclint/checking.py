"""`speclint check` for many files: per-file settings, fixing, and never stopping at one bad file."""

from __future__ import annotations

from dataclasses import dataclass, field

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


def check_paths(paths: list[str], cli: CommandLine, finder: SettingsFinder,
                fix: bool = False, diff: bool = False) -> Outcome:
    outcome = Outcome()
    for path, problem in iter_lint_paths(paths):
        if problem:
            outcome.errors.append(f"{path}: {problem}")
            continue
        try:
            settings = finder.for_path(path)
        except ConfigError as error:
            outcome.errors.append(str(error))
            continue
        options = options_for(path, cli, settings)
        try:
            result = _one(path, options, paths, fix, diff, outcome)
        except Exception as exc:  # a bug must not stop the other files
            outcome.errors.append(f"{path}: internal error while linting "
                                  f"({type(exc).__name__}: {exc}); please report it")
            continue
        if result is None:
            continue
        if result.error:
            outcome.errors.append(f"{path}: {result.error}")
            continue
        outcome.results.append(result)
        outcome.fail_on[result.path] = cli.fail_on or settings.fail_on or "warning"
    return outcome


def _one(path, options, roots, fix, diff, outcome) -> FileResult | None:
    if (fix or diff) and path != "-":
        from speclint.fix import fix_path

        result, file_diff, applied, problem = fix_path(path, options, roots, write=fix and not diff)
        if problem:
            outcome.errors.append(f"{path}: {problem}")
        outcome.diffs.append(file_diff)
        outcome.fixed += applied
        return result
    return lint_path(path, options)
