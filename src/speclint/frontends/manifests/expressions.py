"""Template expressions a tool fills in before a command runs (GitHub Actions' `${{ ... }}`,
Ansible's Jinja `{{ ... }}` and `{% ... %}`): speclint cannot know them, so each becomes an
unknown value, placed where it is written."""

from __future__ import annotations

import yaml

from speclint.core.words import Word
from speclint.frontends.manifests.yaml_nodes import mapping_pairs
from speclint.frontends.shell.pieces import Piece

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from speclint.core.spans import Span


def expressions_unknown(
    pieces: list[Piece],
    delimiters: tuple[tuple[str, str], ...],
    describe: Callable[[str], str],
    known: Callable[[str], str | None] | None = None,
) -> list[Piece]:
    """`pieces` with every expression between one of the (opener, closer) `delimiters` made an
    unknown piece (`describe(expression)`: why), or the text `known(expression)` gives it
    (placed over the whole expression) when it gives one."""
    out: list[Piece] = []
    for piece in pieces:
        text = piece.text
        if text is None or not any(opener in text for opener, _ in delimiters):
            out.append(piece)
            continue
        at = 0
        while True:  # found with find(), not a regex: an opener without a closer stays linear
            found = [(text.find(opener, at), opener, closer) for opener, closer in delimiters]
            found = [entry for entry in found if entry[0] != -1]
            if not found:
                break
            start, opener, closer = min(found)
            close = text.find(closer, start + len(opener))
            stop = len(text) if close == -1 else close + len(closer)
            if start > at:
                out.append(_part(piece, text, at, start))
            begin, end = (
                (piece.begin + start, piece.begin + stop) if piece.exact else (piece.begin, piece.end)
            )
            shown = text[start:stop] if stop - start <= 80 else text[start : start + 77] + "..."
            value = known(text[start:stop]) if known is not None and close != -1 else None
            if value is not None:
                out.append(Piece(value, begin, end))
            else:
                out.append(Piece(None, begin, end, reason=describe(shown)))
            at = stop
        if at < len(text):
            out.append(_part(piece, text, at, len(text)))
    return out


def _part(piece: Piece, text: str, begin: int, end: int) -> Piece:
    """text[begin:end] of a piece whose text is `text`."""
    if piece.exact:
        return Piece(text[begin:end], piece.begin + begin, piece.begin + end, exact=True)
    return Piece(text[begin:end], piece.begin, piece.end)


def mapping_env(
    span_of: Callable[[yaml.Node], Span],
    node: yaml.Node | None,
    outer: dict[str, Word],
    openers: tuple[str, ...],
    why: Callable[[str], str],
) -> dict[str, Word]:
    """A YAML mapping of environment variables over `outer`: a value holding one of the
    tool's template `openers` (or not a string) is unknown, `why(name)` saying so; `span_of`
    places a node in the file."""
    env = dict(outer)
    if not isinstance(node, yaml.MappingNode):
        return env
    for key, value in mapping_pairs(node):
        if not isinstance(key, yaml.ScalarNode):
            continue
        span = span_of(value)
        if isinstance(value, yaml.ScalarNode) and not any(opener in value.value for opener in openers):
            env[key.value] = Word(value.value, span, span)
        else:
            env[key.value] = Word(None, span, span, dynamic_reason=why(key.value))
    return env
