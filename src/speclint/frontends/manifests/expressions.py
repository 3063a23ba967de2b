"""Template expressions a tool fills in before a command runs (GitHub Actions' `${{ ... }}`,
Ansible's Jinja `{{ ... }}` and `{% ... %}`): speclint cannot know them, so each becomes an
unknown value, placed where it is written."""

from __future__ import annotations

from speclint.frontends.shell.embedded import Piece

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable


def expressions_unknown(
    pieces: list[Piece], delimiters: tuple[tuple[str, str], ...], describe: Callable[[str], str]
) -> list[Piece]:
    """`pieces` with every expression between one of the (opener, closer) `delimiters` made an
    unknown piece (`describe(expression)`: why)."""
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
