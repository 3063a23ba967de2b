"""String literals for `from_ast`: `ast` makes one constant of `"a" f"b{x}"`; libcst (and
the walker) reads each literal, f-strings part by part (`fstring_parts.split_fstring` splits them)."""

from __future__ import annotations

import ast

from speclint.core import patterns
from speclint.frontends.python import syntax as py

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Protocol

    from speclint.frontends.python.fstring_parts import Field, Part

    class ExpressionBuilder(Protocol):
        """What is used of `from_ast_expressions.ExpressionBuilder` (which imports this)."""

        text: str

        def rng(self, start: int, end: int) -> tuple[int, int, int, int]: ...

        def fwd(self, at: int) -> int: ...

        def nested(self, text: str, at: int) -> ExpressionBuilder: ...

        def expr(self, node: ast.expr, owned: int = -1) -> Any: ...


_START = patterns.compile(r"""(?P<prefix>[A-Za-z]{0,2})(?P<quote>'''|\"\"\"|'|")""")


def literal_end(text: str, at: int, quote: str) -> int:
    """Where the literal whose body starts at `at` ends (after its closing quote): the first
    `quote` not escaped (a backslash escapes the character after it). Searched with `find`,
    not character by character."""
    size = len(text)
    close = text.find(quote, at)  # (searched again only when an escape passed it: linear)
    while at < size:
        escape = text.find("\\", at, close if close >= 0 else size)
        if escape < 0:
            return close + len(quote) if close >= 0 else size
        at = escape + 2
        if 0 <= close < at:
            close = text.find(quote, at)
    return size


def strings(builder: ExpressionBuilder, start: int, end: int) -> Any:
    """The literals written between start and end, right-nested as libcst nests them."""
    text = builder.text
    quote = text[start]
    if quote in "'\"" and text.find(quote, start + 1, end - 1) < 0 and end - start >= 2:
        # one literal with no prefix, its quote nowhere inside (not triple-quoted, no
        # escaped quote, no second literal): the range is the caller's (`expr` sets it)
        return py.SimpleString(None, None, text[start:end])
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
            parts = fstring_parts(builder, at, stop)
            made.append(py.FormattedString(where, None, parts, prefix + quote, quote))
        else:
            made.append(py.SimpleString(where, None, text[at:stop]))
        at = builder.fwd(stop)
    node = made[-1]
    for left in reversed(made[:-1]):
        node = py.ConcatenatedString(left.range[:2] + node.range[2:], None, left, node)
    return node


def fstring_parts(builder: ExpressionBuilder, begin: int, end: int) -> list[Any]:
    """The parts of the f-string literal written between file offsets begin and end
    (prefix and quotes included), split by `split_fstring` (imported here, at the first
    f-string: compiling its patterns takes about 2 ms, which a file without one never pays)."""
    from speclint.frontends.python.fstring_parts import split_fstring

    split = split_fstring(builder.text[begin:end])
    if split is None:  # (CPython read it: never) the caller reads the file with libcst
        raise ValueError(f"f-string not split at {begin}")
    return _parts(builder, split, begin)


def _parts(builder: ExpressionBuilder, split: list[Part], base: int) -> list[Any]:
    """`split`'s parts (offsets from `base`) as the tree's text and field nodes."""
    text = builder.text
    made: list[Any] = []
    for part in split:
        if len(part) == 2:  # a Text (start, end); a Field has seven items
            start, end = part[0] + base, part[1] + base
            made.append(py.FormattedStringText(builder.rng(start, end), None, text[start:end]))
        else:
            made.append(_field(builder, part, base))
    return made


def _field(builder: ExpressionBuilder, field: Field, base: int) -> Any:
    """A `{...}` field: its expression parsed alone (in parentheses, as CPython reads it)."""
    expression_start = field.expression_start + base
    source = builder.text[expression_start : field.expression_end + base]
    tree = ast.parse("(" + source + ")", mode="eval")
    expression = builder.nested(source, expression_start).expr(tree.body)
    spec = None if field.spec is None else _parts(builder, field.spec, base)
    return py.FormattedStringExpression(
        builder.rng(field.start + base, field.end + base), None, expression, field.conversion, spec
    )
