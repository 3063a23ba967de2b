"""The shell buffer a Python argv list (or a doc's words) becomes: every character of it maps
back to the file characters it was written as, so findings point into the Python source."""

from __future__ import annotations

import pytest

from speclint.frontends.shell.embedded import ArgvItem, ShellBuffer
from speclint.frontends.shell.pieces import Piece
from speclint.frontends.shell.text import TextMap

# What the file holds, and the argv items a Python front-end makes of its string literals:
# exact runs (character i at file offset begin + i) and decoded escapes (each character
# standing for the whole escape).
FILE = "x = [\"it's \\\\ `x` $HOME end\", 'tab\\tend', '$A \"q\"', 'plain']\n"


def items() -> list[ArgvItem]:
    def exact(text: str) -> Piece:
        begin = FILE.index(text)
        return Piece(text, begin, begin + len(text), exact=True)

    escape = FILE.index("\\\\")
    tab = FILE.index("\\t")
    return [
        ArgvItem([exact("it's "), Piece("\\", escape, escape + 2), exact(" `x` $HOME end")]),
        ArgvItem([exact("tab"), Piece("\t", tab, tab + 2), Piece("end", tab + 2, tab + 5, exact=True)]),
        ArgvItem([exact('$A "q"')]),
        ArgvItem([exact("plain")]),
    ]


def one_piece_per_character(pieces: list[Piece], single: bool) -> list[tuple[str, int, int]]:
    """The buffer as written before runs were kept whole: one piece per character."""
    quote = "'" if single else '"'
    out = [(quote, pieces[0].begin, pieces[0].begin)]
    for piece in pieces:
        for index, char in enumerate(piece.text or ""):
            begin, end = (
                (piece.begin + index, piece.begin + index + 1) if piece.exact else (piece.begin, piece.end)
            )
            if not single and char in '\\"$`':
                out.append(("\\", begin, end))
            out.append((char, begin, end))
    out.append((quote, pieces[-1].end, pieces[-1].end))
    return out


@pytest.mark.parametrize("index", range(4))
def test_each_buffer_character_maps_to_where_it_is_written(index):
    item = items()[index]
    buffer = ShellBuffer(FILE)
    buffer.add_word(item)
    text = "".join(p.text or "" for p in item.pieces)
    expected = one_piece_per_character(item.pieces, "'" not in text)
    base = TextMap("", buffer.file_starts)
    made, reference = base.derive(buffer.pieces), base.derive(expected)
    assert (made.text, made.starts, made.ends) == (reference.text, reference.starts, reference.ends)
    for at, char in enumerate(made.text):  # an exact character maps to itself in the file
        start, end = made.starts[at], made.ends[at]
        if end == start + 1 and FILE[start] != "\\":
            assert FILE[start] == char or char in "'\"\\"


def test_words_of_one_buffer_are_separated_and_an_empty_literal_stays_a_word():
    """`["plain", "", "$A \"q\""]`: one line of quoted words, a space between two (placed at
    the end of the word before it), the empty literal a pair of quotes at its place."""
    plain, dollar = items()[3], items()[2]
    empty_at = FILE.index("]")  # (any place in the file)
    empty = ArgvItem([Piece("", empty_at, empty_at, exact=True)])
    buffer = ShellBuffer(FILE)
    for item in (plain, empty, dollar):
        buffer.add_word(item)
    expected = one_piece_per_character(plain.pieces, True)
    expected.append((" ", plain.pieces[-1].end, plain.pieces[-1].end))
    expected += [("'", empty_at, empty_at), ("'", empty_at, empty_at)]
    expected.append((" ", empty_at, empty_at))
    expected += one_piece_per_character(dollar.pieces, True)
    base = TextMap("", buffer.file_starts)
    made, reference = base.derive(buffer.pieces), base.derive(expected)
    assert made.text == "'plain' '' '$A \"q\"'"
    assert (made.starts, made.ends) == (reference.starts, reference.ends)
