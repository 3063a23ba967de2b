"""The configs a Hydra config's defaults list composes with it, read from disk next to it.

Hydra (`hydra/_internal/defaults_list.py`, `hydra/core/default_element.py`) composes a config
from the entries of its `defaults:` list in order, later ones overriding earlier ones, the
config's own keys where `_self_` stands (at the end when it is not listed). An entry
`group: option` (also `/group`, `optional group`, `override group`, `group@package`) loads
`group/option.yaml` from the folder the config is in, under the package `group` (`/` read as
`.`) unless the entry names one (`@package`) or the loaded file's `# @package` header does (an
absolute package; `_global_` is the root); a plain `name` entry loads `name.yaml` into the
config's own package. `option: null` loads nothing; `???` must be given on the command line.
The defaults lists of the files it loads are followed too (nested composition: an entry there is
relative to the loading file's group, its keys under the loading file's package), each file
noted as a dependency of the result; a value an interpolation names is looked up from the
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
"""Defaults list entries read at most, in all the lists followed (a hostile list does not make
speclint read every file)."""
_MAX_DEPTH = 4
"""Configs loaded by configs loaded by the linted file, at most (a file that loads itself stops)."""
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
    itself, `own`, at `_self_`), the defaults lists of the files it loads followed as Hydra
    follows them (`_MAX_DEPTH` deep, `_MAX_ENTRIES` entries in all); [] when it has no
    defaults list."""
    listed = get(root, "defaults")
    if not isinstance(listed, yaml.SequenceNode):
        return []
    folder = os.path.dirname(os.path.abspath(path)) if os.path.isfile(path) else None
    own = Source(None, [], path, own=True)
    walk = _Walk(folder, os.path.dirname(path), [_MAX_ENTRIES], set())
    return _entries(listed, walk, "", [], own, 0)


@dataclass
class _Walk:
    """What the whole composition shares: the config folder (the linted file's; None: not on
    disk; `given`: as the linted file's path names it, for the places findings point at), the
    entries left to read, and the files on the way down (a file that loads itself)."""

    folder: str | None
    given: str
    left: list[int]
    loading: set[str]


def _entries(
    listed: yaml.SequenceNode, walk: _Walk, base: str, parent: list[str], itself: Source, depth: int
) -> list[Source]:
    """A defaults list's configs in merge order, `itself` at `_self_` (last when unlisted).

    As `hydra/_internal/defaults_list.py` and `hydra/core/default_element.py` compose: an
    entry of a config loaded from `base` (its group's folder) names a group relative to it
    (`/group`: from the config root), and its keys go under the loading config's package
    joined with the entry's own (`@package`, else the group as written, `/` read as `.`;
    `_global_` starts from the root, a file's `# @package` header is absolute)."""
    sources: list[Source] = []
    has_self = False
    for entry in listed.value:
        if walk.left[0] <= 0:
            break
        walk.left[0] -= 1
        if isinstance(entry, yaml.ScalarNode):
            if entry.value == "_self_":
                sources.append(itself)
                has_self = True
            elif entry.value:
                relative = entry.value
                absolute = relative.startswith("/")
                relative = relative.lstrip("/")
                config = relative if absolute or not base else f"{base}/{relative}"
                package = _final(parent, relative.rpartition("/")[0].replace("/", "."))
                sources.extend(_load(walk, config, package, None, depth))
        elif isinstance(entry, yaml.MappingNode):
            for key, value in mapping_pairs(entry):
                if isinstance(key, yaml.ScalarNode):
                    sources.extend(_group(walk, base, parent, key.value, value, depth))
    if not has_self:
        sources.append(itself)
    return sources


