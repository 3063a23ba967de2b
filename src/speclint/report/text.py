"""Human output: `path:line:col: CODE [severity] message`, the source line and a caret, like ruff
(`text`; `concise` leaves the source out; `--statistics` counts per rule)."""

from __future__ import annotations

from dataclasses import field

from speclint.core.findings import Severity
from speclint.core.records import dataclass
from speclint.report.reporter import Reporter

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from speclint.core.findings import Finding
    from speclint.core.spans import Span
    from speclint.engine import FileResult
    from speclint.report.reporter import Writer
    from speclint.rules.base import LaunchContext


@dataclass
class ReportStyle:
    """How the human formats look: colour, the `[*]` mark, fixes shown, doc links."""

    color: bool = False
    unsafe_fixes: bool = False
    """`--unsafe-fixes`: unsafe fixes count as applicable (`[*]`)."""
    show_fixes: bool = False
    """`--show-fixes`: each fixable finding shows its edit."""
    doc_urls: bool = True
    """The rule page's URL after the first finding of each rule."""
    quiet: bool = False
    """`-q`: findings only, no summary."""
    linked: set[str] = field(default_factory=set)
    """Rules whose URL was printed already."""

    def paint(self, text: str, *codes: str) -> str:
        if not self.color or not text:
            return text
        return "\x1b[" + ";".join(codes) + "m" + text + "\x1b[0m"


_SEVERITY_COLOR = {Severity.ERROR: "31", Severity.WARNING: "33", Severity.INFO: "36"}


def fix_mark(finding: Finding, style: ReportStyle) -> str:
    """' [*]' when this run's `--fix` would apply the finding's edits (ruff's mark)."""
    if finding.fix is None:  # (most findings: `runner.fix` is not imported for them)
        return ""
    import speclint.runner.fix as fix  # (a module: `from M import name` here costs a failed lookup each call)

    return " [*]" if fix.fixable(finding, style.unsafe_fixes) else ""


def header(finding: Finding, style: ReportStyle) -> str:
    """`path:line:col: CODE [*] [severity] message` (coloured on a terminal)."""
    span = finding.span
    if not style.color:  # (`paint` gives each part as it is: no call per part)
        return (
            f"{finding.path}:{span.line}:{span.column}: {finding.code}{fix_mark(finding, style)} "
            f"[{finding.severity.label}] {finding.message}"
        )
    where = style.paint(f"{finding.path}:{span.line}:{span.column}:", "1")
    code = style.paint(finding.code, "1", _SEVERITY_COLOR[finding.severity])
    mark = style.paint(fix_mark(finding, style), "32")
    label = style.paint(f"[{finding.severity.label}]", _SEVERITY_COLOR[finding.severity])
    return f"{where} {code}{mark} {label} {finding.message}"


def excerpt_lines(text: str, findings: Sequence[Finding]) -> dict[int, str]:
    """The source lines findings point at, by number: all the text output shows of a file, so
    `check` keeps these instead of the whole text (cut in the worker, so only they travel)."""
    if not findings:
        return {}
    lines = text.splitlines()
    return {
        f.span.line: lines[f.span.line - 1]
        for f in findings
        if 1 <= f.span.line <= len(lines) and f.span.file is None
    }


def source_lines(result: FileResult) -> dict[int, str]:
    """What `excerpt_lines` gives, for a result that still has its text (API, --fix)."""
    kept: dict[int, str] | None = getattr(result, "lines", None)  # a CheckedFile keeps only these
    return kept if kept is not None else excerpt_lines(result.text, result.findings)


