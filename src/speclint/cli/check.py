"""`speclint check`: from the command line's options to a report and an exit code.

Kept apart from commands.py (which only declares the options) so the command's conventions live
in one place: rule selectors checked before anything runs (exit 2 with a "did you mean"),
colour decided once, `--fix`/`--diff` on files and on standard input, `--statistics`, `-q`,
`--show-settings`.
"""

from __future__ import annotations

import os
import sys

from speclint.report.echo import echo, strip_ansi
from speclint.report.repeats import RepeatFilter

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator
    from typing import Any

    from speclint.engine import FileResult
    from speclint.report.output import ReportFile, Stdout
    from speclint.report.text import ReportStyle
    from speclint.runner.outcome import Outcome
    from speclint.runner.replay_record import Recorder
    from speclint.settings.files import SettingsFinder
    from speclint.settings.merge import CommandLine

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


def _error(message: str) -> None:
    global _errors
    _errors += 1
    echo(f"speclint: error: {message}", err=True)


_errors = 0
"""Error lines printed by this process (a run that printed any is never replayed)."""


def split_keys(values: Iterable[str]) -> tuple[str, ...]:
    return tuple(key.strip() for value in values for key in value.split(",") if key.strip())


def selector_errors(**given: tuple[str, ...]) -> list[str]:
    """One line per `--select`/`--extend-select`/`--ignore` entry that selects no rule."""
    from speclint.rules import selector_problem

    found: list[str] = []
    for option, keys in given.items():
        for key in keys:
            problem = selector_problem(key)
            if problem:
                found.append(f"--{option.replace('_', '-')}: {problem}")
    return found


def use_color(choice: str, stream: object) -> bool:
    """`--color always|never` wins; else NO_COLOR (any value) turns colour off, FORCE_COLOR
    (any value) on; else colour when the report goes to a terminal."""
    if choice != "auto":
        return choice == "always"
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except ValueError:  # a closed stream
        return False


def run_check(o: dict[str, Any]) -> int:
    """`speclint check`; `o`: the command's options as click gives them. A plain report run
    through the cache is recorded to be replayed (`speclint.runner.replay`) when the same
    command line runs again over unchanged inputs."""
    paths = list(o["paths"])
    if o["no_cache"]:  # (nothing is recorded: not even the recorder's import)
        return _run_check(o, None)
    from speclint.runner import replay

    if (
        replay.ARGV is None
        or o["fix"]
        or o["diff"]
        or o["output_file"]
        or o["config_file"]
        or o["isolated"]
        or o["show_settings"]
        or o["stdin_filename"]
        or "-" in paths
    ):
        return _run_check(o, None)
    from speclint.runner import depends
    from speclint.runner.replay_record import Recorder

    recorder = Recorder(replay.ARGV)
    errors_before = _errors
    with depends.recording() as noted:
        code = _run_check(o, recorder)
    if _errors == errors_before:
        recorder.save(noted, code)
    return code


