"""bash's `test` / `[` builtin on known words: its rules by argument count, then precedence,
and the string, `-z`/`-n` and decimal integer tests (`static_tests` decides a condition with
them; `[[ ]]` uses the same primaries). File tests (`-f`, `-d`, ...) depend on the machine the
script runs on: never decided."""

from __future__ import annotations

import re
from functools import cache

INTEGER_OPERATORS = ("-eq", "-ne", "-lt", "-le", "-gt", "-ge")
STRING_OPERATORS = ("=", "==", "!=")


@cache  # compiled on first use: only when a condition is decided
def _decimal() -> re.Pattern[str]:
    return re.compile(r"-?(?:0|[1-9][0-9]*)")


# ---- `test` / `[`: bash's rules by argument count, then precedence ---------------------------


def test(args: list[str]) -> bool | None:
    count = len(args)
    if count == 0:
        return False
    if count == 1:
        return args[0] != ""
    if count == 2:
        if args[0] == "!":
            return args[1] == ""
        return unary(args[0], args[1])
    if count == 3:
        if args[1] in STRING_OPERATORS + INTEGER_OPERATORS:
            return binary(args[0], args[1], args[2])
        if args[1] in ("-a", "-o"):
            left, right = args[0] != "", args[2] != ""
            return (left and right) if args[1] == "-a" else (left or right)
        if args[0] == "!":
            inner = test(args[1:])
            return None if inner is None else not inner
        if args[0] == "(" and args[2] == ")":
            return args[1] != ""
        return None
    if count == 4:
        if args[0] == "!":
            inner = test(args[1:])
            return None if inner is None else not inner
        if args[0] == "(" and args[3] == ")":
            return test(args[1:3])
    parser = _TestParser(args)
    result = parser.disjunction()
    return result if parser.position == len(args) else None


class _TestParser:
    """`test` with more than four arguments: `-o` below `-a` below `!`, `( )`, primaries."""

    def __init__(self, args: list[str]) -> None:
        self.args = args
        self.position = 0

    def _peek(self, offset: int = 0) -> str | None:
        index = self.position + offset
        return self.args[index] if index < len(self.args) else None

    def disjunction(self) -> bool | None:
        result = self.conjunction()
        while self._peek() == "-o":
            self.position += 1
            right = self.conjunction()
            result = None if result is None or right is None else (result or right)
        return result

    def conjunction(self) -> bool | None:
        result = self.term()
        while self._peek() == "-a":
            self.position += 1
            right = self.term()
            result = None if result is None or right is None else (result and right)
        return result

    def term(self) -> bool | None:
        first = self._peek()
        if first is None:
            return None
        if first == "!":
            self.position += 1
            inner = self.term()
            return None if inner is None else not inner
        if first == "(":
            self.position += 1
            inner = self.disjunction()
            if self._peek() != ")":
                self.position = len(self.args) + 1
                return None
            self.position += 1
            return inner
        operator = self._peek(1)
        if (
            operator is not None
            and self._peek(2) is not None
            and operator in STRING_OPERATORS + INTEGER_OPERATORS
        ):
            self.position += 3
            return binary(first, operator, self.args[self.position - 1])
        if first.startswith("-") and len(first) == 2 and operator is not None:
            self.position += 2
            return unary(first, operator)
        self.position += 1
        return first != ""


def unary(operator: str, operand: str) -> bool | None:
    if operator == "-z":
        return operand == ""
    if operator == "-n":
        return operand != ""
    return None  # file tests and the like depend on the machine


def binary(left: str, operator: str, right: str) -> bool | None:
    if operator in ("=", "=="):
        return left == right
    if operator == "!=":
        return left != right
    pattern = _decimal()
    if pattern.fullmatch(left) is None or pattern.fullmatch(right) is None:
        return None
    a, b = int(left), int(right)
    return {
        "-eq": a == b,
        "-ne": a != b,
        "-lt": a < b,
        "-le": a <= b,
        "-gt": a > b,
        "-ge": a >= b,
    }.get(operator)


@cache
def _portable_regex() -> re.Pattern[str]:
    """An extended regular expression that means the same to Python's `re`: literals, `.`,
    anchors, `*+?{m,n}`, `|`, groups, bracket expressions without POSIX classes, and `\\`
    before a special character only."""
    return re.compile(
        r"(?:[A-Za-z0-9_ ,:/@%=<>!'#&~-]|[.^$*+?|(){}]|\\[.^$*+?|(){}\[\]\\/-]|\[\^?\]?[^\[\]\\]*\])*"
    )


def regex_matches(text: str, regex: str) -> bool | None:
    """`[[ TEXT =~ REGEX ]]` (bash(1): an extended regular expression, matched anywhere in
    TEXT), or None when REGEX holds what Python's `re` may read otherwise (a POSIX class
    `[[:digit:]]`, `\\d`, `(?`), an expansion, or does not compile."""
    if not _portable_regex().fullmatch(regex) or "(?" in regex or re.search(r"\$[A-Za-z_{(]", regex):
        return None
    try:
        return re.search(regex, text) is not None
    except re.error:
        return None
