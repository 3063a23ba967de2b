"""The operand of an unquoted `${X:-...}` / `${X:+...}`: its words split as bash splits them.

bash manual, "Word Splitting": "The shell scans the results of parameter expansion, command
substitution, and arithmetic expansion that did not occur within double quotes for word
splitting", so the plain text of the operand of an unquoted expansion splits at blanks:
`${SPEC_ALGO:+--speculative-algorithm "$SPEC_ALGO"}` is two words, the flag and the value.
Quoted parts (`"a b"`) and escaped blanks (`a\\ b`) do not split. tree-sitter-bash reads such an
operand as one concatenation, the blank between its parts left out of them (or kept inside a
word, `'--flag '`): its parts are taken one by one, the gaps between them kept as text.
"""

from __future__ import annotations

from speclint.core import patterns
from speclint.core.spans import Span
from speclint.core.words import Word

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tree_sitter import Node

    from speclint.frontends.shell.fields import Piece
    from speclint.frontends.shell.text import TextMap

_RUNS = patterns.compile(r"[ \t\n]+|[^ \t\n]+")


def flat_operands(tm: TextMap, operands: list[Node]) -> list[Node]:
    """The operand's parts in order: a concatenation's children (not of a brace expansion,
    `{a,b}`, which the concatenation reads as a whole), else the operand itself."""
    flat: list[Node] = []
    for operand in operands:
        parts = operand.children if operand.type == "concatenation" else []
        brace = any(part.type == "word" and tm.node_text(part) == "{" for part in parts)
        flat.extend(parts if parts and not brace else [operand])
    return flat


def split_unquoted(tm: TextMap, operand: Node, pieces: list[Piece]) -> list[Piece]:
    """The pieces one part of an unquoted operand gave, its plain text made to split: text
    written on one line as it reads (a plain word) as its words, each at its place, else as
    an expansion's result; quoted pieces, and a part with an escape, as they are."""
    if tm.data.find(b"\\", operand.start_byte, operand.end_byte) >= 0:
        return pieces
    exact = tm.node_span(operand) if operand.type == "word" else None
    out: list[Piece] = []
    for piece in pieces:
        if piece[0] != "lit" or piece[2]:
            out.append(piece)
        elif exact is None or exact.line != exact.end_line or piece[1] != tm.node_text(operand):
            out.append(("val", piece[1], False, None, None))
        else:
            out.extend(_written_words(piece[1], exact))
    return out


def _written_words(text: str, span: Span) -> list[Piece]:
    """Text written at `span`: its words, each an element of its own at its place, and the
    blanks between them, which split them."""
    pieces: list[Piece] = []
    for run in _RUNS.finditer(text):
        if run.group()[0] in " \t\n":
            pieces.append(("val", run.group(), False, None, None))
        else:
            at = Span(span.line, span.column + run.start(), span.line, span.column + run.end())
            pieces.append(("arr", (Word(run.group(), at),), False, None, None))
    return pieces