def _excerpt(line: str | None, span: Span, indent: int, style: ReportStyle | None = None) -> list[str]:
    if line is None:
        return []
    source = line.rstrip("\n").expandtabs(1)
    start = max(span.column - 1, 0)
    stop = span.end_column - 1 if span.end_line == span.line else len(source)
    width = max(stop - start, 1)
    style = style or ReportStyle()
    if not style.color:  # (`paint` gives each part as it is: no call per part)
        gutter = " " * indent + " |"
        return [gutter, f"{str(span.line).rjust(indent)} | {source}", f"{gutter} {' ' * start}{'^' * width}"]
    gutter = style.paint(" " * indent + " |", "34")
    number = style.paint(str(span.line).rjust(indent) + " |", "34")
    caret = style.paint("^" * width, "1", "31")
    return [gutter, f"{number} {source}", f"{gutter} {' ' * start}{caret}"]


def finding_lines(
    result: FileResult, show_source: bool = True, style: ReportStyle | None = None
) -> list[str]:
    """One file's findings as output lines (with source excerpts, a blank line after each)."""
    style = style or ReportStyle(doc_urls=show_source)
    out: list[str] = []
    lines = source_lines(result) if show_source else {}
    for finding in result.findings:
        span = finding.span
        out.append(header(finding, style))
        if show_source:
            indent = len(str(span.line))
            out.extend(_excerpt(lines.get(span.line) if span.file is None else None, span, indent, style))
            pad = " " * indent
            if finding.fix_hint:
                out.append(f"{pad} = {style.paint('help', '32')}: {finding.fix_hint}")
            for note in finding.notes:
                out.append(
                    f"{pad} = note: {_where(note.span, span, result.path)}line "
                    f"{note.span.line}, column {note.span.column}: {note.message}"
                )
            if style.show_fixes:
                out.extend(f"{pad} = {line}" for line in fix_lines(finding, style))
            if style.doc_urls and finding.code not in style.linked:
                style.linked.add(finding.code)
                from speclint.report.urls import rule_url

                out.append(f"{pad} = docs: {rule_url(finding.code, finding.name)}")
            out.append("")
    return out


def fix_lines(finding: Finding, style: ReportStyle) -> list[str]:
    """`--show-fixes`: what each edit of the finding writes, and whether `--fix` applies it."""
    from speclint.runner.fix import applicability, edits_of

    kind = applicability(finding)
    if kind is None:
        return []
    when = (
        "applied by --fix"
        if kind == "safe"
        else "applied with --unsafe-fixes"
        if style.unsafe_fixes
        else "unsafe: applied only with --unsafe-fixes"
    )
    out = []
    for edit in edits_of(finding):
        old = edit.expected if edit.expected is not None else "…"
        new = edit.replacement
        change = f"`{old.strip()}` → `{new}`" if new else f"remove `{old.strip()}`"
        out.append(f"fix ({when}): {edit.description}: line {edit.span.line}: {change}")
    return out


def _where(note: Span, finding: Span, path: str) -> str:
    """The note's file when it is not the finding's (a launch and its --config file)."""
    if note.file == finding.file:
        return ""
    return f"{note.file or path}, "


def render_findings(results: Iterable[FileResult], show_source: bool = True) -> str:
    style = ReportStyle(doc_urls=show_source)
    return "\n".join(line for result in results for line in finding_lines(result, show_source, style))


@dataclass(slots=True)
class RuleCount:
    """One rule's line of `--statistics`."""

    name: str
    count: int = 0
    safe: int = 0
    """Findings with a safe fix."""
    unsafe: int = 0
    """Findings with an unsafe fix."""


