"""Findings as the tests compare them: what a user sees of each (its code, line, column, the
text it points at, and its severity or message where a test asks), as tuples (not a test
module)."""

from __future__ import annotations

from collections.abc import Collection

from speclint.engine import lint_text
from speclint.settings.options import LintOptions


def token_at(lines: list[str], span) -> str:
    """The text a span covers, "" for a span over more than one line (or past the text)."""
    if span.line != span.end_line or span.line > len(lines):
        return ""
    return lines[span.line - 1][span.column - 1 : span.end_column - 1]


def findings_at(
    text: str,
    path: str,
    options: LintOptions | None = None,
    *,
    skip: Collection[str] = (),
    severity: bool = False,
    message: bool = False,
) -> list[tuple]:
    """(code, line, column[, severity label], the text it points at[, message]) of each
    finding of linting `text` as `path`, leaving out the codes in `skip`."""
    lines = text.splitlines()
    out: list[tuple] = []
    for f in (lint_text(text, path) if options is None else lint_text(text, path, options)).findings:
        if f.code in skip:
            continue
        s = f.span
        found: tuple = (f.code, s.line, s.column)
        if severity:
            found += (f.severity.label,)
        found += (token_at(lines, s),)
        if message:
            found += (f.message,)
        out.append(found)
    return out


def place(lines: list[str], span) -> tuple[int, int, str]:
    """(line, column, the text it points at) of a span in the text of `lines`."""
    return span.line, span.column, token_at(lines, span)


def text_at(text: str, span) -> str:
    """The text a span covers in `text` ("" for a span over more than one line)."""
    return token_at(text.splitlines(), span)
