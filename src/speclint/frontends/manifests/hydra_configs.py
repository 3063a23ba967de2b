"""Hydra/OmegaConf configs whose string keys start SGLang: a NeMo-style config group file
(`deployment/sglang.yaml`) with `command: python3 -m sglang.launch_server --port
${deployment.port} ...` beside `port: 8000`.

OmegaConf (its "Variable interpolation" docs) fills `${a.b}` with the value at that path from the
config's root before the string is used, `${.b}` from the node's own mapping (`..` one up), and
`${name:args}` by calling a resolver; Hydra puts a config group's file under its group's path
(`deployment/sglang.yaml` is `deployment`, unless a `# @package` line says otherwise). An
interpolation is read where the value it names is written in this file (its text, at its place
there), or in a config this file's defaults list composes with it, read from disk beside it
(`hydra_defaults`: the value's text at the interpolation), and is unknown, at its position,
where the value is a resolver's (`oc.env` said as the variable it reads), `???` (one Hydra must
be given) or in no file read (composed from other configs or the command line). The command
is then read as shell code, with the `image:` beside it.
"""

from __future__ import annotations

import re

import yaml

from speclint.core.records import dataclass
from speclint.frontends.manifests.yaml_nodes import get, mapping_pairs, walk_pairs
from speclint.frontends.recognise import LAUNCH_TEXT
from speclint.frontends.shell.pieces import Piece

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from speclint.core.launches import Launch
    from speclint.core.spans import Span
    from speclint.frontends.manifests.hydra_defaults import Source
    from speclint.frontends.manifests.yaml_nodes import NodeReader

_OMEGACONF = re.compile(r"\$\{(?:\.*[A-Za-z_][\w-]*(?:\.[\w-]+)+|\.+[\w-]+|[A-Za-z_][\w.]*:(?![-=+?\d\s]))")
"""An interpolation only OmegaConf writes: a dotted or relative path, or a resolver call (a shell
`${NAME}` has no dot, and its `${NAME:-x}` operators are not resolvers)."""
_PACKAGE = re.compile(r"#\s*@package\s+(\S+)")
_MAX_DEPTH = 8


@dataclass
class _Tree:
    """The config tree the file is read in: the package its keys go under, and the configs its
    defaults list composes with it (`hydra_defaults`)."""

    package: list[str]
    sources: list[Source]
    taken: dict[tuple[int, int], tuple[Span, str]] | None = None
    """Each interpolation (its file offsets) filled with a value written in another file of
    the composition: where that value is written, and its text."""


def read_hydra_config(reader: NodeReader, root: yaml.Node) -> bool:
    """Read each string that names the launcher and holds an OmegaConf interpolation; False
    when there is none."""
    if "${" not in reader.text:
        return False
    found = _commands(root)
    if not found:
        return False
    from speclint.frontends.manifests.ci_jobs import _image, _walk

    tree = _Tree(_package(reader.text, reader.path), [])
    if "defaults" in reader.text:
        from speclint.frontends.manifests.hydra_defaults import composed_sources

        tree.sources = composed_sources(root, reader.path)
    for command, parent in found:
        image = _image(get(parent, "image")) or _image(get(root, "image"))

        def fill(pieces: list[Piece], parent: yaml.MappingNode = parent) -> list[Piece]:
            return _interpolated(reader, root, tree, parent, pieces, 0)

        count = len(reader.result.launches)
        _walk(reader, [command], {}, image, azure=False, fill=fill)
        if tree.taken:
            _say_taken(reader, tree.taken, reader.result.launches[count:])
    return True


