"""Command strings built with `str.format` and `%`: `"python -m sglang.launch_server
--model-path {} --port {}".format(model, port)`, `"... --model-path %s" % (model,)`.

Both follow Python's documented syntax (https://docs.python.org/3/library/string.html#format-string-syntax
and https://docs.python.org/3/library/stdtypes.html#printf-style-string-formatting): the
template's text keeps where each character is written, and each replacement field becomes
its argument's text, placed where the field is written (as an f-string's `{...}` is). A field
whose argument is unknown, or that formats it (a format spec, `!r`, `%5d`, `%r`), is one unknown
run; a template these forms cannot place (an attribute or index in a field, `*args`,
`%(key)s`, a missing argument) makes the whole string unknown, as before.
"""

from __future__ import annotations

import re

from speclint.frontends.python import syntax as py
from speclint.frontends.shell.pieces import Piece

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from speclint.frontends.python.values import Val

    Evaluate = Callable[[py.BaseExpression], Val]

_FORMAT = re.compile(r"\{\{|\}\}|\{([^{}]*)\}|[{}]")
"""A `str.format` template's escaped braces and replacement fields (nested fields match nothing
here: a lone brace left over makes the template one this module does not place)."""
_FIELD = re.compile(r"(?P<name>\d+|[A-Za-z_]\w*)?(?:!(?P<conversion>[rsa]))?(?::(?P<spec>.*))?", re.S)
_PERCENT = re.compile(
    r"%(?P<key>\([^)]*\))?(?P<flags>[#0 +-]*)(?P<width>\*|\d+)?(?:\.(?P<precision>\*|\d*))?[hlL]?(?P<conversion>[diouxXeEfFgGcrsa%])"
)


def _slice(pieces: list[Piece], start: int, stop: int) -> list[Piece]:
    """The template's characters [start, stop) as pieces, each where it is written."""
    out: list[Piece] = []
    at = 0
    for piece in pieces:
        text = piece.text or ""
        low, high = max(start, at), min(stop, at + len(text))
        if low < high:
            part = text[low - at : high - at]
            if piece.exact:
                out.append(
                    Piece(
                        part, piece.begin + low - at, piece.begin + high - at, exact=True, origin=piece.origin
                    )
                )
            else:
                out.append(Piece(part, piece.begin, piece.end, origin=piece.origin))
        at += len(text)
    return out


def _where(pieces: list[Piece], start: int, stop: int) -> tuple[int, int]:
    """The file range of the template's characters [start, stop)."""
    placed = _slice(pieces, start, stop)
    return placed[0].begin, placed[-1].end


def _value(value: Val, begin: int, end: int, formatted: bool) -> Piece:
    """One field's text, written at [begin, end): the argument's text, or an unknown run."""
    text = value.text if value.kind in ("str", "const") else None
    if text is not None and not formatted:
        return Piece(text, begin, end, origin=value.origin)
    if text is None:
        identity = value.word_identity if not formatted else None
        return Piece(None, begin, end, reason=value.why_unknown(), identity=identity)
    return Piece(None, begin, end, reason="the value is formatted when the program runs")


def format_pieces(
    template: list[Piece], positional: list[Val], keywords: dict[str, Val]
) -> list[Piece] | None:
    """`template.format(*positional, **keywords)` as pieces, or None when not placeable."""
    if any(p.text is None for p in template):
        return None
    text = "".join(p.text or "" for p in template)
    out: list[Piece] = []
    done, auto = 0, 0
    for match in _FORMAT.finditer(text):
        out += _slice(template, done, match.start())
        done = match.end()
        token = match.group(0)
        if token in ("{{", "}}"):
            begin, end = _where(template, match.start(), match.end())
            out.append(Piece(token[0], begin, end))
            continue
        field = _FIELD.fullmatch(match.group(1) or "") if match.group(1) is not None else None
        if field is None:
            return None  # a lone brace, an attribute or index: ValueError or a lookup when it runs
        name = field.group("name")
        if name is None:
            name, auto = str(auto), auto + 1
        if name.isdigit():
            if int(name) >= len(positional):
                return None
            value = positional[int(name)]
        elif name in keywords:
            value = keywords[name]
        else:
            return None
        formatted = bool(field.group("spec")) or field.group("conversion") not in (None, "s")
        out.append(_value(value, *_where(template, match.start(), match.end()), formatted))
    return out + _slice(template, done, len(text))


def percent_pieces(template: list[Piece], values: list[Val], single: bool) -> list[Piece] | None:
    """`template % values` as pieces (`single`: the right operand is one value, not a tuple),
    or None when not placeable."""
    if any(p.text is None for p in template):
        return None
    text = "".join(p.text or "" for p in template)
    if "%" in _PERCENT.sub("", text):
        return None  # an incomplete conversion: a ValueError when it runs
    out: list[Piece] = []
    done, index = 0, 0
    for match in _PERCENT.finditer(text):
        out += _slice(template, done, match.start())
        done = match.end()
        begin, end = _where(template, match.start(), match.end())
        conversion = match.group("conversion")
        if conversion == "%" and match.group(0) == "%%":
            out.append(Piece("%", begin, end))
            continue
        if match.group("key") is not None or "*" in (match.group("width") or "") + (
            match.group("precision") or ""
        ):
            return None
        if index >= len(values):
            return None
        value = values[index]
        index += 1
        plain = not match.group("flags") and match.group("width") is None and match.group("precision") is None
        as_text = conversion == "s" or (
            conversion in "diu" and value.kind == "const" and isinstance(value.value, int)
        )
        out.append(_value(value, begin, end, not (plain and as_text)))
    if index != len(values) and not single:
        return None  # "not all arguments converted": a TypeError when it runs
    return out + _slice(template, done, len(text))


def format_call(node: py.Call, evaluate: Evaluate, written: Evaluate | None = None) -> list[Piece] | None:
    """`TEMPLATE.format(...)` (`node.func` is the `.format` attribute) as pieces, or None.
    `written`: a name's template with its text where the assignment writes it (the fields'
    values are placed at the call's arguments)."""
    assert isinstance(node.func, py.Attribute)
    template = (written or evaluate)(node.func.value)
    if template.kind != "str" or any(a.star for a in node.args):
        return None
    positional = [evaluate(a.value) for a in node.args if a.keyword is None]
    keywords = {a.keyword.value: evaluate(a.value) for a in node.args if a.keyword is not None}
    return format_pieces(template.pieces, positional, keywords)


def percent_operation(
    node: py.BinaryOperation, evaluate: Evaluate, written: Evaluate | None = None
) -> list[Piece] | None:
    """`TEMPLATE % VALUES` as pieces, or None (not a string template, or not placeable);
    `written` as for `format_call`."""
    template = (written or evaluate)(node.left)
    if template.kind != "str":
        return None
    items = node.right.elements if isinstance(node.right, py.Tuple) else None
    if items is None:
        return percent_pieces(template.pieces, [evaluate(node.right)], True)
    if any(isinstance(e, py.StarredElement) for e in items):
        return None
    return percent_pieces(template.pieces, [evaluate(e.value) for e in items], False)
