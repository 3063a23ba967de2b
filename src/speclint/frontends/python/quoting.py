"""A node's code as libcst's `code_for_node` wrote it (the walker quotes it in messages:
"`f(x)` is computed when the program runs"): the source text, but where a line break inside
brackets is followed by the indentation of the block the statement is in, libcst kept that
indentation apart (`ParenthesizedWhitespace.indent`) and does not write it for a lone node.
Line breaks inside strings and after a backslash are kept as written."""

from __future__ import annotations

import re
from bisect import bisect_right

from speclint.frontends.python import syntax as py

_TOKENS = re.compile(
    r"""
    (?P<str>(?i:[rbfut]{0,2})(?:
        '''(?:[^'\\]|\\(?:\r\n|.)|'(?!''))*(?:'''|\Z)
      | \"\"\"(?:[^"\\]|\\(?:\r\n|.)|"(?!""))*(?:\"\"\"|\Z)
      | '(?:[^'\\\r\n]|\\(?:\r\n|.))*(?:'|(?=[\r\n])|\Z)
      | "(?:[^"\\\r\n]|\\(?:\r\n|.))*(?:"|(?=[\r\n])|\Z)))
  | (?P<comment>\#[^\r\n]*)
  | (?P<cont>\\(?:\r\n?|\n))
  | (?P<newline>\r\n?|\n)
""",
    re.X | re.S,
)
_NEWLINE = re.compile(r"\r\n?|\n")
_STARTS = (py.BaseStatement, py.BaseSmallStatement, py.Decorator, py.ExceptHandler, py.ExceptStarHandler)
_CLAUSES = (py.MatchCase, py.Else, py.Finally)


def statement_lines(module: py.Module) -> list[int]:
    """The first line of every statement and clause (`else:`, `except`, a decorator)."""
    found: set[int] = set()
    stack: list[object] = [module.body]
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, py.Node) and not isinstance(item, py.BaseExpression):
            if isinstance(item, (*_STARTS, *_CLAUSES)):
                found.add(item.range[0])
            stack.extend(getattr(item, name) for name in item.FIELDS)
    return sorted(found)


def dedented(text: str, source: str, starts: list[int], lines: list[int], line: int) -> str:
    """`text` (a node's code, from `line` on) as libcst wrote it: after each line break
    inside brackets, the block's indentation left out and the break written `\\n` where it
    is the file's first kind of line break (libcst's default newline); `lines`:
    `statement_lines` of the tree."""
    index = bisect_right(lines, line) - 1
    first = lines[index] if index >= 0 else 1
    start = starts[first - 1]
    indent = source[start : start + len(source[start:]) - len(source[start:].lstrip(" \t\f"))]
    default = _NEWLINE.search(source)
    newline = default.group() if default is not None else "\n"
    out: list[str] = []
    position = 0
    for match in _TOKENS.finditer(text):
        if match.lastgroup != "newline":
            continue
        out.append(text[position : match.start()])
        out.append("\n" if match.group() == newline else match.group())
        position = match.end()
        if indent and text.startswith(indent, position):
            position += len(indent)
    out.append(text[position:])
    return "".join(out)
