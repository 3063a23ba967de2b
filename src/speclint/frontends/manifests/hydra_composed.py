"""A Hydra config with no launch of its own whose defaults list composes it with a config
group file that holds one (NeMo Evaluator style: the user's `eval.yaml` picks `- deployment:
sglang`, and `deployment/sglang.yaml` beside it holds `command: python3 -m
sglang.launch_server --tp-size ${deployment.tensor_parallel_size} ...`): the group file's
launch string is read as Hydra composes it, each interpolation filled from the composed
config (this file's own keys where it sets them, merged at `_self_`: a finding on such a
value points at it here; else the group files', `hydra_defaults`).

The group file's own words stand at the option that picks it (`sglang` in the defaults list),
noted where the command is written. Only a config group picked by the top-level defaults list
and read from disk beside this file is composed back. A relative interpolation is filled as
OmegaConf fills it, from the mapping that holds the command in the composed config: `${.x}`
that mapping's key, each further `.` one mapping up (`${..x}` in a command under `server:` of
`deployment/sglang.yaml` is `deployment.x`); one that climbs above the config root stays
unknown, said so.
"""

from __future__ import annotations

import dataclasses
import os
import re

import yaml

from speclint.core.spans import Span
from speclint.frontends.manifests.yaml_nodes import get, mapping_pairs
from speclint.frontends.shell.pieces import Piece

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.frontends.manifests.hydra_defaults import Source
    from speclint.frontends.manifests.yaml_nodes import NodeReader

_RELATIVE = re.compile(r"\$\{(\.+)([A-Za-z_][\w-]*(?:\.[\w-]+)*)\}")
"""`${.x}`: a key of the mapping that holds the command; `${..x}` one mapping up, and so on."""


def read_composed_groups(reader: NodeReader, root: yaml.Node) -> None:
    """The launch strings of the config group files this file's defaults list picks, read as
    Hydra composes them with this file (see the module)."""
    listed = get(root, "defaults")
    if not isinstance(root, yaml.MappingNode) or not isinstance(listed, yaml.SequenceNode):
        return
    from speclint.frontends.manifests.hydra_configs import _commands

    if _commands(root):
        return  # (this file's own launch string is read with the composition already)
    options = _picked(listed)
    if not options:
        return
    from speclint.frontends.manifests.hydra_defaults import composed_sources

    sources = composed_sources(root, reader.path)
    for source in sources:
        at = options.get(source.shown)
        if source.own or source.root is None or at is None:
            continue
        for command, parent in _commands(source.root):
            keys = _keys_to(source.root, parent, 0)
            if keys is not None:
                _read(reader, root, sources, source, command, at, keys)


def _keys_to(node: yaml.Node, target: yaml.Node, depth: int) -> list[str] | None:
    """The keys from a group file's root mapping down to the mapping `target` (none for the
    root itself); None where it is not reached through mappings alone (a list item)."""
    if node is target:
        return []
    if depth > 20 or not isinstance(node, yaml.MappingNode):
        return None
    for key, value in mapping_pairs(node):
        if isinstance(key, yaml.ScalarNode) and isinstance(value, yaml.MappingNode):
            below = _keys_to(value, target, depth + 1)
            if below is not None:
                return [str(key.value), *below]
    return None


def _absolute(match: re.Match[str], holder: list[str]) -> str:
    """A relative interpolation written as the absolute path OmegaConf resolves it to, the
    command held at `holder` of the composed config; as written where it climbs above the
    root (OmegaConf fails there; speclint then cannot read it)."""
    up = len(match.group(1)) - 1
    if up > len(holder):
        return match.group()
    return "${" + ".".join([*holder[: len(holder) - up], match.group(2)]) + "}"


def _picked(listed: yaml.SequenceNode) -> dict[str, yaml.ScalarNode]:
    """`group/option.yaml` -> the option's node, for each `group: option` entry of the list."""
    from speclint.frontends.manifests.hydra_defaults import _ENTRY

    found: dict[str, yaml.ScalarNode] = {}
    for entry in listed.value:
        for key, value in mapping_pairs(entry) if isinstance(entry, yaml.MappingNode) else []:
            match = _ENTRY.match(str(getattr(key, "value", "")).strip())
            if match is None or not isinstance(value, yaml.ScalarNode) or "${" in value.value:
                continue
            option = value.value
            shown = f"{match.group(1).lstrip('/')}/{option}"
            found[shown if shown.endswith((".yaml", ".yml")) else shown + ".yaml"] = value
    return found


def _read(
    reader: NodeReader,
    root: yaml.MappingNode,
    sources: list[Source],
    source: Source,
    command: yaml.ScalarNode,
    at: yaml.ScalarNode,
    keys: list[str],
) -> None:
    from speclint.frontends.manifests.hydra_configs import _interpolated, _package, _Tree
    from speclint.frontends.shell.embedded import ShellBuffer

    begin, end = at.start_mark.index, at.end_mark.index
    holder = [*source.package, *keys]
    text = _RELATIVE.sub(lambda m: _absolute(m, holder), command.value)
    tree = _Tree(_package(reader.text, reader.path), sources)
    pieces = _interpolated(reader, root, tree, root, [Piece(text, begin, end)], 0)
    buffer = ShellBuffer(reader.text, reader.starts, reader.budget)
    buffer.add_code(pieces)
    count = len(reader.result.launches)
    buffer.walk(reader.path, reader.result, {}, _image(reader, root, source, at))
    written = Span(
        command.start_mark.line + 1,
        command.start_mark.column + 1,
        command.end_mark.line + 1,
        command.end_mark.column + 1,
        source.full,
    )
    said = f"written in `{source.shown}`, the config group file this config's defaults list composes"
    taken = {p.text: p.origin for p in pieces if p.text and p.origin is not None and p.origin.file}
    here = reader.span(at)
    for launch in reader.result.launches[count:]:
        for index, word in enumerate(launch.args):
            if word.origin is not None or word.span != here or word.text is None:
                continue
            origin = taken.get(word.text)
            if origin is not None and origin.file is not None:  # (a value of a composed file)
                shown = os.path.relpath(origin.file, os.path.dirname(reader.path) or ".").replace(os.sep, "/")
                made_by = (
                    f"value `{word.text}` from `{shown}:{origin.line}`, a config the defaults list composes"
                )
                launch.args[index] = dataclasses.replace(word, origin=origin, made_by=made_by)
            else:
                launch.args[index] = dataclasses.replace(word, origin=written, made_by=said)


def _image(
    reader: NodeReader, root: yaml.MappingNode, source: Source, at: yaml.ScalarNode
) -> tuple[str | None, Span | None] | None:
    """The image the group's launch runs in: this file's `<group>.image` where it sets one
    (said there), else the group file's `image:` (said where that file writes it)."""
    own: yaml.Node | None = root
    for part in source.package:
        own = get(own, part)
    mine = get(own, "image")
    if isinstance(mine, yaml.ScalarNode) and "${" not in mine.value:
        return mine.value, reader.span(mine)
    theirs = get(source.root, "image")
    if isinstance(theirs, yaml.ScalarNode) and "${" not in theirs.value:  # (said where written)
        start, stop = theirs.start_mark, theirs.end_mark
        return theirs.value, Span(
            start.line + 1, start.column + 1, stop.line + 1, stop.column + 1, source.full
        )
    return None
