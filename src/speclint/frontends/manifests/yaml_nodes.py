"""YAML as nodes, never objects: the bounded safe loader, `<<:` merges, lookups by key, and
the reader every manifest front-end (Kubernetes, compose, Actions, flag-key maps) builds on."""

from __future__ import annotations

from dataclasses import replace

import yaml

from speclint.core.words import Word
from speclint.frontends.shell.embedded import ArgvItem, Budget
from speclint.frontends.shell.pieces import Piece, span_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Protocol

    from speclint.core.launches import ExtractResult, Launch
    from speclint.core.spans import Span
    from speclint.frontends.shell.walking import UnitReader

    class Template(Protocol):
        """What the reader asks of a Helm template (`go_templates.Template`; named by this
        protocol, not imported: the template reads the chart's values with this module)."""

        text: str
        holes: list[tuple[int, int, str]]
        inserts: list[tuple[int, int, str]]

        @property
        def found(self) -> Mapping[int, object]: ...

        def fill_holes(self, pieces: list[Piece]) -> list[Piece]: ...

        def insert_in(self, begin: int, end: int) -> tuple[int, int, str] | None: ...

        def items_at(self, begin: int, end: int) -> list[tuple[str, Span]] | None: ...


MERGE_TAG = "tag:yaml.org,2002:merge"
MAX_DEPTH = 512
"""Deepest YAML nesting read (flow brackets plus block indents). PyYAML's scanner looks at
every open bracket again per token (quadratic) and its composer recurses per level: 100,000
`[` took a second before the composer ran out of stack."""


class Loader(yaml.SafeLoader):
    """SafeLoader that stops at MAX_DEPTH, as the composer would later at the stack's end."""

    def _deeper(self) -> None:
        if self.flow_level + len(self.indents) >= MAX_DEPTH:
            raise RecursionError(f"YAML nested more than {MAX_DEPTH} levels deep")

    def fetch_flow_collection_start(self, TokenClass: type[yaml.Token]) -> None:
        self._deeper()
        super().fetch_flow_collection_start(TokenClass)

    def add_indent(self, column: int) -> bool:
        self._deeper()
        return super().add_indent(column)


_MERGED: dict[int, tuple[yaml.MappingNode, list[tuple[yaml.Node, yaml.Node]]]] = {}
"""mapping_pairs results for mappings with merges, by node id, for one extract_yaml call
(the node is kept so its id is not reused): merges of merges of one anchor, nine times
each, would otherwise be computed 9**depth times."""


def clear_merges() -> None:
    """Forget the merges of the file just read (its nodes' ids are reused afterwards)."""
    _MERGED.clear()


def mapping_pairs(
    node: yaml.MappingNode, _active: frozenset[int] = frozenset()
) -> list[tuple[yaml.Node, yaml.Node]]:
    """The node's key/value pairs with `<<: *anchor` merges applied (explicit keys win).
    A merge of a mapping into itself (`&a {<<: *a}`) is skipped."""
    if not any(key.tag == MERGE_TAG for key, _ in node.value):
        return list(node.value)
    cached = _MERGED.get(id(node))
    if cached is not None and cached[0] is node:
        return cached[1]
    active = _active | {id(node)}
    merged: list[tuple[yaml.Node, yaml.Node]] = []
    own: list[tuple[yaml.Node, yaml.Node]] = []
    for key, value in node.value:
        if key.tag == MERGE_TAG:
            sources = value.value if isinstance(value, yaml.SequenceNode) else [value]
            for source in sources:
                if isinstance(source, yaml.MappingNode) and id(source) not in active:
                    merged.extend(mapping_pairs(source, active))
        else:
            own.append((key, value))
    keys = {k.value for k, _ in own if isinstance(k, yaml.ScalarNode)}
    result: dict[str, tuple[yaml.Node, yaml.Node]] = {}
    for key, value in merged:
        if isinstance(key, yaml.ScalarNode) and key.value not in keys:
            result[key.value] = (key, value)
    pairs = list(result.values()) + own
    _MERGED[id(node)] = (node, pairs)
    return pairs


def get(node: yaml.Node | None, name: str) -> yaml.Node | None:
    if not isinstance(node, yaml.MappingNode):
        return None
    found = None
    for key, value in mapping_pairs(node):
        if isinstance(key, yaml.ScalarNode) and key.value == name:
            found = value
    return found


