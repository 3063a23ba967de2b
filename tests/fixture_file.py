"""A fixture file read once, with what its tests ask of it: where a span stands (line,
column and the text written there) and the findings of a lint of it."""

from __future__ import annotations

from pathlib import Path

from speclint.engine import lint_text

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


class FixtureFile:
    def __init__(self, relative: str) -> None:
        self.path = FIXTURES / relative
        self.text = self.path.read_text()
        self.lines = self.text.splitlines()

    def at(self, span) -> tuple[int, int, str]:
        """(line, column, the text the span covers on its line)."""
        return span.line, span.column, self.lines[span.line - 1][span.column - 1 : span.end_column - 1]

    def findings(self) -> list[tuple[str, int, int, str, str]]:
        """(code, line, column, text at the span, message) of each finding."""
        return [(f.code, *self.at(f.span), f.message) for f in lint_text(self.text, str(self.path)).findings]
