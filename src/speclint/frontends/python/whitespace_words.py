"""Text split at whitespace as Python's `str.split()` splits it (SGLang's
`execute_shell_command` after its `replace`s: `split_text`; a program's `cmd.split()`:
`call_values`), each word's characters kept at their file positions."""

from __future__ import annotations

from speclint.frontends.shell.pieces import Piece

_Cell = tuple[str | None, int, int, Piece | None]
"""(character, file begin, file end, the unknown piece it stands for)."""


def _cells(pieces: list[Piece]) -> list[_Cell]:
    cells: list[_Cell] = []
    for piece in pieces:
        if piece.text is None:
            cells.append((None, piece.begin, piece.end, piece))
        elif piece.exact:
            cells += [(c, piece.begin + i, piece.begin + i + 1, None) for i, c in enumerate(piece.text)]
        else:
            cells += [(c, piece.begin, piece.end, None) for c in piece.text]
    return cells


def _replaced(cells: list[_Cell], old: str, new: str) -> list[_Cell]:
    """`str.replace(old, new)` over the known characters (an unknown run matches nothing);
    the new characters stand where the old ones were written."""
    out: list[_Cell] = []
    i = 0
    while i < len(cells):
        run = cells[i : i + len(old)]
        if (
            len(run) == len(old)
            and all(c[0] is not None for c in run)
            and "".join(c[0] or "" for c in run) == old
        ):
            out += [(ch, run[0][1], run[-1][2], None) for ch in new]
            i += len(old)
        else:
            out.append(cells[i])
            i += 1
    return out


def _word_pieces(cells: list[_Cell]) -> list[Piece]:
    pieces: list[Piece] = []
    for char, begin, end, unknown in cells:
        last = pieces[-1] if pieces else None
        if unknown is not None:
            pieces.append(unknown)
        elif char is None:
            continue
        elif (
            last is not None
            and last.exact
            and last.text is not None
            and end == begin + 1
            and last.end == begin
        ):
            pieces[-1] = Piece(last.text + char, last.begin, end, exact=True)
        else:
            pieces.append(Piece(char, begin, end, exact=end == begin + 1))
    return pieces


def split_words(pieces: list[Piece], replace: tuple[tuple[str, str], ...]) -> list[list[Piece]]:
    """The words `text.replace(...)...split()` makes, each as pieces at its file position;
    an unknown run is part of the word it is written in (`--tp={tp}`: read as one word)."""
    cells = _cells(pieces)
    for old, new in replace:
        cells = _replaced(cells, old, new)
    words: list[list[Piece]] = []
    current: list[_Cell] = []
    for cell in cells:
        if cell[0] is not None and cell[0].isspace():
            if current:
                words.append(_word_pieces(current))
            current = []
        else:
            current.append(cell)
    if current:
        words.append(_word_pieces(current))
    return words
