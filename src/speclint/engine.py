"""The pipeline for one file: extract launches → parse flags per version → run rules.

Data flows one way; each stage only sees the previous stage's output.
"""

from __future__ import annotations

from dataclasses import field

from speclint.core import collector
from speclint.core.records import dataclass
from speclint.frontends.reading import MAX_FILE_BYTES, read_source
from speclint.frontends.recognise import BENCH_ENTRIES, CLASS_ENTRIES, SERVE_ENTRY
from speclint.settings.errors import ConfigError
from speclint.settings.options import LintOptions, Selection

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from speclint.core.diagnostics import Diagnostic
    from speclint.core.findings import Finding
    from speclint.core.launches import ExtractResult, Launch
    from speclint.explain_facts import ExplainFacts, explain_facts
    from speclint.rules.base import FileContext, LaunchContext, Rule
    from speclint.rules.index import RuleEntry
    from speclint.sglang.release import Release

MAX_LAUNCHES = 1000
"""Launches checked per file; more get one file-too-large finding at the first one left out."""


@dataclass(slots=True)
class FileResult:
    """What linting one file gave: its findings and, for `explain`, one context per launch."""

    path: str
    findings: list[Finding] = field(default_factory=list)
    contexts: list[Any] = field(default_factory=list)
    """One LaunchContext per launch found (for `explain`); `check`'s CheckedFile keeps a
    LaunchSummary instead (Any: the two share no type, a generic FileResult would be one)."""
    error: str | None = None
    """A problem that stopped this file from being linted at all (exit code 2)."""
    text: str = ""
    """The decoded source, for showing the lines findings point at."""
    launch_not_found: bool = False
    """The file names SGLang's launcher but no launch was found in it (summary line)."""


def analyse_launch(path: str, launch: Launch, options: LintOptions) -> LaunchContext:
    """The flag model of one launch, ready for rules and `explain` (`speclint.analysis`)."""
    import speclint.analysis as analysis  # (the module, not a name from it: see `lint_text`)

    return analysis.analyse_launch(path, launch, options)


def lint_text(
    text: str, path: str, options: LintOptions = LintOptions(), display_path: str | None = None
) -> FileResult:
    """Lint one file's text. `path` picks the front-end (`-` is stdin, read as shell);
    findings carry `display_path` (default: `path`)."""
    # Modules imported as modules, their names looked up at the call: `from M import name` in a
    # function also asks M for a `__path__` it lacks on every call, ~4k instructions each time.
    import speclint.frontends as frontends
    import speclint.frontends.manifests.prefixed as prefixed
    import speclint.rules.base as rules_base

    prefixed.use_prefixes(options.flag_prefixes)
    extracted: ExtractResult = frontends.extract_file(path, text)
    if any("--config" in [w.text for w in launch.args] for launch in extracted.launches):
        from speclint.frontends.manifests.sglang_config import attach_config_files

        attach_config_files(extracted.launches, path)
    path = display_path or path
    result = FileResult(path, text=text)
    rules = _enabled_rules(options.selection)
    import speclint.frontends.launch_mentions as mentions

    unread = mentions.no_launch_found(text, extracted)
    if unread is not None:
        extracted.diagnostics.append(unread)
    extracted.diagnostics.extend(mentions.launchers_not_read(extracted))
    result.launch_not_found = not extracted.launches and any(
        d.kind == "no-launch-found" for d in extracted.diagnostics
    )
    file_ctx = rules_base.FileContext(path, extracted.diagnostics)
    findings = result.findings
    _file_findings(rules, file_ctx, findings)
    if len(extracted.launches) > MAX_LAUNCHES:
        skipped = extracted.launches[MAX_LAUNCHES:]
        del extracted.launches[MAX_LAUNCHES:]
        counted = (
            " (each alternative of a launch chosen by a branch counts)"
            if any(launch.alternative for launch in extracted.launches)
            else ""
        )
        message = (
            f"more than {MAX_LAUNCHES} launches in one file{counted}; the {len(skipped)} "
            "from here on are not checked"
        )
        from speclint.core.diagnostics import Diagnostic

        too_many = rules_base.FileContext(path, [Diagnostic("file-too-large", message, skipped[0].span)])
        _file_findings(rules, too_many, findings)
    alternatives: list[tuple[Launch, list[Finding]]] = []
    for launch in extracted.launches:
        try:
            ctx = analyse_launch(path, launch, options)
        except ConfigError as error:
            result.error = str(error)
            return result
        result.contexts.append(ctx)
        first = len(findings)
        findings.extend(launch_findings(ctx, rules))
        if launch.alternative is not None:  # folded with its other alternatives below
            alternatives.append((launch, findings[first:]))
            del findings[first:]
    if alternatives:
        from speclint.rules.alternatives import merge_alternatives

        findings.extend(
            merge_alternatives(alternatives, frozenset(r.code for r in rules.launch if r.per_launch))
        )
    if any("speclint:" in comment for _, comment in extracted.comments):  # (else none parses)
        from speclint.core.suppressions import apply_suppressions, parse_suppressions

        suppressions = parse_suppressions(extracted.comments, text.splitlines())
        if suppressions:
            result.findings = apply_suppressions(result.findings, suppressions)
            file_ctx.suppressions = suppressions
            file_ctx.enabled_rules = list(rules.all)
            for entry in rules.suppressions:
                result.findings.extend(entry.rule.check_suppressions(file_ctx))
    unique = {(f.code, f.span, f.message): f for f in result.findings}
    result.findings = sorted(
        unique.values(),
        key=lambda f: (f.span.file is not None, f.span.file or "", f.span.line, f.span.column, f.code),
    )
    collector.resume()  # the command's start is over: see `core.collector`
    return result