def _say_taken(
    reader: NodeReader, taken: dict[tuple[int, int], tuple[Span, str]], launches: list[Launch]
) -> None:
    """Each word holding an interpolation filled from another file: where the value came from
    (`Word.origin`, said in the notes of the findings about the word)."""
    import dataclasses
    import os

    from speclint.frontends.shell.pieces import span_of

    folder = os.path.dirname(reader.path) or "."
    at = [(span_of(reader.starts, begin, end), origin) for (begin, end), origin in taken.items()]
    # (the first interpolation in a word that holds several)
    for launch in launches:
        for index, word in enumerate(launch.args):
            if word.origin is not None or word.text is None:
                continue
            found = next((found for span, found in at if word.span.contains(span)), None)
            if found is None or found[0].file is None:
                continue
            origin, value = found
            shown = os.path.relpath(found[0].file, folder).replace(os.sep, "/")
            said = f"value `{value}` from `{shown}:{origin.line}`, a config the defaults list composes"
            launch.args[index] = dataclasses.replace(word, origin=origin, made_by=said)


def _commands(root: yaml.Node) -> list[tuple[yaml.ScalarNode, yaml.MappingNode]]:
    """Each string value that holds an OmegaConf interpolation and names the launcher, with the
    mapping it is in (Kubernetes container lists are the container search's)."""
    found: list[tuple[yaml.ScalarNode, yaml.MappingNode]] = []

    def visit(mapping: yaml.MappingNode, key: yaml.Node, value: yaml.Node) -> bool:
        if (
            isinstance(value, yaml.ScalarNode)
            and value.tag == "tag:yaml.org,2002:str"
            and _OMEGACONF.search(value.value)
            and LAUNCH_TEXT.search(value.value)
        ):
            found.append((value, mapping))
            return False
        return not (isinstance(key, yaml.ScalarNode) and key.value in ("containers", "initContainers"))

    walk_pairs(root, visit, _MAX_DEPTH)
    return found


def _package(text: str, path: str) -> list[str]:
    """The path Hydra puts this file's keys under: a `# @package` line's, else the folders
    the file is in (its config group; which of them is the config root is not known here, so
    any trailing run of them is tried)."""
    for line in text.splitlines()[:20]:
        match = _PACKAGE.match(line.strip())
        if match:
            name = match.group(1)
            return [] if name in ("_global_", "_here_") else name.split(".")
        if line.strip() and not line.lstrip().startswith("#"):
            break
    parts = path.replace("\\", "/").split("/")[:-1]
    return [part for part in parts if part not in ("", ".")]


def _interpolated(
    reader: NodeReader,
    root: yaml.Node,
    tree: _Tree,
    parent: yaml.MappingNode,
    pieces: list[Piece],
    depth: int,
) -> list[Piece]:
    """`pieces` with each `${...}` replaced by the pieces of the value it names, where that is
    written, or an unknown piece saying why."""
    from speclint.frontends.manifests.expressions import _part

    out: list[Piece] = []
    for piece in pieces:
        text = piece.text
        if text is None or "${" not in text:
            out.append(piece)
            continue
        at = 0
        while True:
            start = text.find("${", at)
            close = _closing(text, start) if start >= 0 else -1
            if close < 0:
                break
            if start > at:
                out.append(_part(piece, text, at, start))
            whole = _part(piece, text, start, close + 1)
            out.extend(_value(reader, root, tree, parent, text[start : close + 1], whole, depth))
            at = close + 1
        if at < len(text):
            out.append(_part(piece, text, at, len(text)))
    return out


def _closing(text: str, start: int) -> int:
    """The `}` that closes the `${` at `start` (nested `${...}` inside counted), or -1."""
    level = 0
    index = start
    while index < len(text):
        if text.startswith("${", index):
            level += 1
            index += 2
            continue
        if text[index] == "}":
            level -= 1
            if level == 0:
                return index
        index += 1
    return -1


