"""Helm values files whose blocks hold an SGLang server's command.

A chart's `values.yaml` (a file named `values*.yaml` beside a `Chart.yaml`, or in a folder
named `charts`/`chart`/`helm` or `*-chart`/`*-helm`) often holds the container's command as
data: a block (top level, or under a key such as `sglang:`, `server:`, `model:`) with
`command:`/`args:` lists or strings and an `extraArgs:` list, which the chart's templates
splice into a Deployment. When the block's `command`/`args` name the launcher, its words are
read as the launch (command, then args, then extraArgs; a string split into words at
blanks), each word at its YAML position, with the block's `env:`/`extraEnv:` (a Kubernetes
list, or a mapping of names to values; an enclosing block's too) as the environment and the nearest `image:` (the block's, else an enclosing block's; a string, or
`repository`/`tag`, with `registry` when given) picking the SGLang release. speclint does not
render templates, so the launch ends with an unknown word saying that the chart's templates
decide how these values are used (they may add words or leave some out), unless the chart's
templates splice the block's `command` and `args` whole under the container's keys and use
them nowhere else (`helm_splice`): the values' words are then the launch. Other values files
are read as before.
"""

from __future__ import annotations

import os
import re

import yaml

from speclint.frontends.manifests.yaml_nodes import get, mapping_pairs
from speclint.frontends.shell.embedded import ArgvItem, ShellBuffer
from speclint.frontends.shell.pieces import Piece

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.spans import Span
    from speclint.core.words import Word
    from speclint.frontends.manifests.yaml_nodes import NodeReader

_VALUES_NAME = re.compile(r"values(?:[-_.][\w.-]*)?\.ya?ml")
_CHART_FOLDERS = ("charts", "chart", "helm", "helm-chart", "helm-charts")
_ARGV_KEYS = ("command", "args", "extraArgs")
_ENV_KEYS = ("env", "extraEnv")
TEMPLATE_NOTE = (
    "the chart's templates decide how the words of this Helm values file are used and may add "
    "others; speclint does not render templates, so lint what `helm template` renders to check "
    "the whole launch"
)
_MAX_DEPTH = 12
_MAX_BLOCKS = 64


def is_values_file(path: str) -> bool:
    """A chart's values file: named `values*.yaml`, beside a `Chart.yaml` or under a folder
    whose name says it holds a chart."""
    folder, _, name = path.replace("\\", "/").rpartition("/")
    if not _VALUES_NAME.fullmatch(name):
        return False
    parts = folder.split("/") if folder else []
    if any(part in _CHART_FOLDERS or part.endswith(("-chart", "-helm")) for part in parts):
        return True
    if not os.path.isfile(path):
        return False
    from speclint.runner.depends import note

    chart = os.path.join(os.path.dirname(path), "Chart.yaml")
    note(os.path.abspath(chart))
    return os.path.isfile(chart)


def read_values(reader: NodeReader, root: yaml.Node) -> bool:
    """Read `root` when the file is a chart's values file with a block whose command names
    the launcher (the caller then reads the containers it lists, these blocks left out);
    False otherwise (the file is then read as any YAML file)."""
    if "sglang" not in reader.text or not is_values_file(reader.path):
        return False
    blocks: list[tuple[yaml.MappingNode, tuple[yaml.MappingNode, ...]]] = []
    _find_blocks(root, (), blocks, set())
    for block, outer in blocks:
        reader.seen.add(block)  # not read again as a container (`find_containers`)
        _read_block(reader, block, outer)
    return bool(blocks)


def _find_blocks(
    node: yaml.Node,
    outer: tuple[yaml.MappingNode, ...],
    found: list[tuple[yaml.MappingNode, tuple[yaml.MappingNode, ...]]],
    seen: set[yaml.Node],
    depth: int = 0,
) -> None:
    """The blocks naming the launcher, each with the mappings around it; every node visited
    once (an alias is a shared node), MAX_DEPTH levels deep, at most MAX_BLOCKS blocks."""
    if depth > _MAX_DEPTH or len(found) >= _MAX_BLOCKS or node in seen:
        return
    seen.add(node)
    if isinstance(node, yaml.SequenceNode):  # a list of blocks (or of containers)
        for item in node.value:
            _find_blocks(item, outer, found, seen, depth + 1)
    elif isinstance(node, yaml.MappingNode):
        if _names_launcher(node):
            found.append((node, outer))
            return
        for _key, value in mapping_pairs(node):
            _find_blocks(value, (*outer, node), found, seen, depth + 1)


def _names_launcher(block: yaml.MappingNode) -> bool:
    from speclint.frontends.recognise import names_launcher

    for key in ("command", "args"):
        node = get(block, key)
        items = node.value if isinstance(node, yaml.SequenceNode) else [node]
        text = " ".join(item.value for item in items if isinstance(item, yaml.ScalarNode))
        if text and names_launcher(text.encode("utf-8", "surrogatepass")):
            return True
    return False


