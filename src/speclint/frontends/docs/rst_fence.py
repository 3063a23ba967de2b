"""MyST's ```{eval-rst} fence in a Markdown page (Sphinx docs written in MyST, SGLang's own
among them): its content is reStructuredText, read as an .rst file is (`.. code-block:: bash`,
`::` blocks, ...), with every position moved into the Markdown file."""

from __future__ import annotations

from speclint.frontends.moved_spans import map_spans

from .excerpt import OffsetMap

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .excerpt import DocFile

RST_TAGS = frozenset({"eval-rst", "eval_rst"})
"""MyST's `{eval-rst}` directive (recommonmark's `eval_rst` before it)."""


def rst_block(doc: DocFile, lines: list[tuple[int, str]]) -> int:
    """Launches of one `{eval-rst}` fence (its lines, at their file offsets), added to `doc`;
    returns how many."""
    from speclint.frontends.shell.pieces import Piece

    from .rst import extract_rst

    pieces: list[Piece] = []
    for offset, line in lines:
        if line:
            pieces.append(Piece(line, offset, offset + len(line), True))
        pieces.append(Piece("\n", offset + len(line), offset + len(line)))
    mapping = OffsetMap(pieces, doc.starts)
    moved = map_spans(extract_rst(mapping.text, doc.path), mapping.move)
    return doc.add_moved(moved)