def _group(walk: _Walk, base: str, parent: list[str], key: str, value: yaml.Node, depth: int) -> list[Source]:
    match = _ENTRY.match(key.strip())
    if match is None:
        return []
    written = match.group(1)
    group = written.lstrip("/")
    path = group if written.startswith("/") or not base else f"{base}/{group}"
    explicit = match.group(2)
    if explicit is not None and "_group_" in explicit:  # (the group's own package, from the root)
        explicit = "_global_." + explicit.replace("_group_", path.replace("/", "."))
    package = _final(parent, group.replace("/", ".") if explicit is None else explicit)
    options = value.value if isinstance(value, yaml.SequenceNode) else [value]
    found = []
    for option in options:
        if not isinstance(option, yaml.ScalarNode) or option.tag == "tag:yaml.org,2002:null":
            continue  # (`group: null`: no config)
        name = option.value
        if name == "???":
            why = f"the defaults list leaves the config group `{path}` to the command line (`???`)"
            found.append(Source(None, package, f"{path}/???", why))
        elif "${" in name:
            why = f"the defaults list picks the `{path}` option `{name}` by an interpolation"
            found.append(Source(None, package, f"{path}/{name}", why))
        elif depth > 0 and key.strip().startswith("override"):
            why = (
                f"a config it loads overrides the `{path}` choice (`{key.strip()}: {name}`), "
                "which speclint does not follow"
            )
            found.append(Source(None, package, f"{path}/{name}", why))
        else:
            found.extend(_load(walk, f"{path}/{name}", package, explicit, depth))
    return found


def _final(parent: list[str], package: str) -> list[str]:
    """An entry's package as key parts: `package` (`_here_`: none) under the loading config's,
    from the root from its last `_global_` on (`InputDefault._get_final_package`)."""
    if package == "_here_":
        package = ""
    joined = ".".join([*parent, package] if package else parent)
    at = joined.rfind("_global_")
    if at >= 0:
        joined = joined[at + len("_global_") + 1 :]
    return joined.split(".") if joined else []


def _load(walk: _Walk, relative: str, package: list[str], explicit: str | None, depth: int) -> list[Source]:
    """The config at `relative` (from the config folder), then, where it has a defaults list,
    what that composes around it."""
    shown = relative if relative.endswith((".yaml", ".yml")) else relative + ".yaml"
    if walk.folder is None:
        return [
            Source(
                None, package, shown, f"`{shown}` is read from the config folder, which is not on disk here"
            )
        ]
    from speclint.runner.depends import note

    full = os.path.join(walk.folder, shown)
    note(full)
    written = os.path.join(walk.given, shown)  # (where notes point: the path as the user gave it)
    try:
        with open(full, encoding="utf-8") as handle:
            text = handle.read(1_000_000)
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except (OSError, UnicodeDecodeError):
        return [Source(None, package, shown, f"`{shown}` is not on disk next to this file")]
    except (yaml.YAMLError, RecursionError):
        return [Source(None, package, shown, f"speclint could not read `{shown}` as YAML")]
    header = _header(text)
    if explicit is None and header is not None and header != "_group_":  # (`_group_`: the default)
        package = _package_parts(header)
    loaded = Source(node, package, shown, full=written)
    listed = get(node, "defaults")
    if not isinstance(listed, yaml.SequenceNode) or not listed.value:
        return [loaded]
    if depth + 1 >= _MAX_DEPTH or full in walk.loading:
        why = f"`{shown}` composes other configs deeper than speclint follows"
        return [Source(None, package, shown, why), loaded]
    walk.loading.add(full)
    found = _entries(listed, walk, relative.rpartition("/")[0], package, loaded, depth + 1)
    walk.loading.discard(full)
    return found


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
    depth: int = 0,
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
        return [_foreign(node, source, shown, whole, _Follow(sources, own, parts, depth))]
    read = [source.shown for source in sources if not source.own and source.root is not None]
    if not read:
        return None
    names = ", ".join(f"`{name}`" for name in read)
    why = (
        f"`{shown}` names a value set neither in this file nor in {names} of its defaults list (Hydra "
        "takes it from the command line or another config)"
    )
    return [Piece(None, whole.begin, whole.end, reason=why)]


@dataclass
class _Follow:
    """What an interpolation written in a composed file is looked up in: the composition,
    the linted file's own keys, the path of the value that holds it, and how deep."""

    sources: list[Source]
    own: Callable[[str], yaml.Node | None]
    parts: list[str]
    depth: int


_FOLLOW_DEPTH = 4
"""Interpolations followed from value to value across the composed files, at most."""
_INTERPOLATION = re.compile(r"\$\{(\.*[A-Za-z_][\w-]*(?:\.[\w-]+)*)\}")