def walk_pairs(
    root: yaml.Node, visit: Callable[[yaml.MappingNode, yaml.Node, yaml.Node], bool], max_depth: int
) -> None:
    """Call `visit(mapping, key, value)` for every key/value pair of the mappings under `root`,
    in document order (merges applied, each node once: an alias is followed once; `max_depth`
    levels at most, without recursion); `visit` says whether to look inside `value`."""
    seen: set[yaml.Node] = set()
    stack: list[tuple[yaml.Node, int]] = [(root, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > max_depth or node in seen:
            continue
        seen.add(node)
        inside: list[yaml.Node] = []
        if isinstance(node, yaml.MappingNode):
            inside = [value for key, value in mapping_pairs(node) if visit(node, key, value)]
        elif isinstance(node, yaml.SequenceNode):
            inside = list(node.value)
        stack.extend((child, depth + 1) for child in reversed(inside))


class NodeReader:
    """A YAML file being read: its text, where its lines start, and the launches found."""

    def __init__(self, text: str, starts: list[int], path: str, result: ExtractResult) -> None:
        self.text = text
        self.starts = starts
        self.path = path
        self.result = result
        self.budget = Budget()
        self.seen: set[yaml.Node] = set()
        """Nodes already searched for containers: an alias is a shared node, and a
        billion-laughs file reaches one node 9**9 times. The nodes themselves (a node hashes by
        identity), not their `id`s: the set keeps them alive, where a document read and freed
        gave its ids to the next document's nodes, which were then taken as seen (a KServe
        file's runtimes found or not from run to run)."""
        self.template: Template | None = None
        """A Helm template's actions (`text` is then the template with them set aside)."""
        self.item_origins: set[Span] = set()
        """Where the values' list items a template's action stands for are written: their
        words are placed there (`helm_render.at_items`)."""
        self.manifest_reader: UnitReader | None = None
        """What reads a unit, program or manifest a here-document in the file's shell feeds
        (`yaml_manifest` hands in one that reads `kubectl apply -f - << EOF` with itself)."""

    def unit_reader(self) -> UnitReader:
        """The reader the file's shell (a `run:` block, a CI job's `script:`) is walked with:
        `manifest_reader`, else `script.read_unit` (which says a manifest was not read)."""
        if self.manifest_reader is not None:
            return self.manifest_reader
        from speclint.frontends.shell.script import read_unit

        return read_unit

    def span(self, node: yaml.Node) -> Span:
        return span_of(
            self.starts, node.start_mark.index, max(node.end_mark.index, node.start_mark.index + 1)
        )

    def scalar_pieces(self, node: yaml.ScalarNode) -> list[Piece]:
        """The scalar's text with where each character is written; the whole node's range
        for every character when the layout cannot be matched (escapes, odd folding)."""
        value = node.value
        begin, end = node.start_mark.index, node.end_mark.index
        exact = _aligned(self.text, node, value)
        pieces = exact if exact is not None else [Piece(value, begin, end)]
        return pieces if self.template is None else self.template.fill_holes(pieces)

    def words(self, node: yaml.Node | None) -> list[ArgvItem]:
        if isinstance(node, yaml.SequenceNode):
            found: list[ArgvItem] = []
            for item in node.value:
                if not isinstance(item, yaml.ScalarNode):
                    found.append(
                        ArgvItem(
                            [Piece(None, item.start_mark.index, item.end_mark.index, reason="not a string")],
                            splat=True,
                        )
                    )
                    continue
                listed = self._listed(item)
                found += listed if listed is not None else [ArgvItem(self.scalar_pieces(item))]
            return found
        if isinstance(node, yaml.ScalarNode):  # Kubernetes wants a list; be lenient
            return [ArgvItem(self.scalar_pieces(node))]
        return []

    def _listed(self, item: yaml.ScalarNode) -> list[ArgvItem] | None:
        """The words of the values' list an item that is one template action stands for
        (`- {{ . | quote }}` in a `range`), None for any other item."""
        if self.template is None or not self.template.found:
            return None
        hole = next(
            (h for h in self.template.holes if item.start_mark.index <= h[0] < item.end_mark.index), None
        )
        if hole is None or item.value != "x" * (hole[1] - hole[0]):
            return None
        items = self.template.items_at(hole[0], hole[1])
        return None if items is None else self.list_items(items, hole[0], hole[1])

    def list_items(self, items: list[tuple[str, Span]], begin: int, end: int) -> list[ArgvItem]:
        """One word per item, each to be placed at its item in the values file."""
        self.item_origins.update(where for _, where in items)
        return [ArgvItem([Piece(text, begin, end, origin=where)], origin=where) for text, where in items]

    def place_items(self, launches: list[Launch]) -> None:
        """Each word made of one values list item placed at that item (a `range` or `toYaml`
        writes every item at the same action: the item is where the user wrote the word)."""
        if self.item_origins:
            for launch in launches:
                launch.args = [
                    replace(word, span=word.origin, origin=None) if word.origin in self.item_origins else word
                    for word in launch.args
                ]

    def filled_text(self, node: yaml.ScalarNode) -> str:
        """A scalar as written, or as the chart's values fill it in (an image
        `"{{ .Values.image.repository }}:{{ .Values.image.tag }}"`, a GPU count; `helm_render`)."""
        if self.template is None or not self.template.found:
            return str(node.value)
        texts = [piece.text for piece in self.scalar_pieces(node)]
        return "".join(text for text in texts if text is not None) if None not in texts else str(node.value)

    def env_list(self, env_list: yaml.Node | None) -> dict[str, Word]:
        """A Kubernetes `env:` list (`- name: N` with `value:` or `valueFrom:`)."""
        env: dict[str, Word] = {}
        if isinstance(env_list, yaml.SequenceNode):
            for item in env_list.value:
                name = get(item, "name")
                if not isinstance(name, yaml.ScalarNode):
                    continue
                value = get(item, "value")
                if isinstance(value, yaml.ScalarNode):
                    env[name.value] = Word(value.value, self.span(value), self.span(value))
                else:
                    where = get(item, "valueFrom") or name
                    env[name.value] = Word(
                        None,
                        self.span(where),
                        self.span(where),
                        dynamic_reason=f"{name.value} comes from valueFrom (a Secret, ConfigMap or field)",
                    )
        return env


def _aligned(text: str, node: yaml.ScalarNode, value: str) -> list[Piece] | None:
    begin, end = node.start_mark.index, node.end_mark.index
    raw = text[begin:end]
    style = node.style
    if style in ("|", ">"):
        header_end = text.find("\n", begin)
        if header_end == -1 or header_end >= end:
            return None
        body_start = header_end + 1
        lines = text[body_start:end].split("\n")
        indents = [len(line) - len(line.lstrip(" ")) for line in lines if line.strip()]
        indent = min(indents) if indents else 0
        segments, at = [], body_start
        for line in lines:
            segments.append((line[indent:], at + min(indent, len(line))))
            at += len(line) + 1
    elif style in ("'", '"'):
        body = raw[1:-1]
        if ("\\" in body and style == '"') or ("''" in body and style == "'"):
            return None
        segments, at = [], begin + 1
        for line in body.split("\n"):
            stripped = line.strip(" \t")
            segments.append((stripped, at + (len(line) - len(line.lstrip(" \t")))))
            at += len(line) + 1
    else:
        segments, at = [], begin
        for line in raw.split("\n"):
            stripped = line.strip(" \t")
            segments.append((stripped, at + (len(line) - len(line.lstrip(" \t")))))
            at += len(line) + 1
    pieces: list[Piece] = []
    pos = 0
    previous_end = begin
    for segment, offset in segments:
        if not segment:
            continue
        found = value.find(segment, pos)
        if found == -1 or value[pos:found].strip(" \n\t") != "":
            return None
        if found > pos:
            pieces.append(Piece(value[pos:found], previous_end, previous_end + 1))
        pieces.append(Piece(segment, offset, offset + len(segment), exact=True))
        pos = found + len(segment)
        previous_end = offset + len(segment)
    if value[pos:].strip(" \n\t") != "":
        return None
    if pos < len(value):
        pieces.append(Piece(value[pos:], previous_end, previous_end + 1))
    return pieces