class Tally:
    """What the summary line needs, counted as files arrive (no result is kept)."""

    def __init__(self) -> None:
        self.counts = {sev: 0 for sev in Severity}
        self.versions: set[tuple[str, str]] = set()
        self.launches = 0
        self.files = 0
        self.by_rule: dict[str, RuleCount] = {}
        """code -> its findings and fixes (`--statistics`)."""
        self.fixes = {"safe": 0, "unsafe": 0}
        self.unchecked_drafters = 0
        """EAGLE-family launches whose model configs were not on disk (DRF011 is opt-in)."""
        self.places: dict[tuple[str, str], set[str]] = {}
        """(version, reason) -> `path:line` of the image tags that gave it."""
        self.partly_read = 0
        """Launches with values speclint cannot know (an info finding says which)."""
        self.not_found = 0
        """Files that name SGLang's launcher but yielded no launch."""

    def add(self, result: FileResult) -> None:
        for finding in result.findings:
            self.counts[finding.severity] += 1
            entry = self.by_rule.setdefault(finding.code, RuleCount(finding.name))
            entry.count += 1
            if finding.fix is None:  # no edits (most findings: `runner.fix` is not imported)
                continue
            import speclint.runner.fix as fix  # (a module: `from M import name` here costs a failed lookup each call)

            kind = fix.applicability(finding)
            if kind is not None:
                self.fixes[kind] += 1
                if kind == "safe":
                    entry.safe += 1
                else:
                    entry.unsafe += 1
        partial = False  # the alternatives of one launch come one after the other
        for ctx in result.contexts:
            reason, line, file = _located(ctx.version.reason)
            self.versions.add((ctx.version.version, reason))
            if line is not None:
                place = f"{file or result.path}:{line}"
                self.places.setdefault((ctx.version.version, reason), set()).add(place)
            counted = getattr(ctx, "counted", True)
            self.launches += counted
            if counted:
                partial = False
                self.unchecked_drafters += _drafter_unchecked(ctx)
            if getattr(ctx, "partly_read", False) and not partial:
                self.partly_read += 1
                partial = True
        self.not_found += bool(getattr(result, "launch_not_found", False))
        self.files += result.error is None

    def summary(self, unreadable: int = 0) -> str:
        launches, files = self.launches, self.files
        parts = [
            f"{launches} launch{'es' if launches != 1 else ''} in {files} file{'s' if files != 1 else ''}"
        ]
        if self.versions:
            parts.append("checked against " + _versions_text(self.versions, self.places))
        head = ", ".join(parts)
        if unreadable:
            head += f"; {unreadable} file{'s' if unreadable != 1 else ''} could not be linted"
        if self.partly_read:
            head += f"; {self.partly_read} launch{'es' if self.partly_read != 1 else ''} only partly read"
        if self.not_found:
            head += (
                f"; {self.not_found} file{'s' if self.not_found != 1 else ''} "
                "naming SGLang with no launch found"
            )
        unchecked = self.unchecked_drafters if "DRF011" not in self.by_rule else 0
        if unchecked:
            head += (
                f"; drafter checks skipped for {unchecked} launch"
                f"{'es' if unchecked != 1 else ''} (model config.json not on disk: "
                "`--extend-select DRF011` says which)"
            )
        total = sum(self.counts.values())
        if not total:
            whole = not (unreadable or self.partly_read or self.not_found or unchecked)
            return f"All checks passed: {head}." if whole else f"No findings: {head}."
        counts = self.counts
        detail = ", ".join(
            f"{counts[s]} {s.label}{'s' if counts[s] != 1 and s != Severity.INFO else ''}"
            for s in (Severity.ERROR, Severity.WARNING, Severity.INFO)
            if counts[s]
        )
        return f"Found {total} finding{'s' if total != 1 else ''} ({detail}): {head}."

    def fix_line(self, unsafe_fixes: bool = False) -> str | None:
        """ruff's `[*] N fixable with the --fix option (M hidden fixes can be enabled with the
        --unsafe-fixes option).`; None when nothing is fixable."""
        safe, unsafe = self.fixes["safe"], self.fixes["unsafe"]
        if unsafe_fixes:
            safe, unsafe = safe + unsafe, 0
        if not safe and not unsafe:
            return None
        hidden = (
            f"{unsafe} hidden fix{'es' if unsafe != 1 else ''} can be enabled with "
            "the `--unsafe-fixes` option"
        )
        if not safe:
            return f"No fixes available ({hidden})."
        text = f"[*] {safe} fixable with the `--fix` option"
        return text + (f" ({hidden})." if unsafe else ".")

    def statistics(self, unsafe_fixes: bool = False) -> list[str]:
        """`--statistics`: one line per rule, most frequent first, as ruff prints them."""
        rows = sorted(self.by_rule.items(), key=lambda item: (-item[1].count, item[0]))
        if not rows:
            return []
        width = max(len(str(entry.count)) for _, entry in rows)
        out = []
        for code, entry in rows:
            name, count, safe, unsafe = entry.name, entry.count, entry.safe, entry.unsafe
            mark = "[*]" if safe or (unsafe and unsafe_fixes) else "[-]" if unsafe else "   "
            out.append(f"{str(count).rjust(width)}\t{code}\t{mark} {name}")
        return out