def _file_findings(rules: _RuleSet, ctx: FileContext, findings: list[Finding]) -> None:
    """The file rules' findings on `ctx`'s diagnostics: only the rules a diagnostic's kind can
    trigger are asked (`Rule.gates`), and only their modules imported."""
    if not ctx.diagnostics:
        return
    from speclint.rules.gates import file_gates

    opened = file_gates({diagnostic.kind for diagnostic in ctx.diagnostics})
    for entry in rules.file:
        if entry.runs(opened):
            for finding in entry.rule.check_file(ctx):
                if finding.span.file is not None:  # in a script the file runs (`dockerfile_copied`)
                    finding.path, finding.fix = finding.span.file, None
                findings.append(finding)


def launch_findings(ctx: LaunchContext, rules: _RuleSet | Selection) -> list[Finding]:
    """One launch's findings: the rules that apply to it (`_rules_for`), then precedence
    between them. `check`, `speclint run` and the plugin all go through here."""
    if isinstance(rules, Selection):
        rules = _enabled_rules(rules)
    found: list[Finding] = []
    for rule, missing in _checks_for(ctx, rules):
        for finding in rule.check(ctx) if not missing else rule.findings(ctx, missing):
            finding.launch_span = ctx.launch.span
            if finding.span.file is not None:  # in the launch's --config file
                finding.path, finding.fix = finding.span.file, None
            found.append(finding)
    if found:  # a value that holds only when a variable is unset: said (`core.said_values`)
        from speclint.core.said_values import said_defaults

        said_defaults([*ctx.launch.args, *ctx.launch.env.values()], found)
    if rules.defers and len(found) > 1:
        import speclint.rules.precedence as precedence  # (a module: see `lint_text`)

        found = precedence.drop_deferred(found, rules.defers)
    if ctx.launch.fixture is not None:
        from speclint.rules.fixture_launch import fixture_findings

        found = fixture_findings(ctx, found)
    elif ctx.launch.entry in CLASS_ENTRIES:
        from speclint.rules.class_launch import class_findings

        found = class_findings(ctx, found)
    elif ctx.launch.entry in BENCH_ENTRIES:
        from speclint.rules.bench_launch import bench_findings

        found = bench_findings(ctx, found)
    elif ctx.launch.entry == SERVE_ENTRY:  # 0.5.5+: maybe SGLang's diffusion server
        from speclint.rules.diffusion_launch import diffusion_findings

        found = diffusion_findings(ctx, found)
    if ctx.version.unread is not None and found:  # (a release not read: `unread_release`)
        from speclint.rules.unread_release import at_most_warnings

        found = at_most_warnings(ctx, found)
    return found


def _checks_for(ctx: LaunchContext, rules: _RuleSet) -> tuple[tuple[Rule, tuple[str, ...]], ...]:
    """`_rules_for`, less the rules none of whose gates the launch opens (`Rule.gates`: they
    would report nothing, and their modules are not imported), each rule with the release facts
    its findings rest on that the release did not verify (`Rule.unverified`): the same for
    every launch of a release that argparse stops alike and that opens the same of the gates
    some rule has (`_RuleSet.gated`: a launch also opens a gate per field resolution adjusts,
    which few rules ask about), so worked out once for them."""
    import speclint.rules.gates as gates  # (a module: see `lint_text`)

    stop = ctx.parse_stop
    opened = gates.launch_gates(ctx, *rules.asked) & rules.gated
    key = (ctx.release, None if stop is None else stop.kind == "help", opened)
    found = rules.checks.get(key)
    if found is None:
        found = rules.checks[key] = tuple(
            (entry.rule, entry.rule.unverified(ctx)) for entry in _rules_for(ctx, rules) if entry.runs(opened)
        )
    return found


