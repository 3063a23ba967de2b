"""Positions for `from_ast`: ast's (line, UTF-8 byte column) made offsets in the parsed
text and libcst's (line, character column) ranges; stepping over spaces, line breaks,
continuations and comments between tokens; matching brackets."""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import cache

from speclint.core import patterns
from speclint.frontends.python.comments import STRING_OR_COMMENT
from speclint.frontends.python.positions import python_line_starts

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from speclint.frontends.python.nodes import Node

_NOT_CODE = patterns.compile(r"(?:[ \t\f\r\n]|\\[\r\n]|\#[^\r\n]*)*")
"""Spaces, line ends, continuations (a backslash before a line end) and comments: what `fwd`
steps over, one match instead of a step per character."""
_MAY_SKIP = frozenset(" \t\f\r\n\\#")
"""The characters `_NOT_CODE` can start with: from any other, `fwd` stays where it is."""


@cache
def _brackets() -> re.Pattern[str]:
    """Brackets, strings and comments (compiled at the first `matching_close`: ~0.5 ms)."""
    return patterns.compile(STRING_OR_COMMENT.pattern + r"|[()\[\]{}]", patterns.VERBOSE | patterns.DOTALL)


class SourcePositions:
    """Positions in the parsed text (`text`) as libcst gives them; `local`: for an f-string
    field's expression, parsed on its own: (its text, its line starts, where it starts in
    `text`, less the `(` it was parsed with)."""

    def __init__(
        self, text: str, starts: list[int] | None = None, ends: dict[int, int] | None = None
    ) -> None:
        self.text = text
        self.starts = python_line_starts(text) if starts is None else starts
        self.ascii = text.isascii()
        self.local: tuple[str, list[int], int] | None = None
        if ends is None:
            ends = {}
            if "#" in text:
                for match in STRING_OR_COMMENT.finditer(text):
                    if match.lastgroup == "comment":
                        ends[match.end()] = match.start()
        self.comment_ends = ends
        self.param_ends: dict[int, int] = {}
        """Comment end -> its start (`back` steps over comments)."""

    def nested(self, text: str, at: int) -> Any:
        """A builder for `(` + text + `)` parsed alone, text written at `at`."""
        made = type(self).__new__(type(self))
        made.__dict__.update(self.__dict__)
        made.local = ("(" + text + ")", python_line_starts("(" + text + ")"), at - 1)
        return made

    # ---- positions ---------------------------------------------------------------------------

    def at(self, line: int, column: int) -> int:
        """The offset in `text` of ast's (line, byte column)."""
        if self.local is not None:
            text, starts, base = self.local
        else:
            text, starts, base = self.text, self.starts, 0
        start = starts[line - 1]
        if not self.ascii:
            column = len(text[start : start + column].encode("utf-8")[:column].decode("utf-8", "replace"))
        return base + start + column

    def span(self, node: Any) -> tuple[int, int]:
        if self.local is None and self.ascii:  # `at` without its cases: most nodes of most files
            starts = self.starts
            start = starts[node.lineno - 1] + node.col_offset
            return start, starts[node.end_lineno - 1] + node.end_col_offset
        return self.at(node.lineno, node.col_offset), self.at(node.end_lineno, node.end_col_offset)

    def rng(self, start: int, end: int) -> tuple[int, int, int, int]:
        starts = self.starts
        line = bisect_right(starts, start)
        end_line = bisect_right(starts, end) if end != start else line
        return line, start - starts[line - 1], end_line, end - starts[end_line - 1]

    def fwd(self, at: int) -> int:
        """The next code character from `at` (past spaces, line ends, continuations, comments)."""
        text = self.text
        if at >= len(text) or text[at] not in _MAY_SKIP:  # (most tokens follow code: no match)
            return at
        skipped = _NOT_CODE.match(text, at)  # (it matches the empty string: never None)
        return skipped.end() if skipped is not None else at

    def back(self, at: int) -> int:
        """Just after the code character before `at`."""
        text = self.text
        ends = self.comment_ends
        while at > 0:
            if at in ends:
                at = ends[at]
                continue
            char = text[at - 1]
            if char in " \t\f":
                at -= 1
            elif char in "\r\n":
                at -= 1
                if text[at - 1 : at] == "\\":
                    at -= 1
            else:
                break
        return at

    # ---- expressions -------------------------------------------------------------------------

    def matching_close(self, at: int) -> int:
        """Where the bracket opened at `at` closes (strings and comments skipped)."""
        depth = 0
        for match in _brackets().finditer(self.text, at):
            token = match.group()
            if token in "([{":
                depth += 1
            elif token in ")]}":
                depth -= 1
                if depth == 0:
                    return match.start()
        return -1

    def outer_start(self, node: Node) -> int:
        where = node.outer or node.range
        return self.starts[where[0] - 1] + where[1]

    def outer_end(self, node: Node) -> int:
        where = node.outer or node.range
        return self.starts[where[2] - 1] + where[3]