def _drafter_unchecked(ctx: object) -> bool:
    """`ctx`: a LaunchContext, or the LaunchSummary `check` keeps of one."""
    known = getattr(ctx, "drafter_unchecked", None)  # a LaunchSummary from `check`
    if known is not None:
        return bool(known)
    from typing import cast  # not on `check`'s path: its launches are summaries

    from speclint.rules.drafter import unread_model_configs

    return bool(unread_model_configs(cast("LaunchContext", ctx)))


def _located(reason: str) -> tuple[str, int | None, str | None]:
    """A reason without its trailing ` (line N)` (an image tag's line) or ` (line N of PATH)`
    (written in another file), N and PATH."""
    head, sep, tail = reason.rpartition(" (line ")
    if sep and tail.endswith(")"):
        number, _, file = tail[:-1].partition(" of ")
        if number.isdigit():
            return head, int(number), file or None
    return reason, None, None


def _versions_text(versions: set[tuple[str, str]], places: dict[tuple[str, str], set[str]]) -> str:
    """`SGLang 0.5.23 (why; other why) and SGLang 0.5.6.post2 (why at a.sh:3)`: each release
    once, at most three reasons each, an image tag's place when one file gave it."""
    from speclint.sglang.flags.versions import version_key

    by_version: dict[str, list[str]] = {}
    for version, why in versions:
        where = sorted(places.get((version, why), ()))
        if len(where) == 1:
            why += f" at {where[0]}"
        elif where:
            why += f" at {where[0]} and {len(where) - 1} more"
        by_version.setdefault(version, []).append(why)
    parts = []
    for version in sorted(by_version, key=version_key, reverse=True):
        reasons = sorted(by_version[version])
        shown = "; ".join(reasons[:3]) + (f"; and {len(reasons) - 3} more" if len(reasons) > 3 else "")
        parts.append(f"SGLang {version} ({shown})")
    return " and ".join(parts)


def render_summary(results: Iterable[FileResult], unreadable: int = 0) -> str:
    tally = Tally()
    for result in results:
        tally.add(result)
    return tally.summary(unreadable)


class TextReporter(Reporter):
    """Findings with source excerpts as they come, then the summary line from running counts
    (and, as ruff, how many are fixable); `-q` leaves the summary out."""

    def __init__(self, out: Writer, style: ReportStyle | None = None, source: bool = True) -> None:
        super().__init__(out)
        self.tally = Tally()
        self.style = style or ReportStyle()
        self.source = source

    def file(self, result: FileResult) -> None:
        self.tally.add(result)
        lines = finding_lines(result, self.source, self.style)
        if lines:
            self.out.write("\n".join(lines) + "\n")

    def finish(self, unreadable: int = 0) -> None:
        if self.style.quiet:
            return
        self.out.write(self.tally.summary(unreadable) + "\n")
        fixes = self.tally.fix_line(self.style.unsafe_fixes)
        if fixes:
            self.out.write(fixes + "\n")


class StatisticsReporter(TextReporter):
    """`--statistics`: a count per rule instead of the findings, then the summary."""

    def file(self, result: FileResult) -> None:
        self.tally.add(result)

    def finish(self, unreadable: int = 0) -> None:
        rows = self.tally.statistics(self.style.unsafe_fixes)
        if rows:
            self.out.write("\n".join(rows) + "\n")
        super().finish(unreadable)
