"""The comments of Python source, found by a string-aware scan: CPython's `ast` keeps none
(suppressions live in them), and `select` finds those of the lines it leaves out."""

from __future__ import annotations

from bisect import bisect_right

from speclint.core import patterns
from speclint.frontends.python.positions import python_line_starts

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.frontends.python.nodes import Range

STRING_OR_COMMENT = patterns.compile(
    r"""
    (?P<str>(?i:[rbfut]{0,2})(?:
        '''(?:[^'\\]|\\(?:\r\n|.)|'(?!''))*(?:'''|\Z)
      | \"\"\"(?:[^"\\]|\\(?:\r\n|.)|"(?!""))*(?:\"\"\"|\Z)
      | '(?:[^'\\\r\n]|\\(?:\r\n|.))*(?:'|(?=[\r\n])|\Z)
      | "(?:[^"\\\r\n]|\\(?:\r\n|.))*(?:"|(?=[\r\n])|\Z)))
  | \w+
  | (?P<comment>\#[^\r\n]*)
""",
    patterns.VERBOSE | patterns.DOTALL,
)


def comments_in(source: str) -> list[tuple[Range, str]]:
    """The comments of `source` (a string-aware scan; `ast` keeps none): range and text."""
    if "#" not in source:
        return []
    starts = python_line_starts(source)
    found: list[tuple[Range, str]] = []
    for match in STRING_OR_COMMENT.finditer(source):
        if match.lastgroup == "comment":
            line = bisect_right(starts, match.start())
            column = match.start() - starts[line - 1]
            found.append(((line, column, line, column + len(match.group())), match.group()))
    return found