def _run_check(o: dict[str, Any], recorder: Recorder | None) -> int:
    from speclint.settings.errors import ConfigError
    from speclint.settings.files import SettingsFinder
    from speclint.settings.merge import CommandLine

    select, extend, ignore = (
        split_keys(o["select"]),
        split_keys(o["extend_select"]),
        split_keys(o["ignore"]),
    )
    problems = selector_errors(select=select, extend_select=extend, ignore=ignore)
    if problems:
        for problem in problems:
            _error(problem)
        return EXIT_ERROR
    paths = list(o["paths"])
    if o["stdin_filename"] and "-" not in paths:
        _error("--stdin-filename names standard input: give `-` as the path")
        return EXIT_ERROR
    try:
        finder = SettingsFinder(o["config_file"], o["isolated"])
        settings_here = finder.for_folder(".")
    except ConfigError as error:
        _error(str(error))
        return EXIT_ERROR
    cache_dir = o["cache_dir"]
    if cache_dir is None and not o["no_cache"]:  # the cache's module costs hashlib's import
        from speclint.runner.inputs_check import DEFAULT_DIR

        cache_dir = settings_here.cache_dir or DEFAULT_DIR
    exclude = split_keys(o["exclude"])
    cli = CommandLine(
        select,
        ignore,
        o["sglang_version"],
        o["fail_on"],
        o["model_configs"],
        cache_dir=None if o["no_cache"] else cache_dir,
        extend_select=extend,
        unsafe_fixes=o["unsafe_fixes"],
        stdin_filename=o["stdin_filename"],
        exclude=exclude or None,
        extend_exclude=split_keys(o["extend_exclude"]),
        respect_gitignore=o["respect_gitignore"],
        recorder=recorder,
    )
    if o["show_settings"]:
        return _show_settings(paths[0], cli, finder)
    output_format = o["output_format"]
    if output_format is None and not o["isolated"]:
        output_format = settings_here.output_format
    from speclint.cli.plain import FORMATS

    if output_format not in FORMATS:
        if output_format is not None:
            _error(
                f"output-format {output_format!r} in the configuration is not one of " + ", ".join(FORMATS)
            )
            return EXIT_ERROR
        output_format = "text"
    from speclint.report import urls

    urls.set_base(o["doc_url_base"] or settings_here.doc_url_base)
    if o["diff"]:
        return _diff(paths, cli, finder)
    if recorder is not None:
        recorder.cache_dir = cli.cache_dir
    return _lint(paths, cli, finder, o, output_format, recorder)


def _diff(paths: list[str], cli: CommandLine, finder: SettingsFinder) -> int:
    from speclint.runner.checking import check_paths

    outcome = check_paths(paths, cli, finder, fix=False, diff=True, keep_contexts=False)
    for message in outcome.errors:
        _error(message)
    echo("".join(outcome.diffs), nl=False)
    changed = sum(1 for d in outcome.diffs if d)
    note = _hidden_note(outcome, cli)
    echo(f"{changed} file{'s' if changed != 1 else ''} would be changed{note}", err=True)
    return EXIT_ERROR if outcome.errors else (EXIT_FINDINGS if changed else EXIT_CLEAN)


def _hidden_note(outcome: Outcome, cli: CommandLine) -> str:
    """'; N unsafe fixes not applied (--unsafe-fixes)' after --fix/--diff, as ruff says."""
    if cli.unsafe_fixes:
        return ""
    from speclint.runner.fix import applicability

    hidden = sum(1 for result in outcome.results for f in result.findings if applicability(f) == "unsafe")
    return (
        f"; {hidden} unsafe fix{'es' if hidden != 1 else ''} not applied (`--unsafe-fixes` applies them)"
        if hidden
        else ""
    )


def _lint(
    paths: list[str],
    cli: CommandLine,
    finder: SettingsFinder,
    o: dict[str, Any],
    output_format: str,
    recorder: Recorder | None = None,
) -> int:
    from speclint.report.output import OutputError, open_output
    from speclint.report.text import ReportStyle

    fixing_stdin = o["fix"] and "-" in paths
    try:
        # before linting: a bad -o path fails at once; `--fix -` prints the fixed text, so its
        # report goes to standard error
        out = open_output(o["output_file"]) if not fixing_stdin or o["output_file"] else _Stderr()
    except OutputError as error:
        _error(str(error))
        return EXIT_ERROR
    target = sys.stderr if isinstance(out, _Stderr) else sys.stdout
    color = use_color(o["color"], target) and not o["output_file"]
    if hasattr(out, "color"):
        out.color = color
    if recorder is not None:
        # what click.echo does to the report on its way out (Stdout passes color=None)
        recorder.strip = None if color or _isatty(target) else strip_ansi
        out = recorder.tee(out)
    style = ReportStyle(
        color=color, unsafe_fixes=o["unsafe_fixes"], show_fixes=o["show_fixes"], quiet=o["quiet"]
    )
    try:
        failed, failing = _report(paths, cli, finder, o["fix"], output_format, out, style, o["statistics"])
        out.commit()
    except OutputError as error:
        out.discard()
        _error(str(error))
        return EXIT_ERROR
    except (BrokenPipeError, KeyboardInterrupt):
        out.discard()  # the reader of the pipe left, or Ctrl-C: click exits; no half report
        raise
    except Exception as exc:  # a bug outside any one file: a message, never a traceback
        out.discard()
        _error(f"internal error ({type(exc).__name__}: {exc}); please report it")
        return EXIT_ERROR
    if failed:
        return EXIT_ERROR
    return EXIT_FINDINGS if failing and not o["exit_zero"] else EXIT_CLEAN


