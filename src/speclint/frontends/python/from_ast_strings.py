"""String literals for `from_ast`: `ast` makes one constant of `"a" f"b{x}"`; libcst (and
the walker) reads each literal, f-strings part by part. A scanner splits them."""

from __future__ import annotations

import ast
import re

from speclint.frontends.python import syntax as py

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Protocol

    class ExpressionBuilder(Protocol):
        """What is used of `from_ast_expressions.ExpressionBuilder` (which imports this)."""

        text: str

        def rng(self, start: int, end: int) -> tuple[int, int, int, int]: ...

        def fwd(self, at: int) -> int: ...

        def nested(self, text: str, at: int) -> ExpressionBuilder: ...

        def expr(self, node: ast.expr, owned: int = -1) -> Any: ...


_START = re.compile(r"""(?P<prefix>[A-Za-z]{0,2})(?P<quote>'''|\"\"\"|'|")""")


def literal_end(text: str, at: int, quote: str) -> int:
    """Where the literal whose body starts at `at` ends (after its closing quote)."""
    size = len(text)
    while at < size:
        char = text[at]
        if char == "\\":
            at += 2
            continue
        if text.startswith(quote, at):
            return at + len(quote)
        at += 1
    return size


def strings(builder: ExpressionBuilder, start: int, end: int) -> Any:
    """The literals written between start and end, right-nested as libcst nests them."""
    text = builder.text
    made: list[Any] = []
    at = start
    while at < end:
        match = _START.match(text, at)
        assert match is not None, (text[at : at + 20], at)
        quote = match.group("quote")
        body = match.end()
        stop = literal_end(text, body, quote)
        prefix = match.group("prefix")
        where = builder.rng(at, stop)
        if "f" in prefix.lower():
            parts = fstring_parts(builder, body, stop - len(quote), "r" in prefix.lower())
            made.append(py.FormattedString(where, None, parts, prefix + quote, quote))
        else:
            made.append(py.SimpleString(where, None, text[at:stop]))
        at = builder.fwd(stop)
    node = made[-1]
    for left in reversed(made[:-1]):
        node = py.ConcatenatedString(left.range[:2] + node.range[2:], None, left, node)
    return node


def fstring_parts(builder: ExpressionBuilder, begin: int, end: int, raw: bool) -> list[Any]:
    """An f-string body's text and `{...}` parts, between file offsets begin and end."""
    text = builder.text
    parts: list[Any] = []
    at = begin
    run = begin
    while at < end:
        char = text[at]
        if char == "\\" and not raw:
            at += 2
            continue
        if char in "{}" and text[at + 1 : at + 2] == char:
            at += 2
            continue
        if char == "{":
            if at > run:
                parts.append(py.FormattedStringText(builder.rng(run, at), None, text[run:at]))
            field, at = _field(builder, at, end, raw)
            parts.append(field)
            run = at
            continue
        at += 1
    if end > run:
        parts.append(py.FormattedStringText(builder.rng(run, end), None, text[run:end]))
    return parts


_CLOSE = {"(": ")", "[": "]", "{": "}"}


def _field(builder: ExpressionBuilder, open_at: int, end: int, raw: bool) -> tuple[Any, int]:
    """The field `{...}` opening at `open_at`, and where it ends."""
    text = builder.text
    at = open_at + 1
    depth: list[str] = []
    expression_end = -1
    while at < end:
        char = text[at]
        if char in "'\"":
            quote = text[at : at + 3] if text.startswith(char * 3, at) else char
            at = literal_end(text, at + len(quote), quote)
            continue
        if char in "([{":
            depth.append(_CLOSE[char])
        elif depth and char == depth[-1]:
            depth.pop()
        elif not depth and (
            char == "}"
            or char == ":"
            or (char == "!" and text[at + 1 : at + 2] != "=")
            or (
                char == "=" and text[at + 1 : at + 2] != "=" and text[at - 1 : at] not in ("=", "!", "<", ">")
            )
        ):
            expression_end = at
            break
        at += 1
    source = text[open_at + 1 : expression_end]
    tree = ast.parse("(" + source + ")", mode="eval")
    expression = builder.nested(source, open_at + 1).expr(tree.body)
    at = expression_end
    if text[at] == "=":
        at = builder.fwd(at + 1) if text[at + 1 : at + 2] in " \t" else at + 1
        while text[at] in " \t":
            at += 1
    conversion = None
    if text[at] == "!":
        conversion = text[at + 1]
        at += 2
    format_spec = None
    if text[at] == ":":
        format_spec, at = _spec(builder, at + 1, end, raw)
    assert text[at] == "}", text[open_at : at + 1]
    at += 1
    return py.FormattedStringExpression(
        builder.rng(open_at, at), None, expression, conversion, format_spec
    ), at


def _spec(builder: ExpressionBuilder, at: int, end: int, raw: bool) -> tuple[list[Any], int]:
    """A format spec's parts (text and nested fields) up to its field's `}`."""
    text = builder.text
    parts: list[Any] = []
    run = at
    while at < end and text[at] != "}":
        if text[at] == "{":
            if at > run:
                parts.append(py.FormattedStringText(builder.rng(run, at), None, text[run:at]))
            field, at = _field(builder, at, end, raw)
            parts.append(field)
            run = at
            continue
        if text[at] == "\\" and not raw:
            at += 2
            continue
        at += 1
    if at > run:
        parts.append(py.FormattedStringText(builder.rng(run, at), None, text[run:at]))
    return parts, at
