"""A ```dockerfile fence (READMEs and deployment guides show the image that starts the
server): read by the Dockerfile front-end, with every position moved into the Markdown file.

As for a ```yaml fence, a doc's Dockerfile may be abridged: a syntax error in it is not
reported (it was shown, not built).
"""

from __future__ import annotations

from dataclasses import replace

from speclint.frontends.moved_spans import map_spans

from .excerpt import OffsetMap

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.frontends.shell.pieces import Piece

    from .excerpt import DocFile

DOCKERFILE_TAGS = frozenset({"dockerfile", "docker", "containerfile"})
"""The info strings GitHub's and MkDocs' highlighters take for a Dockerfile."""


def dockerfile_block(doc: DocFile, pieces: list[Piece]) -> int:
    """Launches of one dockerfile fence, added to `doc`; returns how many."""
    from speclint.frontends.manifests.dockerfile import extract_dockerfile

    mapping = OffsetMap(pieces, doc.starts)
    found = extract_dockerfile(mapping.text, doc.path, built=False)
    moved = map_spans(found, mapping.move)
    kept = (  # a line a message names is the fence's: the doc's instead
        replace(
            after,
            message=after.message.replace(f" at line {before.span.line} ", f" at line {after.span.line} "),
        )
        for before, after in zip(found.diagnostics, moved.diagnostics)
        if after.kind != "syntax-error"
    )
    return doc.add_moved(moved, kept)
