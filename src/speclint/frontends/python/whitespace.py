"""Whitespace a Python program takes off a command string before running it: `s.strip()`,
`s.lstrip()`, `s.rstrip()` (no argument: `str.isspace` characters at the ends) and
`textwrap.dedent(s)` (the margin common to the lines that are not blank taken off each, lines
of only spaces and tabs emptied: CPython's textwrap.py). The characters left keep the places
they are written at; an unknown run (an f-string field) is kept and stops a strip there (its
text, spaces included, is only known when the program runs)."""

from __future__ import annotations

from dataclasses import replace

from speclint.frontends.python import syntax as py

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from speclint.frontends.python.values import Val
    from speclint.frontends.shell.pieces import Piece

_UNKNOWN = "\0"
"""Stands for an unknown run in the text the positions are counted in."""


def _text(pieces: list[Piece]) -> str:
    return "".join(_UNKNOWN if piece.text is None else piece.text for piece in pieces)


def _without(pieces: list[Piece], dropped: set[int]) -> list[Piece]:
    """The pieces with the characters at `dropped` (indices into `_text(pieces)`) taken out."""
    out: list[Piece] = []
    at = 0
    for piece in pieces:
        if piece.text is None:
            out.append(piece)
            at += 1
            continue
        kept = [i for i in range(len(piece.text)) if at + i not in dropped]
        at += len(piece.text)
        if len(kept) == len(piece.text):
            out.append(piece)
        elif kept and piece.exact:  # each run of kept characters where it is written
            start = previous = kept[0]
            for i in [*kept[1:], None]:
                if i is not None and i == previous + 1:
                    previous = i
                    continue
                out.append(
                    replace(
                        piece,
                        text=piece.text[start : previous + 1],
                        begin=piece.begin + start,
                        end=piece.begin + previous + 1,
                    )
                )
                if i is not None:
                    start = previous = i
        elif kept:
            out.append(replace(piece, text="".join(piece.text[i] for i in kept)))
    return out


def stripped(pieces: list[Piece], method: str) -> list[Piece]:
    """`strip`, `lstrip` or `rstrip` without an argument."""
    text = _text(pieces)
    dropped: set[int] = set()
    if method in ("strip", "lstrip"):
        end = len(text) - len(text.lstrip())
        dropped.update(i for i in range(end) if text[i] != _UNKNOWN)
    if method in ("strip", "rstrip"):
        start = len(text.rstrip())
        dropped.update(range(start, len(text)))
    return _without(pieces, dropped)


def dedented(pieces: list[Piece]) -> list[Piece]:
    """`textwrap.dedent`: lines of only spaces and tabs emptied, then the longest leading run of
    spaces and tabs every other line starts with taken off each."""
    text = _text(pieces)
    dropped: set[int] = set()
    lines: list[tuple[int, str]] = []
    at = 0
    for line in text.split("\n"):
        lines.append((at, line))
        at += len(line) + 1
    margin: str | None = None
    for start, line in lines:
        if line and line.strip(" \t") == "":
            dropped.update(range(start, start + len(line)))
            continue
        if not line:
            continue
        indent = line[: len(line) - len(line.lstrip(" \t"))]
        if margin is None or indent.startswith(margin):
            margin = indent if margin is None else margin
        elif margin.startswith(indent):
            margin = indent
        else:  # neither is a prefix of the other: the common part
            common = 0
            while common < min(len(margin), len(indent)) and margin[common] == indent[common]:
                common += 1
            margin = margin[:common]
    if margin:
        for start, line in lines:
            if line.strip(" \t"):
                dropped.update(range(start, start + len(margin)))
    return _without(pieces, dropped)


def whitespace_call(
    evaluate: Callable[[py.BaseExpression], Val], node: py.Call, name: str
) -> list[Piece] | None:
    """The pieces of `s.strip()` (`lstrip`, `rstrip`) or `textwrap.dedent(s)` when `s` is a
    string (`name`: the called name, dotted); None for any other call."""
    func = node.func
    if isinstance(func, py.Attribute) and func.attr.value in ("strip", "lstrip", "rstrip") and not node.args:
        inner = evaluate(func.value)
        return stripped(inner.pieces, func.attr.value) if inner.kind == "str" else None
    if (
        name in ("textwrap.dedent", "dedent")
        and len(node.args) == 1
        and not (node.args[0].keyword or node.args[0].star)
    ):
        inner = evaluate(node.args[0].value)
        return dedented(inner.pieces) if inner.kind == "str" else None
    return None
