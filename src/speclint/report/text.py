"""Human output: `path:line:col: CODE [severity] message`, the source line and a caret, like ruff."""

from __future__ import annotations

from speclint.rules.base import Severity


def _excerpt(lines: list[str], span, indent: int) -> list[str]:
    if not (1 <= span.line <= len(lines)):
        return []
    source = lines[span.line - 1].rstrip("\n").expandtabs(1)
    start = max(span.column - 1, 0)
    stop = span.end_column - 1 if span.end_line == span.line else len(source)
    width = max(stop - start, 1)
    gutter = " " * indent
    number = str(span.line).rjust(indent)
    return [f"{gutter} |", f"{number} | {source}", f"{gutter} | {' ' * start}{'^' * width}"]


def render_findings(results, show_source: bool = True) -> str:
    out: list[str] = []
    for result in results:
        lines = result.text.splitlines() if show_source else []
        for finding in result.findings:
            span = finding.span
            out.append(f"{finding.path}:{span.line}:{span.column}: {finding.code} "
                       f"[{finding.severity.label}] {finding.message}")
            if show_source:
                indent = len(str(span.line))
                out.extend(_excerpt(lines, span, indent))
                pad = " " * indent
                if finding.fix_hint:
                    out.append(f"{pad} = help: {finding.fix_hint}")
                for note in finding.notes:
                    out.append(f"{pad} = note: line {note.span.line}, column "
                               f"{note.span.column}: {note.message}")
                out.append("")
    return "\n".join(out)


def render_summary(results, unreadable: int = 0) -> str:
    findings = [f for r in results for f in r.findings]
    counts = {sev: sum(1 for f in findings if f.severity == sev) for sev in Severity}
    versions = sorted({(c.version.version, c.version.reason) for r in results for c in r.contexts})
    launches = sum(len(r.contexts) for r in results)
    files = sum(1 for r in results if r.error is None)
    parts = [f"{launches} launch{'es' if launches != 1 else ''} in {files} "
             f"file{'s' if files != 1 else ''}"]
    if versions:
        parts.append("checked against " + "; ".join(f"SGLang {v} ({why})" for v, why in versions))
    head = ", ".join(parts)
    if unreadable:
        head += f"; {unreadable} file{'s' if unreadable != 1 else ''} could not be linted"
    if not findings:
        return (f"No findings: {head}." if unreadable else f"All checks passed: {head}.")
    total = len(findings)
    detail = ", ".join(f"{counts[s]} {s.label}{'s' if counts[s] != 1 and s != Severity.INFO else ''}"
                       for s in (Severity.ERROR, Severity.WARNING, Severity.INFO) if counts[s])
    return f"Found {total} finding{'s' if total != 1 else ''} ({detail}): {head}."
