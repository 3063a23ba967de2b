"""Between speclint's spans (1-based lines, code-point columns, end exclusive) and LSP
positions (0-based lines, UTF-16 code units by default)."""

from __future__ import annotations

from lsprotocol import types

from speclint.core.findings import Severity

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.findings import Finding
    from speclint.core.spans import Span

_SEVERITY = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.INFO: types.DiagnosticSeverity.Information,
}


_UNIT_BYTES = {"utf-8": None, "utf-16": 2, "utf-32": 4}


def _units(ch: str, encoding: str) -> int:
    if encoding == "utf-32":
        return 1
    if encoding == "utf-8":
        return len(ch.encode("utf-8"))
    return 2 if ord(ch) > 0xFFFF else 1


class Lines:
    """A document's lines, for column conversions in the negotiated position encoding
    (`utf-16`, LSP's default, `utf-32` or `utf-8`)."""

    def __init__(self, text: str, encoding: str = "utf-16") -> None:
        self.lines = text.split("\n")
        self.encoding = encoding if encoding in _UNIT_BYTES else "utf-16"

    def _line(self, line: int) -> str:
        return self.lines[line] if 0 <= line < len(self.lines) else ""

    def to_unit(self, line: int, column: int) -> int:
        """Code-point column (0-based) -> the client's column on 0-based `line`."""
        if self.encoding == "utf-32":
            return column
        text = self._line(line)
        return sum(_units(ch, self.encoding) for ch in text[:column]) + max(0, column - len(text))

    def to_codepoint(self, line: int, unit: int) -> int:
        """The client's column on 0-based `line` -> code-point column (0-based)."""
        if self.encoding == "utf-32":
            return unit
        seen = 0
        for index, ch in enumerate(self._line(line)):
            if seen >= unit:
                return index
            seen += _units(ch, self.encoding)
        return len(self._line(line))

    def range_of(self, span: Span) -> types.Range:
        start_line, end_line = span.line - 1, span.end_line - 1
        return types.Range(
            start=types.Position(start_line, self.to_unit(start_line, span.column - 1)),
            end=types.Position(end_line, self.to_unit(end_line, span.end_column - 1)),
        )


def span_contains(span: Span, line: int, column: int) -> bool:
    """Whether the 1-based (line, column) lies inside `span` (its end included, so a cursor
    right after a word still hovers it)."""
    if (line, column) < (span.line, span.column):
        return False
    return (line, column) <= (span.end_line, span.end_column)


def doc_url(code: str, name: str) -> str:
    """Where the rule's page is: the same URL the CLI's reports print."""
    from speclint.report.urls import rule_url

    return rule_url(code, name)


def diagnostic(finding: Finding, lines: Lines) -> types.Diagnostic:
    message = finding.message
    if finding.fix_hint:
        message += f"\nhelp: {finding.fix_hint}"
    related = [
        types.DiagnosticRelatedInformation(
            location=types.Location(uri="", range=lines.range_of(note.span)), message=note.message
        )
        for note in finding.notes
    ]
    return types.Diagnostic(
        range=lines.range_of(finding.span),
        message=message,
        severity=_SEVERITY[finding.severity],
        code=finding.code,
        source="speclint",
        code_description=types.CodeDescription(href=doc_url(finding.code, finding.name)),
        related_information=related or None,
        data={"name": finding.name},
    )
