"""SGLang flag-key maps inside other YAML files, each checked as a launch.

- a YAML file that is SGLang's `--config` file on its own (detected conservatively:
  `sglang_config.looks_like_config`), and a Kubernetes ConfigMap whose `data` holds one:
  merged as SGLang merges `--config`;
- `sglang_config:` sections (srt-slurm / dynamo recipes), per worker mode (`prefill`,
  `decode`, `aggregated`) or flat: srtctl turns each key into a flag itself (`_` becomes
  `-`, `true` a bare flag, `false` and null dropped, lists one word per item) and puts them
  after the flags it writes (model path, host, ports), which this file does not show.
"""

from __future__ import annotations

import yaml

from speclint.core.launches import Launch
from speclint.core.words import Word
from speclint.frontends.manifests.yaml_nodes import Loader, get, mapping_pairs, walk_pairs
from speclint.frontends.recognise import DEFAULT_ENTRY
from speclint.frontends.shell.pieces import span_of

from .sglang_config import config_launch, looks_like_config, read_config

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.spans import Span
    from speclint.frontends.manifests.yaml_nodes import NodeReader

_MODES = ("prefill", "decode", "aggregated", "agg")
MAX_DEPTH = 30


def read_flag_maps(reader: NodeReader, root: yaml.Node) -> bool:
    """Launches for the flag-key maps in one document; True when the document was one."""
    if looks_like_config(root):
        config = read_config(reader.text, reader.path, node=root, move=_identity, other_file=False)
        reader.result.launches.append(config_launch(reader.path, config, reader.span(root)))
        return True
    found = _configmap(reader, root)
    for section, env in _sections(root):
        found = True
        _section(reader, section, env)
    return found


def _identity(span: Span) -> Span:
    return span


def _sections(root: yaml.Node) -> list[tuple[yaml.MappingNode, yaml.Node | None]]:
    """Every mapping under a `sglang_config:` key (per mode, or the section itself), with
    the environment srtctl gives that mode (`prefill_environment:` next to it)."""
    found: list[tuple[yaml.MappingNode, yaml.Node | None]] = []

    def visit(node: yaml.MappingNode, key: yaml.Node, value: yaml.Node) -> bool:
        if not (
            isinstance(key, yaml.ScalarNode)
            and key.value == "sglang_config"
            and isinstance(value, yaml.MappingNode)
        ):
            return True
        modes = [
            (v, get(node, ("aggregated" if k.value == "agg" else k.value) + "_environment"))
            for k, v in value.value
            if isinstance(k, yaml.ScalarNode) and k.value in _MODES and isinstance(v, yaml.MappingNode)
        ]
        found.extend(modes if modes else [(value, None)])
        return False

    walk_pairs(root, visit, MAX_DEPTH)
    found.sort(key=lambda pair: pair[0].start_mark.index)
    return found


def _section(reader: NodeReader, node: yaml.MappingNode, env_node: yaml.Node | None = None) -> None:
    config = read_config(reader.text, reader.path, node=node, move=_identity, other_file=False)
    where = reader.span(node)
    args = [
        Word(
            None,
            where,
            dynamic_reason="the flags srtctl writes before the sglang_config "
            "ones (model path, host, ports, disaggregation mode) are not in this file",
            splat=True,
        )
    ]
    for entry in config.entries:
        flag = Word("--" + entry.key.replace("_", "-"), entry.key_span)
        value = entry.value
        if entry.problem is not None:
            args += [flag, Word(None, entry.value_span, dynamic_reason=entry.problem)]
        elif isinstance(value, bool):
            args += [flag] if value else []
        elif isinstance(value, list):
            spans = entry.item_spans or (entry.value_span,) * len(value)
            args += [flag] + [Word(str(item), span) for item, span in zip(value, spans)]
        elif value is not None:
            args += [flag, Word(str(value), entry.value_span)]
    env: dict[str, Word] = {}
    if isinstance(env_node, yaml.MappingNode):
        for key, value in mapping_pairs(env_node):
            if isinstance(key, yaml.ScalarNode) and isinstance(value, yaml.ScalarNode):
                env[key.value] = Word(value.value, reader.span(value), reader.span(value))
    if len(args) > 1:
        reader.result.launches.append(Launch(reader.path, DEFAULT_ENTRY, where, args, env))


def _configmap(reader: NodeReader, root: yaml.Node) -> bool:
    """`kind: ConfigMap` whose `data` holds an SGLang config file (`config.yaml: |`)."""
    kind = get(root, "kind")
    data = get(root, "data")
    if not (
        isinstance(kind, yaml.ScalarNode) and kind.value == "ConfigMap" and isinstance(data, yaml.MappingNode)
    ):
        return False
    found = False
    for key, value in mapping_pairs(data):
        if not (
            isinstance(key, yaml.ScalarNode)
            and key.value.lower().endswith((".yaml", ".yml"))
            and isinstance(value, yaml.ScalarNode)
        ):
            continue
        pieces = reader.scalar_pieces(value)
        offsets: list[int] = []
        for piece in pieces:
            text = piece.text or ""
            offsets += (
                list(range(piece.begin, piece.begin + len(text)))
                if piece.exact
                else [piece.begin] * len(text)
            )
        inner = value.value
        offsets.append(offsets[-1] + 1 if offsets else value.start_mark.index)
        inner_starts = [0] + [i + 1 for i, c in enumerate(inner) if c == "\n"]

        def move(
            span: Span,
            inner_starts: list[int] = inner_starts,
            offsets: list[int] = offsets,
            size: int = len(inner),
        ) -> Span:
            begin = min(inner_starts[span.line - 1] + span.column - 1, size)
            end = min(inner_starts[span.end_line - 1] + span.end_column - 1, size)
            return span_of(
                reader.starts, offsets[begin], max(offsets[max(end - 1, begin)] + 1, offsets[begin] + 1)
            )

        try:
            node = yaml.compose(inner, Loader=Loader)
        except (yaml.YAMLError, RecursionError):
            continue
        if not looks_like_config(node):
            continue
        config = read_config(inner, f"{reader.path} ({key.value})", node=node, move=move, other_file=False)
        config.path = key.value
        reader.result.launches.append(config_launch(key.value, config, reader.span(key)))
        reader.result.launches[-1].path = reader.path
        found = True
    return found
