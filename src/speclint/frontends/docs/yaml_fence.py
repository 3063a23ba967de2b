"""A ```yaml fence holding a launch: a docker-compose service, a Kubernetes manifest, a CI
workflow or cloud task config that runs SGLang, or an SGLang flag-key map (an srt-slurm/srtctl
recipe with a `sglang_config:` section, or SGLang's own `--config` file): read by the YAML
front-end, with every position moved into the Markdown file.

A doc's YAML is often abridged (`# ... SGLang flags`, `...`): a fence that does not parse is
not reported (it was shown, not meant to be loaded), and a fence whose YAML holds no flag map
yields nothing.
"""

from __future__ import annotations

from speclint.frontends.moved_spans import map_spans

from .excerpt import OffsetMap

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.frontends.shell.pieces import Piece

    from .excerpt import DocFile

YAML_TAGS = frozenset({"yaml", "yml", "docker-compose", "compose"})
"""`docker-compose`: a tag docs give a compose file (highlighted as YAML)."""


def worth_reading(text: str) -> bool:
    """Cheap test before PyYAML is loaded: the fence names SGLang, its flag maps or flags."""
    return "sglang" in text or "speculative" in text


def yaml_block(doc: DocFile, pieces: list[Piece]) -> int:
    """Launches of one yaml fence, added to `doc`; returns how many."""
    from speclint.frontends.manifests.yaml_manifest import extract_yaml

    mapping = OffsetMap(pieces, doc.starts)
    found = extract_yaml(mapping.text, doc.path)
    moved = map_spans(found, mapping.move)
    return doc.add_moved(moved, (d for d in moved.diagnostics if d.kind != "syntax-error"))