def _isatty(stream: object) -> bool:
    try:
        return bool(stream.isatty())  # type: ignore[attr-defined]
    except (AttributeError, ValueError):
        return False


class _Stderr:
    """The report on standard error (`--fix -` prints the fixed text on standard output)."""

    color = False

    def write(self, text: str) -> None:
        echo(text, nl=False, err=True, color=self.color or None)

    def commit(self) -> None:
        pass

    def discard(self) -> None:
        pass


def _report(
    paths: list[str],
    cli: CommandLine,
    finder: SettingsFinder,
    fix: bool,
    output_format: str,
    out: Stdout | ReportFile | _Stderr,
    style: ReportStyle,
    statistics: bool,
) -> tuple[int, bool]:
    """Lint and write the report as results arrive; (files not linted, any finding at or above
    its file's --fail-on). Errors go to standard error as they come."""
    from speclint.core.findings import Severity
    from speclint.report.stream import reporter_for
    from speclint.runner.checking import check_paths, stream_paths

    items: list[tuple[FileResult, str]] | Iterator[str | tuple[FileResult, str]]
    if fix:  # fixing needs each file's whole result: collected first, as before
        outcome = check_paths(paths, cli, finder, fix=True, keep_contexts=False)
        for message in outcome.errors:
            _error(message)
        if outcome.stdin_fixed is not None:
            echo(outcome.stdin_fixed, nl=False)
        if not style.quiet:
            _fixed_message(outcome, style, cli)
        items = [(result, outcome.fail_on[result.path]) for result in outcome.results]
        failed = len(outcome.errors)
    else:
        items, failed = stream_paths(paths, cli, finder), 0
    reporter = reporter_for(
        output_format, out, style if output_format in ("text", "concise") or statistics else None, statistics
    )
    reporter.start()
    failing = False
    repeats = RepeatFilter()  # (a --config file linted alone and through its script)
    try:
        for item in items:
            if isinstance(item, str):
                _error(item)
                failed += 1
                continue
            result, fail_on = item
            repeats.drop_repeats(result)
            reporter.file(result)
            if not failing and result.findings:
                least = Severity.parse(fail_on)
                failing = any(f.severity >= least for f in result.findings)
    finally:
        if not isinstance(items, list):
            items.close()  # on an early stop, the worker processes stop now
    reporter.finish(failed)
    return failed, failing


def _fixed_message(outcome: Outcome, style: ReportStyle, cli: CommandLine) -> None:
    """`Fixed N findings.` on standard error; with --show-fixes, which ones per file (ruff)."""
    if outcome.fixed:
        echo(
            f"Fixed {outcome.fixed} finding{'s' if outcome.fixed != 1 else ''}{_hidden_note(outcome, cli)}.",
            err=True,
        )
        if style.show_fixes:
            from speclint.rules import rule_by_key

            for path, counts in outcome.fixed_codes.items():
                echo(f"{path}:", err=True)
                for code, count in sorted(counts.items()):
                    rule = rule_by_key(code)
                    echo(f"    {count} × {code} ({rule.name if rule else code})", err=True)
    else:
        note = _hidden_note(outcome, cli)
        if note:
            echo(f"No fixes applied{note}.", err=True)


def _show_settings(path: str, cli: CommandLine, finder: SettingsFinder) -> int:
    """`--show-settings PATH`: the resolved settings for PATH and where each one came from."""
    from speclint.cli.show_settings import settings_lines
    from speclint.settings.errors import ConfigError

    try:
        lines = settings_lines(path, cli, finder)
    except ConfigError as error:
        _error(str(error))
        return EXIT_ERROR
    echo("\n".join(lines))
    return EXIT_CLEAN
