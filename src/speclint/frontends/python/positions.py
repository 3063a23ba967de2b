"""Where a Python node is in the file, and what a string literal's body says, piece by
piece, with where each piece is written."""

from __future__ import annotations

import ast
from bisect import bisect_right

from speclint.core import patterns
from speclint.core.launches import Diagnostic
from speclint.core.spans import Span
from speclint.frontends.shell.pieces import Piece, line_starts, span_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Protocol

    from speclint.frontends.python import syntax as py
    from speclint.frontends.python.nodes import Range
    from speclint.frontends.python.values import Val

    class RangeLookup(Protocol):
        """A node's range: `OwnRanges`, or a mapping from nodes (`fixtures`)."""

        def __getitem__(self, node: py.Node, /) -> Range: ...


class OwnRanges:
    """Each node's own range (what libcst's PositionProvider gave, kept on the node)."""

    __slots__ = ()

    def __getitem__(self, node: py.Node) -> Range:
        return node.range


_ESCAPE = patterns.compile(
    r"\\(\r\n?|\n|[\\'\"abfnrtv]|[0-7]{1,3}|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}"
    r"|U[0-9a-fA-F]{8}|N\{[^}]*\})"
    r"|\r\n?"
)
"""A non-raw literal's escapes (a backslash before a line end of any kind continues the line),
and a CR LF or lone CR line end, which Python reads as one `\\n` (its tokenizer
normalises line ends before a literal is read)."""
_LINE_END = patterns.compile(r"\r\n?")
"""What a raw literal decodes: its CR LF or lone CR line ends (as `\\n`)."""


class Positions:
    """Node → file character offsets and Spans (columns count characters).
    `lines`: where each parsed line starts in the file, when a selection of the file's
    lines was parsed (`select`); the file's own line starts otherwise."""

    relocates = True
    """A value read through a name is placed where the name is written (not in SGLang's
    source: `fixtures.Borrowed`)."""

    def __init__(
        self,
        ranges: RangeLookup,
        starts: list[int],
        lines: list[int] | None = None,
        source: str = "",
        source_starts: list[int] | None = None,
    ) -> None:
        self.ranges = ranges
        self.own_ranges = type(ranges) is OwnRanges
        """Each node's range is its own `range` (`offsets` reads it without a call)."""
        self.starts = starts
        self.lines = starts if lines is None else lines
        self.source = source
        """The text the tree was read from (the file, or its selected lines: `select`)."""
        self.source_starts = source_starts if source_starts is not None else python_line_starts(source)
        self.module: py.Module | None = None
        """The tree read from `source` (`quote` finds the statements' indentation in it)."""
        self.statement_lines: list[int] | None = None

    def quote(self, node: py.Node) -> str:
        """The node's code as written, its own parentheses included (what libcst's
        `code_for_node` gave), stripped and shortened to 40 characters."""
        line, column, end_line, end_column = node.outer or node.range
        starts = self.source_starts
        end = starts[end_line - 1] + end_column
        if type(node).__name__ == "StarredElement":  # libcst's element: its comma with it
            after = end
            while self.source[after : after + 1] in (" ", "\t", "\f"):
                after += 1
            if self.source[after : after + 1] == ",":
                end = after + 1
                end_line = bisect_right(starts, end)  # (for the line breaks below)
        text = self.source[starts[line - 1] + column : end]
        if end_line != line and self.module is not None:
            from speclint.frontends.python.quoting import dedented, statement_lines

            if self.statement_lines is None:
                self.statement_lines = statement_lines(self.module)
            text = dedented(text, self.source, starts, self.statement_lines, line)
        text = text.strip()
        return text if len(text) <= 40 else text[:37] + "..."

    def offsets(self, node: py.Node) -> tuple[int, int]:
        line, column, end_line, end_column = node.range if self.own_ranges else self.ranges[node]
        return self.lines[line - 1] + column, self.lines[end_line - 1] + end_column

    def span(self, node: py.Node) -> Span:
        if self.own_ranges and self.lines is self.starts and type(self) is Positions:
            return node_span(self.starts, node.range)
        return span_of(self.starts, *self.offsets(node))

    def span_at(self, where: Range) -> Span:
        """The Span of a range of the parsed text (a comment's)."""
        line, column, end_line, end_column = where
        return span_of(self.starts, self.lines[line - 1] + column, self.lines[end_line - 1] + end_column)

    def literal(self, body: str, at: int, raw: bool, fstring: bool = False) -> list[Piece]:
        """A string literal's pieces (`decode_body`); `at`: where its body starts."""
        return decode_body(body, at, raw, fstring)

    def joined(self, pieces: list[Piece]) -> list[Piece]:
        """An f-string's pieces, as they are placed in the file."""
        return pieces

    def formatted(self, part: py.Node, value: Val) -> tuple[int, int]:
        """Where the value of an f-string's `{...}` part is written: the part itself."""
        return self.offsets(part)


