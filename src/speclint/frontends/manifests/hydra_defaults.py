"""The configs a Hydra config's defaults list composes with it, read from disk next to it.

Hydra (`hydra/_internal/defaults_list.py`, `hydra/core/default_element.py`) composes a config
from the entries of its `defaults:` list in order, later ones overriding earlier ones, the
config's own keys where `_self_` stands (at the end when it is not listed). An entry
`group: option` (also `/group`, `optional group`, `override group`, `group@package`) loads
`group/option.yaml` from the folder the config is in, under the package `group` (`/` read as
`.`) unless the entry names one (`@package`) or the loaded file's `# @package` header does (an
absolute package; `_global_` is the root); a plain `name` entry loads `name.yaml` into the
config's own package. `option: null` loads nothing; `???` must be given on the command line.
Only the linted file's own list is read (one level, not the lists of the files it loads), each
file noted as a dependency of the result; a value an interpolation names is looked up from the
entry that composes last down, and one that would come from an entry speclint cannot read (not
on disk, not YAML, an option left to the command line) is unknown, with the reason.
"""

from __future__ import annotations

import os
import re

import yaml

from speclint.core.records import dataclass
from speclint.core.spans import Span
from speclint.frontends.manifests.yaml_nodes import get, mapping_pairs
from speclint.frontends.shell.pieces import Piece

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

_PACKAGE = re.compile(r"#\s*@package\s+(\S+)")
_MAX_ENTRIES = 64
"""Defaults list entries read at most (a hostile list does not make speclint read every file)."""
_ENTRY = re.compile(r"^(?:(?:optional|override)\s+)*(/?[\w./-]+?)(?:@([\w.]+))?$")


@dataclass
class Source:
    """One config of the composition: its YAML root (None: the linted file itself, or a file
    that could not be read, `why`), the package its keys go under, its path as written."""

    root: yaml.Node | None
    package: list[str]
    shown: str
    why: str | None = None
    own: bool = False
    full: str | None = None


def composed_sources(root: yaml.Node, path: str) -> list[Source]:
    """The configs the linted file's defaults list composes, in Hydra's merge order (the file
    itself, `own`, at `_self_`); [] when it has no defaults list."""
    listed = get(root, "defaults")
    if not isinstance(listed, yaml.SequenceNode):
        return []
    folder = os.path.dirname(os.path.abspath(path)) if os.path.isfile(path) else None
    sources: list[Source] = []
    has_self = False
    for entry in listed.value[:_MAX_ENTRIES]:
        if isinstance(entry, yaml.ScalarNode):
            if entry.value == "_self_":
                sources.append(Source(None, [], path, own=True))
                has_self = True
            elif entry.value:
                sources.append(_load(folder, entry.value, None, [], None))
        elif isinstance(entry, yaml.MappingNode):
            for key, value in mapping_pairs(entry):
                if isinstance(key, yaml.ScalarNode):
                    sources.extend(_group(folder, key.value, value))
    if not has_self:
        sources.append(Source(None, [], path, own=True))
    return sources


def _group(folder: str | None, key: str, value: yaml.Node) -> list[Source]:
    match = _ENTRY.match(key.strip())
    if match is None:
        return []
    group = match.group(1).lstrip("/")
    explicit = match.group(2)
    default = group.replace("/", ".").split(".")
    package = _package_parts(explicit) if explicit is not None else default
    options = value.value if isinstance(value, yaml.SequenceNode) else [value]
    found = []
    for option in options:
        if not isinstance(option, yaml.ScalarNode) or option.tag == "tag:yaml.org,2002:null":
            continue  # (`group: null`: no config)
        name = option.value
        if name == "???":
            why = f"the defaults list leaves the config group `{group}` to the command line (`???`)"
            found.append(Source(None, package, f"{group}/???", why))
        elif "${" in name:
            why = f"the defaults list picks the `{group}` option `{name}` by an interpolation"
            found.append(Source(None, package, f"{group}/{name}", why))
        else:
            found.append(_load(folder, f"{group}/{name}", explicit, package, group))
    return found


