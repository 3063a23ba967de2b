"""Bash arithmetic expansion `$(( ... ))` worked out when it uses only integers, the script's
own integer variables and `+ - * / % **` with parentheses (bash manual, "Shell Arithmetic":
fixed-width integers, `/` and `%` truncate toward zero as in C). Anything else (comparisons,
assignments, a variable whose value is unknown or not an integer) stays unknown: nothing is
run, the text is read by this small parser only.
"""

from __future__ import annotations

import re
from functools import cache

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from speclint.frontends.shell.fields import Piece
    from speclint.frontends.shell.variables import Env

_LIMIT = 2**63
"""Bash's arithmetic is 64-bit: a result past it wraps, which is not worth modelling."""


@cache  # compiled on first use: only for a script with `$(( ))`
def _token() -> re.Pattern[str]:
    return re.compile(r"\s*(?:(\d+)|\$?\{?([A-Za-z_][A-Za-z0-9_]*)\}?|(\*\*|[-+*/%()]))")


def expansion_piece(written: str, env: Env) -> Piece:
    """What `$((...))` (`written`: as in the file) gives the word it is in (`expand`): its value
    when the script's own integers decide it, else unknown (never several words: its result is
    a number)."""
    text = written.strip()
    value = None
    if text.startswith("$((") and text.endswith("))"):
        value = evaluate(text[3:-2], lambda name: _integer_text(env, name))
    if value is None:
        return ("dyn", f"arithmetic expansion `{text}`", False, None, False)
    return ("lit", str(value), True, None, None)


def _integer_text(env: Env, name: str) -> str | None:
    value = env.get(name)
    return value.text if value is not None and value.reason is None and value.elements is None else None


def evaluate(expression: str, lookup: Callable[[str], str | None]) -> int | None:
    """The value of `expression` (the text between `$((` and `))`), or None when it is not
    one this module works out. `lookup(name)` is a variable's known text or None."""
    tokens: list[tuple[str, object]] = []
    position = 0
    text = expression.rstrip()
    while position < len(text):
        match = _token().match(text, position)
        if match is None or match.end() == position:
            return None
        number, name, operator = match.groups()
        if number is not None:
            if len(number) > 1 and number.startswith("0"):
                return None  # octal in bash
            tokens.append(("n", int(number)))
        elif name is not None:
            value = lookup(name)
            if value is None or not re.fullmatch(r"-?\d+", value.strip()):
                return None
            tokens.append(("n", int(value)))
        else:
            tokens.append(("o", operator))
        position = match.end()
    parser = _Parser(tokens)
    try:
        result = parser.sum()
    except (ValueError, ZeroDivisionError, OverflowError):
        return None
    if parser.at != len(tokens) or not -_LIMIT <= result < _LIMIT:
        return None
    return result


class _Parser:
    """Precedence climbing over the tokens: sum > product > power > unary > atom."""

    def __init__(self, tokens: list[tuple[str, object]]) -> None:
        self.tokens = tokens
        self.at = 0

    def _peek(self) -> object:
        return (
            self.tokens[self.at][1] if self.at < len(self.tokens) and self.tokens[self.at][0] == "o" else None
        )

    def sum(self) -> int:
        value = self.product()
        while self._peek() in ("+", "-"):
            operator = self._peek()
            self.at += 1
            right = self.product()
            value = value + right if operator == "+" else value - right
        return value

    def product(self) -> int:
        value = self.power()
        while self._peek() in ("*", "/", "%"):
            operator = self._peek()
            self.at += 1
            right = self.power()
            if operator == "*":
                value *= right
            elif right == 0:
                raise ZeroDivisionError
            else:
                quotient = abs(value) // abs(right) * (1 if (value < 0) == (right < 0) else -1)
                value = quotient if operator == "/" else value - right * quotient
        return value

    def power(self) -> int:
        base = self.unary()
        if self._peek() == "**":
            self.at += 1
            exponent = self.power()  # right-associative
            if exponent < 0 or exponent > 64:
                raise ValueError
            return int(base**exponent)
        return base

    def unary(self) -> int:
        operator = self._peek()
        if operator in ("+", "-"):
            self.at += 1
            value = self.unary()
            return -value if operator == "-" else value
        return self.atom()

    def atom(self) -> int:
        if self.at >= len(self.tokens):
            raise ValueError
        kind, value = self.tokens[self.at]
        if kind == "n":
            self.at += 1
            assert isinstance(value, int)
            return value
        if value == "(":
            self.at += 1
            inner = self.sum()
            if self._peek() != ")":
                raise ValueError
            self.at += 1
            return inner
        raise ValueError
