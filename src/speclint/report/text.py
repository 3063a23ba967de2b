"""Human output: `path:line:col: CODE [severity] message`, the source line and a caret, like ruff."""

from __future__ import annotations

from speclint.rules.base import Severity


def excerpt_lines(text: str, findings) -> dict[int, str]:
    """The source lines findings point at, by number: all the text output shows of a file, so
    `check` keeps these instead of the whole text (cut in the worker, so only they travel)."""
    if not findings:
        return {}
    lines = text.splitlines()
    return {f.span.line: lines[f.span.line - 1] for f in findings
            if 1 <= f.span.line <= len(lines) and f.span.file is None}


def source_lines(result) -> dict[int, str]:
    """What `excerpt_lines` gives, for a result that still has its text (API, --fix)."""
    kept = getattr(result, "lines", None)
    return kept if kept is not None else excerpt_lines(result.text, result.findings)


def _excerpt(line: str | None, span, indent: int) -> list[str]:
    if line is None:
        return []
    source = line.rstrip("\n").expandtabs(1)
    start = max(span.column - 1, 0)
    stop = span.end_column - 1 if span.end_line == span.line else len(source)
    width = max(stop - start, 1)
    gutter = " " * indent
    number = str(span.line).rjust(indent)
    return [f"{gutter} |", f"{number} | {source}", f"{gutter} | {' ' * start}{'^' * width}"]


def finding_lines(result, show_source: bool = True) -> list[str]:
    """One file's findings as output lines (with source excerpts, a blank line after each)."""
    out: list[str] = []
    lines = source_lines(result) if show_source else {}
    for finding in result.findings:
        span = finding.span
        out.append(f"{finding.path}:{span.line}:{span.column}: {finding.code} "
                   f"[{finding.severity.label}] {finding.message}")
        if show_source:
            indent = len(str(span.line))
            out.extend(_excerpt(lines.get(span.line) if span.file is None else None, span, indent))
            pad = " " * indent
            if finding.fix_hint:
                out.append(f"{pad} = help: {finding.fix_hint}")
            for note in finding.notes:
                out.append(f"{pad} = note: {_where(note.span, span, result.path)}line "
                           f"{note.span.line}, column {note.span.column}: {note.message}")
            out.append("")
    return out


def _where(note, finding, path: str) -> str:
    """The note's file when it is not the finding's (a launch and its --config file)."""
    if note.file == finding.file:
        return ""
    return f"{note.file or path}, "


def render_findings(results, show_source: bool = True) -> str:
    return "\n".join(line for result in results for line in finding_lines(result, show_source))


class Tally:
    """What the summary line needs, counted as files arrive (no result is kept)."""

    def __init__(self) -> None:
        self.counts = {sev: 0 for sev in Severity}
        self.versions: set[tuple[str, str]] = set()
        self.launches = 0
        self.files = 0
        self.partly_read = 0
        """Launches with values speclint cannot know (an info finding says which)."""
        self.not_found = 0
        """Files that name SGLang's launcher but yielded no launch."""

    def add(self, result) -> None:
        for finding in result.findings:
            self.counts[finding.severity] += 1
        partial = False  # the alternatives of one launch come one after the other
        for ctx in result.contexts:
            self.versions.add((ctx.version.version, ctx.version.reason))
            counted = getattr(ctx, "counted", True)
            self.launches += counted
            if counted:
                partial = False
            if getattr(ctx, "partly_read", False) and not partial:
                self.partly_read += 1
                partial = True
        self.not_found += bool(getattr(result, "launch_not_found", False))
        self.files += result.error is None

    def summary(self, unreadable: int = 0) -> str:
        launches, files = self.launches, self.files
        parts = [f"{launches} launch{'es' if launches != 1 else ''} in {files} "
                 f"file{'s' if files != 1 else ''}"]
        if self.versions:
            parts.append("checked against " + "; ".join(f"SGLang {v} ({why})"
                                                        for v, why in sorted(self.versions)))
        head = ", ".join(parts)
        if unreadable:
            head += f"; {unreadable} file{'s' if unreadable != 1 else ''} could not be linted"
        if self.partly_read:
            head += (f"; {self.partly_read} launch{'es' if self.partly_read != 1 else ''} "
                     "only partly read")
        if self.not_found:
            head += (f"; {self.not_found} file{'s' if self.not_found != 1 else ''} "
                     "naming SGLang with no launch found")
        total = sum(self.counts.values())
        if not total:
            whole = not (unreadable or self.partly_read or self.not_found)
            return f"All checks passed: {head}." if whole else f"No findings: {head}."
        counts = self.counts
        detail = ", ".join(f"{counts[s]} {s.label}"
                           f"{'s' if counts[s] != 1 and s != Severity.INFO else ''}"
                           for s in (Severity.ERROR, Severity.WARNING, Severity.INFO) if counts[s])
        return f"Found {total} finding{'s' if total != 1 else ''} ({detail}): {head}."


def render_summary(results, unreadable: int = 0) -> str:
    tally = Tally()
    for result in results:
        tally.add(result)
    return tally.summary(unreadable)