def _load(
    folder: str | None, relative: str, explicit: str | None, package: list[str], group: str | None
) -> Source:
    relative = relative.lstrip("/")
    shown = relative if relative.endswith((".yaml", ".yml")) else relative + ".yaml"
    if folder is None:
        return Source(
            None, package, shown, f"`{shown}` is read from the config folder, which is not on disk here"
        )
    from speclint.runner.depends import note

    full = os.path.join(folder, shown)
    note(full)
    try:
        with open(full, encoding="utf-8") as handle:
            text = handle.read(1_000_000)
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except (OSError, UnicodeDecodeError):
        return Source(None, package, shown, f"`{shown}` is not on disk next to this file")
    except (yaml.YAMLError, RecursionError):
        return Source(None, package, shown, f"speclint could not read `{shown}` as YAML")
    header = _header(text)
    if group is None and explicit is None:  # a plain entry `dir/name`: under `dir`, from this package
        package = relative.rpartition("/")[0].replace("/", ".").split(".") if "/" in relative else []
    if explicit is None and header is not None and header != "_group_":  # (`_group_`: the default)
        package = _package_parts(header)
    return Source(node, package, shown, full=full)


def _header(text: str) -> str | None:
    for line in text.splitlines()[:20]:
        match = _PACKAGE.match(line.strip())
        if match:
            return match.group(1)
        if line.strip() and not line.lstrip().startswith("#"):
            break
    return None


def _package_parts(package: str) -> list[str]:
    """A package as key parts: `_global_` (and what it prefixes) from the root; `_here_` none."""
    if "_global_" in package:
        package = package[package.rfind("_global_") + len("_global_") + 1 :]
    if package in ("", "_here_", "_group_"):
        return []
    return package.split(".")


def composed_value(
    sources: list[Source],
    path: str,
    shown: str,
    whole: Piece,
    own: Callable[[str], yaml.Node | None],
) -> list[Piece] | None:
    """The value `${path}` names in the composed config, when the configs the defaults list
    composes decide it: written in a loaded file (its text at the interpolation, with where it
    is written), or unknown with why; None to read it from the linted file itself (`own`)."""
    parts = path.split(".")
    for source in reversed(sources):  # (the config composed last wins)
        if source.own:
            if own(path) is not None:
                return None
            continue
        size = len(source.package)
        if parts[:size] != source.package or len(parts) == size:
            continue
        if source.root is None:
            why = f"`{shown}` would come from `{source.shown}` in the defaults list, and {source.why}"
            return [Piece(None, whole.begin, whole.end, reason=why)]
        node = _walk(source.root, parts[size:])
        if node is None:
            continue
        return [_foreign(node, source, shown, whole)]
    read = [source.shown for source in sources if not source.own and source.root is not None]
    if not read:
        return None
    names = ", ".join(f"`{name}`" for name in read)
    why = (
        f"`{shown}` names a value set neither in this file nor in {names} of its defaults list (Hydra "
        "takes it from the command line or another config)"
    )
    return [Piece(None, whole.begin, whole.end, reason=why)]


def _foreign(node: yaml.Node, source: Source, shown: str, whole: Piece) -> Piece:
    line = node.start_mark.line + 1
    where = f"`{source.shown}` line {line}"
    if not isinstance(node, yaml.ScalarNode) or node.tag == "tag:yaml.org,2002:null":
        return Piece(None, whole.begin, whole.end, reason=f"`{shown}` is not a single value in {where}")
    if node.value == "???":
        why = f"`{shown}` is `???` in {where}: a value Hydra must be given from another config or the command line"
        return Piece(None, whole.begin, whole.end, reason=why)
    if "${" in node.value:
        why = f"`{shown}` is `{node.value}` in {where}, itself an interpolation speclint does not follow across files"
        return Piece(None, whole.begin, whole.end, reason=why)
    origin = Span(
        line, node.start_mark.column + 1, node.end_mark.line + 1, node.end_mark.column + 1, source.full
    )
    return Piece(node.value, whole.begin, whole.end, origin=origin)


def _walk(node: yaml.Node | None, parts: list[str]) -> yaml.Node | None:
    for part in parts:
        node = get(node, part)
        if node is None:
            return None
    return node