def _value(
    reader: NodeReader,
    root: yaml.Node,
    tree: _Tree,
    parent: yaml.MappingNode,
    written: str,
    whole: Piece,
    depth: int,
) -> list[Piece]:
    inner = written[2:-1].strip()
    shown = written if len(written) <= 60 else written[:57] + "..."
    if ":" in inner or "${" in inner:  # (a path has no `:`)
        return [_unknown(whole, _resolver(shown, inner))]
    if tree.sources and not inner.startswith("."):
        from speclint.frontends.manifests.hydra_defaults import composed_value

        composed = composed_value(tree.sources, inner, shown, whole, _own(root, tree.package, parent))
        if composed is not None:
            for piece in composed:
                if piece.text is not None and piece.origin is not None and piece.origin.file is not None:
                    tree.taken = tree.taken or {}
                    tree.taken[(whole.begin, whole.end)] = (piece.origin, piece.text)
            return composed
    node = _lookup(root, tree.package, parent, inner)
    if not isinstance(node, yaml.ScalarNode) or node.tag == "tag:yaml.org,2002:null":
        why = (
            f"`{shown}` names a value that is not set in this file (Hydra composes it from other "
            "config files or the command line)"
        )
        return [_unknown(whole, why)]
    if node.value == "???":
        at = reader.span(node)
        why = f"`{shown}` is `???` here (line {at.line}): a value Hydra must be given from another config or the command line"
        return [_unknown(whole, why)]
    value = reader.scalar_pieces(node)
    if depth < _MAX_DEPTH and any(p.text is not None and "${" in p.text for p in value):
        owner = _owner(root, node, set())
        value = _interpolated(reader, root, tree, owner or parent, value, depth + 1)
    return value


def _own(root: yaml.Node, package: list[str], parent: yaml.MappingNode) -> Callable[[str], yaml.Node | None]:
    return lambda path: _lookup(root, package, parent, path)


def _resolver(shown: str, inner: str) -> str:
    """Why a resolver's value is unknown; `oc.env` said as the variable it reads."""
    name = inner.split(":")[0].strip()
    if name == "oc.env":
        variable, _, default = inner.partition(":")[2].partition(",")
        fallback = f", `{default.strip()}` when it is unset" if default.strip() else ""
        return (
            f"`{shown}` is the environment variable `{variable.strip()}` of the process that loads the "
            f"config{fallback}"
        )
    if name == "oc.select":
        key, _, default = inner.partition(":")[2].partition(",")
        fallback = f", `{default.strip()}` where it is unset" if default.strip() else ""
        return (
            f"`{shown}` is the value at `{key.strip()}` of the config Hydra composes (from this file, "
            f"other configs or the command line){fallback}"
        )
    return f"`{shown}` calls the OmegaConf resolver `{name}` when the config is loaded"


def _unknown(whole: Piece, why: str) -> Piece:
    return Piece(None, whole.begin, whole.end, reason=why)


def _lookup(root: yaml.Node, package: list[str], parent: yaml.MappingNode, path: str) -> yaml.Node | None:
    """The node `path` names: relative (`.b`, `..b`) from `parent`, else from the root, with a
    leading run of the package's trailing folders dropped."""
    if path.startswith("."):
        dots = len(path) - len(path.lstrip("."))
        base: yaml.Node | None = parent
        for _ in range(dots - 1):  # (`..b`: from the mapping that holds this one)
            base = _owner(root, base, set()) if base is not None else None
        return _walk_path(base, path[dots:].split(".")) if base is not None else None
    parts = path.split(".")
    found = _walk_path(root, parts)
    if found is not None:
        return found
    for count in range(min(len(package), len(parts) - 1), 0, -1):
        if parts[:count] == package[-count:]:
            found = _walk_path(root, parts[count:])
            if found is not None:
                return found
    return None


def _walk_path(node: yaml.Node | None, parts: list[str]) -> yaml.Node | None:
    for part in parts:
        if isinstance(node, yaml.SequenceNode) and part.isdigit() and int(part) < len(node.value):
            node = node.value[int(part)]
        else:
            node = get(node, part)
        if node is None:
            return None
    return node


def _owner(
    node: yaml.Node, target: yaml.Node, seen: set[yaml.Node], depth: int = 0
) -> yaml.MappingNode | None:
    """The mapping that holds `target` as a value."""
    if depth > _MAX_DEPTH or node in seen:
        return None
    seen.add(node)
    if isinstance(node, yaml.MappingNode):
        for _, value in mapping_pairs(node):
            if value is target:
                return node
            found = _owner(value, target, seen, depth + 1)
            if found is not None:
                return found
    elif isinstance(node, yaml.SequenceNode):
        for item in node.value:
            found = _owner(item, target, seen, depth + 1)
            if found is not None:
                return found
    return None
