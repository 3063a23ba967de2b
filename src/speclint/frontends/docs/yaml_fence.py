"""A ```yaml fence holding a launch: a docker-compose service, a Kubernetes manifest, a CI
workflow or cloud task config that runs SGLang, or an SGLang flag-key map (an srt-slurm/srtctl
recipe with a `sglang_config:` section, or SGLang's own `--config` file): read by the YAML
front-end, with every position moved into the Markdown file.

A doc's YAML is often abridged (`# ... SGLang flags`, `...`): a fence that does not parse is
not reported (it was shown, not meant to be loaded), and a fence whose YAML holds no flag map
yields nothing.
"""

from __future__ import annotations

from dataclasses import replace

from speclint.core.config_files import ConfigFile
from speclint.frontends.moved_spans import map_spans

from .excerpt import OffsetMap

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from speclint.core.spans import Span
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
    for original, launch in zip(found.launches, moved.launches):
        config = original.config_file
        if config is not None:
            launch.config_file = _moved_config(config, mapping.move)
            launch.standalone_config = original.standalone_config
    doc.result.launches.extend(moved.launches)
    doc.result.comments.extend(moved.comments)
    doc.result.diagnostics.extend(d for d in moved.diagnostics if d.kind != "syntax-error")
    return len(moved.launches)


def _moved_config(config: ConfigFile, move: Callable[[Span], Span]) -> ConfigFile:
    """The config file's entries with their spans in the Markdown file (a new object)."""
    entries = [
        replace(
            e,
            key_span=move(e.key_span),
            value_span=move(e.value_span),
            item_spans=tuple(move(s) for s in e.item_spans),
        )
        for e in config.entries
    ]
    return ConfigFile(
        config.path,
        entries,
        config.problem,
        move(config.problem_span) if config.problem_span is not None else None,
    )