def node_span(starts: list[int], where: Range) -> Span:
    """`span_of` the file characters of a node whose range `where` is in the file's own
    lines (`starts`): read off the range where it starts in its line and ends after a
    character of its end line (every node read from a file), without `span_of`'s searches."""
    line, column, end_line, end_column = where
    if end_column and (end_line > line or end_column > column):
        return Span(line, column + 1, end_line, end_column + 1)
    return span_of(starts, starts[line - 1] + column, starts[end_line - 1] + end_column)


def decode_body(body: str, at: int, raw: bool, fstring: bool = False) -> list[Piece]:
    """Pieces of a string literal's body starting at file offset `at`, escapes decoded."""
    pieces: list[Piece] = []
    if "\r" not in body and (
        raw and not fstring or "\\" not in body and not (fstring and ("{" in body or "}" in body))
    ):  # nothing to decode: one piece (most literals)
        return [Piece(body, at, at + len(body), exact=True)] if body else []
    pattern = _ESCAPE if not raw else _LINE_END
    if fstring:
        pattern = patterns.compile(pattern.pattern + r"|\{\{|\}\}")
    pos = 0
    for match in pattern.finditer(body):
        if match.start() > pos:
            pieces.append(Piece(body[pos : match.start()], at + pos, at + match.start(), exact=True))
        token = match.group(0)
        if token in ("{{", "}}"):
            decoded = token[0]
        elif token[0] == "\r":
            decoded = "\n"
        elif token in ("\\\n", "\\\r", "\\\r\n"):
            decoded = ""
        else:
            try:
                decoded = ast.literal_eval('"' + token + '"')
            except (ValueError, SyntaxError):
                decoded = token
        if decoded:
            pieces.append(Piece(decoded, at + match.start(), at + match.end()))
        pos = match.end()
    if pos < len(body):
        pieces.append(Piece(body[pos:], at + pos, at + len(body), exact=True))
    return pieces


_NEWLINE = patterns.compile(r"\r\n?|\n")


def python_line_starts(text: str) -> list[int]:
    """Where lines start as Python (and libcst) counts them: a lone CR ends a line too."""
    if "\r" not in text:
        return line_starts(text)
    return [0] + [match.end() for match in _NEWLINE.finditer(text)]


def syntax_error(text: str, line: int, column: int, known: SyntaxError | None = None) -> Diagnostic:
    """Where CPython's own parser stops (clearer than libcst's message, which stopped at
    `line`, `column`); parsing only. `known`: CPython's error on this text, if it ran."""
    if known is None:
        import ast

        try:
            ast.parse(text)
        except (RecursionError, MemoryError, ValueError):  # too deep for CPython too; NUL bytes
            pass
        except SyntaxError as error:
            known = error
    if known is not None:
        return Diagnostic(
            "syntax-error",
            f"Python syntax error: {known.msg}",
            Span.point(known.lineno or line, max(known.offset or column, 1)),
        )
    return Diagnostic(
        "unsupported-input",
        "speclint's Python parser (libcst) cannot read this syntax; launches in this file are not checked",
        Span.point(line, column),
    )
