"""A ```json fence holding a VS Code debug configuration that starts SGLang (guides on
debugging SGLang show their `.vscode/launch.json`): read by the VS Code launch front-end, with
every position moved into the Markdown file. A fence that is not JSONC, or holds no such
configuration, yields nothing (and its launcher is reported as not read)."""

from __future__ import annotations

from speclint.frontends.moved_spans import map_spans

from .excerpt import OffsetMap

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.frontends.shell.pieces import Piece

    from .excerpt import DocFile

JSON_TAGS = frozenset({"json", "jsonc", "json5"})
"""The info strings docs give a launch.json (VS Code's own language id is `jsonc`)."""


def json_block(doc: DocFile, pieces: list[Piece]) -> int:
    """Launches of one json fence, added to `doc`; returns how many."""
    from speclint.frontends.manifests.vscode_launch import extract_vscode_launch

    mapping = OffsetMap(pieces, doc.starts)
    moved = map_spans(extract_vscode_launch(mapping.text, doc.path), mapping.move)
    return doc.add_moved(moved)
