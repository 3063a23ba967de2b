"""A linear pre-scan of Python source for nesting that libcst cannot take.

libcst's native parser recurses once per nesting level: 3,000 nested brackets crash the
interpreter (a stack overflow in native code, not an exception), 1,000 take seconds and a
gigabyte, and long operator chains (`a + a + ...`, `- - - x`, `"a" "b" ...`) parse in
quadratic time into trees that its Python visitors cannot walk. CPython itself refuses more
than 200 nested brackets. So before libcst sees a file, this scan estimates how deep the
syntax tree gets, without recursion and without a parser, and `extract_python` reports a
file past the bound instead of parsing it.

The estimate is conservative: inside each open bracket (and at statement level) it counts
the operators, attribute dots, keywords that build expressions and adjacent strings since
the last comma, and sums those counts with the bracket depth. Code inside f-string
replacement fields is scanned the same way.
"""

from __future__ import annotations

import re
from functools import cache

from speclint.core import patterns

MAX_BRACKETS = 100
"""Deepest bracket nesting read (CPython stops at 200)."""
MAX_DEPTH = 200
"""Largest estimated expression depth read."""

_TOKEN_PATTERN = r"""
    (?P<str>(?i:[rbfu]{0,2})(?:
        '''(?:[^'\\]|\\(?:\r\n|.)|'(?!''))*(?:'''|\Z)
      | \"\"\"(?:[^"\\]|\\(?:\r\n|.)|"(?!""))*(?:\"\"\"|\Z)
      | '(?:[^'\\\r\n]|\\(?:\r\n|.))*(?:'|(?=[\r\n])|\Z)
      | "(?:[^"\\\r\n]|\\(?:\r\n|.))*(?:"|(?=[\r\n])|\Z)))
  | (?P<word>\w+)
  | (?P<comment>\#[^\r\n]*)
  | (?P<cont>\\(?:\r\n?|\n))
  | (?P<end>[\r\n;])
  | (?P<open>[(\[{])
  | (?P<close>[)\]}])
  | (?P<comma>,)
  | (?P<op>\*\*|//|<<|>>|[-+*/%@&|^~.<>!=:]=?)
"""


@cache
def _token() -> re.Pattern[str]:
    """The scan's tokens (compiled for the first file `_shallow` cannot clear: ~0.7 ms)."""
    return patterns.compile(_TOKEN_PATTERN, patterns.VERBOSE | patterns.DOTALL)


_KEYWORDS = frozenset(
    {"and", "or", "not", "if", "else", "lambda", "await", "for", "in", "is", "async", "yield"}
)
_FIELD_BRACES = patterns.compile(r"\{\{|\}\}|[{}]")
_COUNTED_CHARACTERS = "-+*/%@&|^~.<>!=:'\"([{)]}"
"""The characters every token the scan counts holds at least one of (an operator's, a
quote, a bracket): with the keywords, no more tokens are counted than these."""
_COUNTED_BYTES = _COUNTED_CHARACTERS.encode()
_KEYWORD = patterns.compile(r"\b(?:" + "|".join(sorted(_KEYWORDS)) + r")\b")


def nesting_problem(text: str, base: int = 0) -> int | None:
    """The offset in `text` where the estimated nesting first passes the bounds, or None."""
    if _shallow(text, base):
        return None
    return _scan(text, base)


def _shallow(text: str, base: int) -> bool:
    """Whether `text` is too short in counted tokens to pass either bound, whatever their
    order (most files; the scan is a tenth of a small wrapper's time). The estimate only
    grows by one per operator, string, keyword or bracket token (a closing bracket gives
    back at least what it adds), and an f-string's fields are characters of the file."""
    # counted in the UTF-8 bytes, where an ASCII character is its own byte and no other
    # character holds one: a deletion per set of characters, not a count per character
    data = text.encode("utf-8", "surrogatepass")
    if len(data) - len(data.translate(None, b"([{")) > MAX_BRACKETS:
        return False
    room = MAX_DEPTH - base - (len(data) - len(data.translate(None, _COUNTED_BYTES)))
    if room < 0:
        return False
    if sum(map(text.count, _KEYWORDS)) <= room:  # a bound: each keyword
        return True  # written as a word is one of its occurrences in the text (`in` in `main`)
    return len(_KEYWORD.findall(text)) <= room


def _scan(text: str, base: int) -> int | None:
    stack = [0]  # per open bracket: the operator count since its last comma
    brackets = 0
    total = base  # brackets + sum(stack), kept up to date
    for match in _token().finditer(text):
        kind = match.lastgroup
        if kind == "word":
            if match.group() not in _KEYWORDS:
                continue
            kind = "op"
        if kind == "op" or kind == "str":
            stack[-1] += 1
            total += 1
            if kind == "str" and "f" in match.group().split("'")[0].split('"')[0].lower():
                inner = _fstring_fields(match.group())
                if inner and nesting_problem(inner, total) is not None:
                    return match.start()
        elif kind == "open":
            stack.append(0)
            brackets += 1
            total += 1
            if brackets > MAX_BRACKETS:
                return match.start()
        elif kind == "close":
            if len(stack) > 1:
                total -= stack.pop() + 1
                brackets -= 1
            stack[-1] += 1  # a call, subscript or bracketed operand continues a chain
            total += 1
        elif kind == "comma" or (kind == "end" and len(stack) == 1):
            total -= stack[-1]
            stack[-1] = 0
        if total > MAX_DEPTH:
            return match.start()
    return None


def _fstring_fields(literal: str) -> str:
    """The code in an f-string's replacement fields (`{{`/`}}` are text), one field a line."""
    fields: list[str] = []
    depth, start = 0, 0
    for match in _FIELD_BRACES.finditer(literal):
        token = match.group()
        if depth == 0:
            if token == "{":
                depth, start = 1, match.end()
            continue
        if token in ("{", "{{"):
            depth += len(token)
        elif token in ("}", "}}"):
            depth -= len(token)
            if depth <= 0:
                fields.append(literal[start : match.start()])
                depth = 0
    if depth:
        fields.append(literal[start:])
    return "\n".join(fields)