def _rules_for(ctx: LaunchContext, rules: _RuleSet) -> tuple[RuleEntry, ...]:
    """A launch argparse stops gets only the rules about parsing (`Rule.stage`): what would
    happen after parsing never happens. `--help` gets only the help rule."""
    stop = ctx.parse_stop
    if stop is None:
        return rules.launch
    wanted = "help" if stop.kind == "help" else "parse"
    return tuple(entry for entry in rules.launch if entry.stage == wanted)


@dataclass(frozen=True, slots=True)
class _RuleSet:
    """The enabled rules, split by the hooks they implement (most only check launches), as
    index entries (`rules.index`): a rule's module is imported when it first runs."""

    all: tuple[RuleEntry, ...]
    launch: tuple[RuleEntry, ...]
    file: tuple[RuleEntry, ...]
    suppressions: tuple[RuleEntry, ...]
    defers: dict[str, tuple[str, ...]]
    """Code -> the codes it gives way to (`rules.precedence`), for rules that defer."""
    asked: tuple[bool, tuple[str, ...]]
    """The gates of `rules.gates.launch_gates` that depend on what the rules ask about."""
    gated: frozenset[str]
    """Every gate of an enabled launch rule: whether a rule runs depends on these alone."""
    checks: dict[tuple[Release, bool | None, frozenset[str]], tuple[tuple[Rule, tuple[str, ...]], ...]] = (
        field(default_factory=dict, compare=False, repr=False)
    )
    """(release, how argparse stops, the gates opened) -> `_checks_for`'s answer."""


_RULE_SETS: dict[Selection, _RuleSet] = {}


def _enabled_rules(selection: Selection) -> _RuleSet:
    """Worked out once per selection, not once per file."""
    found = _RULE_SETS.get(selection)
    if found is None:
        from speclint.rules.gates import asked
        from speclint.rules.index import ENTRIES

        # (`Selection.enabled` reads a rule's code and name, which an entry has)
        enabled = tuple(entry for entry in ENTRIES if selection.enabled(entry))  # type: ignore[arg-type]

        def implementing(hook: str) -> tuple[RuleEntry, ...]:
            return tuple(entry for entry in enabled if entry.hook == hook)

        found = _RULE_SETS[selection] = _RuleSet(
            enabled,
            implementing("check"),
            implementing("check_file"),
            implementing("check_suppressions"),
            {rule.code: rule.defers_to for rule in enabled if rule.defers_to},
            asked(gate for rule in enabled for gate in rule.gates),
            frozenset(gate for entry in enabled if entry.hook == "check" for gate in entry.gates),
        )
    return found


def too_large_result(path: str, size: int, options: LintOptions = LintOptions()) -> FileResult:
    """A file over MAX_FILE_BYTES: one file-too-large finding at 1:1, nothing else read."""
    from speclint.core.diagnostics import Diagnostic
    from speclint.core.spans import Span
    from speclint.rules.base import FileContext

    limit = MAX_FILE_BYTES // 1024
    shown = f"{size / (1024 * 1024):.1f} MiB" if size >= 1024 * 1024 else f"{size // 1024} KiB"
    message = (
        f"file is {'over ' if path == '-' else ''}{shown}, larger than the {limit} KiB "
        "speclint reads; not checked"
    )
    ctx = FileContext(path, [Diagnostic("file-too-large", message, Span.point(1, 1))])
    result = FileResult(path)
    _file_findings(_enabled_rules(options.selection), ctx, result.findings)
    return result


def stdin_names(options: LintOptions) -> tuple[str, str]:
    """(the path that picks standard input's front-end, the name findings show)."""
    if options.stdin_filename:
        return options.stdin_filename, options.stdin_filename
    return "-", "<stdin>"


def lint_path(path: str, options: LintOptions = LintOptions()) -> FileResult:
    text, error, size = read_source(path)
    frontend, display = stdin_names(options) if path == "-" else (path, path)
    if error is not None:
        return FileResult(path, error=error)
    if text is None:
        return too_large_result(display, size, options)
    return lint_text(text, frontend, options, display if path == "-" else None)


def __getattr__(name: str) -> object:
    """`ExplainFacts` and `explain_facts` live in `speclint.explain_facts`, imported by
    `speclint explain` only (a record class costs ~0.5 ms to make on each start)."""
    if name in ("ExplainFacts", "explain_facts"):
        from speclint import explain_facts

        return getattr(explain_facts, name)
    if name == "Diagnostic":  # (made only when a file has a problem: `core.launches`)
        from speclint.core.diagnostics import Diagnostic

        return Diagnostic
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "Diagnostic",
    "FileResult",
    "LintOptions",
    "Selection",
    "lint_path",
    "lint_text",
    "analyse_launch",
    "ExplainFacts",
    "explain_facts",
]