def _foreign(node: yaml.Node, source: Source, shown: str, whole: Piece, follow: _Follow) -> Piece:
    line = node.start_mark.line + 1
    where = f"`{source.shown}` line {line}"
    if not isinstance(node, yaml.ScalarNode) or node.tag == "tag:yaml.org,2002:null":
        return Piece(None, whole.begin, whole.end, reason=f"`{shown}` is not a single value in {where}")
    if node.value == "???":
        why = f"`{shown}` is `???` in {where}: a value Hydra must be given from another config or the command line"
        return Piece(None, whole.begin, whole.end, reason=why)
    origin = Span(
        line, node.start_mark.column + 1, node.end_mark.line + 1, node.end_mark.column + 1, source.full
    )
    whole_value = _INTERPOLATION.fullmatch(node.value)
    if whole_value is not None and follow.depth < _FOLLOW_DEPTH:  # (said where the text is written)
        path = _absolute(whole_value.group(1), follow)
        found = composed_value(follow.sources, path, node.value, whole, follow.own, follow.depth + 1)
        if found is not None and found[0].text is not None and found[0].origin is not None:
            return found[0]
        if found is None:  # (the linted file's own key: the finding is in this file already)
            text = _filled(path, node.value, follow, whole)
            if isinstance(text, str):
                return Piece(text, whole.begin, whole.end)
    if "${" in node.value:
        text = _followed(node.value, follow, whole)
        if isinstance(text, Piece):
            return _unread(whole, f"`{shown}` is `{node.value}` in {where}, and {text.reason}")
        return Piece(text, whole.begin, whole.end, origin=origin)
    return Piece(node.value, whole.begin, whole.end, origin=origin)


def _followed(value: str, follow: _Follow, whole: Piece) -> str | Piece:
    """A composed file's value with each `${path}` in it filled as OmegaConf fills it from the
    composed config (`${.b}` from the value's own mapping): its text, or an unknown piece
    whose reason says which interpolation could not be read."""
    out: list[str] = []
    at = 0
    for match in [*_INTERPOLATION.finditer(value), None]:
        between = value[at : match.start() if match is not None else len(value)]
        if "${" in between:  # (a resolver, a nested interpolation)
            return _unread(whole, "it holds an interpolation speclint does not follow across files")
        out.append(between)
        if match is None:
            break
        at = match.end()
        filled = _filled(_absolute(match.group(1), follow), match.group(), follow, whole)
        if isinstance(filled, Piece):
            return filled
        out.append(filled)
    return "".join(out)


def _absolute(name: str, follow: _Follow) -> str:
    """An interpolation's path from the config root: `.b` from the mapping that holds the
    value, `..b` one up."""
    dots = len(name) - len(name.lstrip("."))
    return name if not dots else ".".join([*follow.parts[: len(follow.parts) - dots], name[dots:]])


def _unread(whole: Piece, why: str) -> Piece:
    return Piece(None, whole.begin, whole.end, reason=why)


def _filled(path: str, written: str, follow: _Follow, whole: Piece) -> str | Piece:
    """The text `${path}` (written `written` in a composed file) stands for, or why unread."""
    if follow.depth >= _FOLLOW_DEPTH:
        return _unread(whole, f"`{written}` in it leads through more interpolations than speclint follows")
    found = composed_value(follow.sources, path, written, whole, follow.own, follow.depth + 1)
    if found is None:  # (the linted file's own key)
        node = follow.own(path)
        if (
            isinstance(node, yaml.ScalarNode)
            and node.tag != "tag:yaml.org,2002:null"
            and "${" not in node.value
            and node.value != "???"
        ):
            return str(node.value)
        return _unread(whole, f"`{written}` in it is not a plain value of this file")
    (piece,) = found
    if piece.text is None:
        return _unread(whole, piece.reason or f"`{written}` in it is not set in a file speclint read")
    return piece.text


def _walk(node: yaml.Node | None, parts: list[str]) -> yaml.Node | None:
    for part in parts:
        node = get(node, part)
        if node is None:
            return None
    return node