def _read_block(reader: NodeReader, block: yaml.MappingNode, outer: tuple[yaml.MappingNode, ...]) -> None:
    from speclint.frontends.manifests.compose_env import newlines_as_blanks
    from speclint.frontends.manifests.gpus import k8s_gpu_count

    buffer = ShellBuffer(reader.text, reader.starts, reader.budget)
    keys = [key for key, _ in mapping_pairs(block) if isinstance(key, yaml.ScalarNode)]
    first_key = next(key for key in keys if key.value in _ARGV_KEYS)  # `_names_launcher` found one
    for name in _ARGV_KEYS:
        value = get(block, name)
        if isinstance(value, yaml.ScalarNode) and value.tag == "tag:yaml.org,2002:str":
            buffer.add_space()  # a string: its words, split at blanks
            buffer.add_code(newlines_as_blanks(reader.scalar_pieces(value)))
            buffer.newlines_end_commands = False
        elif isinstance(value, yaml.SequenceNode):
            for item in reader.words(value):
                buffer.add_word(item)
    if not _spliced_whole(reader, block, outer):
        at = first_key.start_mark.index
        buffer.add_word(
            ArgvItem([Piece(None, at, first_key.end_mark.index, reason=TEMPLATE_NOTE)], splat=True)
        )
    env: dict[str, Word] = {}
    for holder in (*outer, block):  # an inner block's `env:` over an outer one's
        for key in _ENV_KEYS:
            env.update(_env(reader, get(holder, key)))
    count = len(reader.result.launches)
    buffer.walk(reader.path, reader.result, env, _image(reader, (*outer, block)))
    gpus = None
    for holder in (block, *reversed(outer)):
        gpus = k8s_gpu_count(reader, holder)
        if gpus is not None:
            break
    for launch in reader.result.launches[count:]:
        launch.gpu_count = gpus
        for name, word in env.items():
            launch.env.setdefault(name, word)


def _spliced_whole(reader: NodeReader, block: yaml.MappingNode, outer: tuple[yaml.MappingNode, ...]) -> bool:
    """Whether the chart's templates use the block's command and args only as whole lists
    spliced under the container's `command:`/`args:` (`helm_splice`)."""
    keys = []
    nodes = (*outer, block)
    for parent, child in zip(nodes, nodes[1:]):
        key = next(
            (k.value for k, v in mapping_pairs(parent) if v is child and isinstance(k, yaml.ScalarNode)), None
        )
        if not isinstance(key, str):
            return False  # (a block in a list: no `.Values` path names it)
        keys.append(key)
    from speclint.frontends.manifests.helm_splice import spliced_whole

    argv = [name for name in _ARGV_KEYS if get(block, name) is not None]
    return spliced_whole(reader.path, keys, argv)


def _env(reader: NodeReader, node: yaml.Node | None) -> dict[str, Word]:
    """An `env:` list in the Kubernetes form (`- name: N` with `value:`/`valueFrom:`), or a
    mapping of names to plain values (which a chart's template turns into that list)."""
    if not isinstance(node, yaml.MappingNode):
        return reader.env_list(node)
    from speclint.core.words import Word

    env = {}
    for key, value in mapping_pairs(node):
        if isinstance(key, yaml.ScalarNode):
            span = reader.span(value)
            if isinstance(value, yaml.ScalarNode):
                env[key.value] = Word(value.value, span, span)
            else:
                env[key.value] = Word(None, span, span, dynamic_reason=f"{key.value} is not a plain value")
    return env


def _image(reader: NodeReader, blocks: tuple[yaml.MappingNode, ...]) -> tuple[str | None, Span | None] | None:
    """The nearest `image:` (innermost block first): `image: NAME:TAG`, or `repository` and
    `tag` (and `registry`), placed at the tag (or the repository when there is no tag); else
    the values' `global.image` (Helm's global values, which every chart of the release sees)."""
    for block in reversed(blocks):
        found = _image_value(reader, get(block, "image"))
        if found is not None:
            return found
    top = get(blocks[0], "global") if blocks else None
    return _image_value(reader, get(top, "image")) if isinstance(top, yaml.MappingNode) else None


def _image_value(reader: NodeReader, image: yaml.Node | None) -> tuple[str | None, Span | None] | None:
    if isinstance(image, yaml.ScalarNode) and image.value:
        return image.value, reader.span(image)
    repository = get(image, "repository") if isinstance(image, yaml.MappingNode) else None
    if not isinstance(repository, yaml.ScalarNode) or not repository.value:
        return None
    assert image is not None
    registry, tag = get(image, "registry"), get(image, "tag")
    name = repository.value
    if isinstance(registry, yaml.ScalarNode) and registry.value:
        name = f"{registry.value}/{name}"
    if isinstance(tag, yaml.ScalarNode) and tag.value:
        return f"{name}:{tag.value}", reader.span(tag)
    return name, reader.span(repository)
