"""The cheap paths of `expand`: a plain word's text and span straight from tree-sitter, the
size bound on an expanded value, and where a value written in place stands in the file."""

from __future__ import annotations

from speclint.core.spans import Span
from speclint.core.words import Word
from speclint.frontends.shell.variables import MAX_ELEMENTS, MAX_VALUE_CHARS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from tree_sitter import Node

    from speclint.frontends.shell.fields import Piece
    from speclint.frontends.shell.text import TextMap

_NEEDS_EXPANSION = frozenset("\\*?[{~")
"""What a word needs expanded for (a set test of the word's characters: a regex search costs
more to start than a word has characters)."""
TOO_BIG = f"expands to more than {MAX_VALUE_CHARS // 1024} KiB or {MAX_ELEMENTS} words; not tracked"


def written(tm: TextMap, node: Node, text: str, quote: int) -> Span | None:
    """Where `text`, a value written character for character in `node` (after `quote`
    characters), stands in the file, when it holds words to split: only on one line, in ASCII."""
    if " " not in text or node.end_byte - node.start_byte != len(text) + 2 * quote or not text.isascii():
        return None  # (one word: it points where it is used; escapes or expansions: not as written)
    span = tm.node_span(node)
    if span.line != span.end_line or span.end_column - span.column != len(text) + 2 * quote:
        return None
    return Span(span.line, span.column + quote, span.line, span.end_column - quote)


def too_big(pieces: list[Piece]) -> bool:
    """Whether the expanded text would pass the bound (checked before anything is joined)."""
    chars = words = 0
    for piece in pieces:
        if piece[0] in ("lit", "val"):
            chars += len(piece[1])
        elif piece[0] == "arr":
            words += len(piece[1])
            chars += sum(len(w.text or "") for w in piece[1])
    return chars > MAX_VALUE_CHARS or words > MAX_ELEMENTS


def plain_words(tm: TextMap, nodes: Sequence[Node]) -> list[Word | str]:
    """For each node, the word it is when it is a plain word (a `word` or `number` node with
    nothing to expand, of an ASCII file: its text as written, its span from tree-sitter's start
    point and its length),
    else its kind (`node.type`, read once): what `Expander.words` would make of a plain one,
    without its call, list and `Arg`. One call for a command's (an array's) nodes: a call per
    word was the cost this saves."""
    if not tm.plain:
        return [node.type for node in nodes]
    text, plain = tm.text, _NEEDS_EXPANSION.isdisjoint
    found: list[Word | str] = []
    for node in nodes:
        kind = node.type
        if kind == "word" or kind == "number":
            word_text = text[node.start_byte : node.end_byte]  # (ASCII: byte offsets are text offsets)
            if plain(word_text):  # (no `\`: no line continued inside, so on one line)
                row, column = node.start_point
                span = Span(row + 1, column + 1, row + 1, column + 1 + len(word_text))
                found.append(Word(word_text, span))
                continue
        found.append(kind)
    return found


def after_target(redirect: Node) -> list[Node]:
    """The words tree-sitter-bash puts in a redirection after its target (`> server.log
    --port 1`): bash takes only the first word as the file; the others are the command's
    arguments, in order (`cmd a > f b` runs `cmd a b`)."""
    if redirect.named_child_count < 2:  # (most: `> server.log`, the target alone)
        return []
    named = [c for c in redirect.named_children if c.type not in ("file_descriptor", "comment")]
    return named[1:]
