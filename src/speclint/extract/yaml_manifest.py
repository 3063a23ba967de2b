"""YAML front-end: SGLang launches in Kubernetes manifests and docker-compose files.

Read with PyYAML's composer (nodes keep their positions; anchors are shared nodes, `<<`
merges are applied here). A container's `command` + `args` (Kubernetes) or `entrypoint` +
`command` (compose) become an argv that the shell front-end reads, so `["/bin/bash", "-c",
"<script>"]` and wrappers work as in shell scripts; `env:`/`environment:` go into the
launch's environment and `image:` picks the SGLang release.
"""

from __future__ import annotations

import re

import yaml

from speclint.core.launches import Diagnostic, ExtractResult
from speclint.core.spans import Span
from speclint.core.words import Word
from .embedded import ArgvItem, Budget, Piece, ShellBuffer, line_starts, span_of

_MERGE_TAG = "tag:yaml.org,2002:merge"
MAX_DEPTH = 512
"""Deepest YAML nesting read (flow brackets plus block indents). PyYAML's scanner looks at
every open bracket again per token (quadratic) and its composer recurses per level: 100,000
`[` took a second before the composer ran out of stack."""


class _Loader(yaml.SafeLoader):
    """SafeLoader that stops at MAX_DEPTH, as the composer would later at the stack's end."""

    def _deeper(self) -> None:
        if self.flow_level + len(self.indents) >= MAX_DEPTH:
            raise RecursionError(f"YAML nested more than {MAX_DEPTH} levels deep")

    def fetch_flow_collection_start(self, TokenClass) -> None:
        self._deeper()
        super().fetch_flow_collection_start(TokenClass)

    def add_indent(self, column: int) -> bool:
        self._deeper()
        return super().add_indent(column)


def extract_yaml(text: str, path: str) -> ExtractResult:
    """Safe loading only: nodes are composed, never constructed, so `!!python/object` tags
    are plain tagged nodes. Aliases stay shared nodes (never expanded: see `_Reader`)."""
    result = ExtractResult()
    starts = line_starts(text)
    reader = _Reader(text, starts, path, result)
    loader = None
    try:
        loader = _Loader(text)  # its reader refuses NULs and other control characters
        while loader.check_node():
            document = loader.get_node()
            if document is not None:
                reader.document(document)
    except RecursionError:  # PyYAML's composer recurses once per nesting level
        mark = loader.get_mark() if loader is not None else None
        result.diagnostics.append(Diagnostic(
            "unsupported-input", "YAML nested too deeply for speclint to follow; launches from "
            "here on are not checked", Span.point(mark.line + 1, mark.column + 1) if mark else Span.point(1, 1)))
    except yaml.reader.ReaderError as error:
        result.diagnostics.append(Diagnostic("syntax-error", f"YAML error: {error.reason} (character "
                                             f"{error.character!r} is not allowed in YAML)",
                                             span_of(starts, error.position, error.position + 1)))
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        span = Span.point(mark.line + 1, mark.column + 1) if mark else Span.point(1, 1)
        problem = error.problem or error.context or "invalid YAML"
        result.diagnostics.append(Diagnostic("syntax-error", f"YAML syntax error: {problem}", span))
    except yaml.YAMLError as error:
        result.diagnostics.append(Diagnostic("syntax-error", f"YAML error: {error}", Span.point(1, 1)))
    finally:
        if loader is not None:
            loader.dispose()
        _MERGED.clear()
    result.comments.extend(_comments(text))
    result.launches.sort(key=lambda launch: (launch.span.line, launch.span.column))
    return result


def _comments(text: str) -> list[tuple[Span, str]]:
    """`# ...` comments: whole-line ones, and trailing ones after a blank outside quotes."""
    found = []
    for number, line in enumerate(text.split("\n"), start=1):
        for match in re.finditer(r"(?:^|\s)(#.*)$", line):
            before = line[: match.start(1)]
            if before.count('"') % 2 == 0 and before.count("'") % 2 == 0:
                column = match.start(1) + 1
                found.append((Span(number, column, number, len(line) + 1), match.group(1)))
                break
    return found


_MERGED: dict[int, tuple[yaml.MappingNode, list[tuple[yaml.Node, yaml.Node]]]] = {}
"""mapping_pairs results for mappings with merges, by node id, for one extract_yaml call
(the node is kept so its id is not reused): merges of merges of one anchor, nine times
each, would otherwise be computed 9**depth times."""


def mapping_pairs(node: yaml.MappingNode, _active: frozenset[int] = frozenset()) -> list[tuple[yaml.Node, yaml.Node]]:
    """The node's key/value pairs with `<<: *anchor` merges applied (explicit keys win).
    A merge of a mapping into itself (`&a {<<: *a}`) is skipped."""
    if not any(key.tag == _MERGE_TAG for key, _ in node.value):
        return list(node.value)
    cached = _MERGED.get(id(node))
    if cached is not None and cached[0] is node:
        return cached[1]
    active = _active | {id(node)}
    merged: list[tuple[yaml.Node, yaml.Node]] = []
    own: list[tuple[yaml.Node, yaml.Node]] = []
    for key, value in node.value:
        if key.tag == _MERGE_TAG:
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


def _get(node: yaml.Node, name: str) -> yaml.Node | None:
    if not isinstance(node, yaml.MappingNode):
        return None
    found = None
    for key, value in mapping_pairs(node):
        if isinstance(key, yaml.ScalarNode) and key.value == name:
            found = value
    return found


class _Reader:
    def __init__(self, text: str, starts: list[int], path: str, result: ExtractResult) -> None:
        self.text = text
        self.starts = starts
        self.path = path
        self.result = result
        self.budget = Budget()
        self.seen: set[int] = set()
        """Nodes already searched for containers: an alias is a shared node, and a
        billion-laughs file reaches one node 9**9 times."""

    def span(self, node: yaml.Node) -> Span:
        return span_of(self.starts, node.start_mark.index, max(node.end_mark.index, node.start_mark.index + 1))

    def document(self, root: yaml.Node) -> None:
        from ..frontends.manifests.actions import is_workflow, read_workflow

        if is_workflow(root, self.path):
            read_workflow(self, root)
            return
        from ..frontends.manifests.config_sections import read_flag_maps

        if read_flag_maps(self, root):
            return
        services = _get(root, "services")
        if isinstance(services, yaml.MappingNode):
            for _key, service in mapping_pairs(services):
                self.compose_service(service)
            return
        self.find_containers(root, depth=0)

    def find_containers(self, node: yaml.Node, depth: int) -> None:
        """Every `containers:`/`initContainers:` list, wherever the workload kind nests it
        (Deployment, StatefulSet, Job, CronJob, Pod, LeaderWorkerSet templates, List items)."""
        if depth > 30 or id(node) in self.seen:
            return
        self.seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            for key, value in mapping_pairs(node):
                if isinstance(key, yaml.ScalarNode) and key.value in ("containers", "initContainers") \
                        and isinstance(value, yaml.SequenceNode):
                    for container in value.value:
                        if id(container) not in self.seen:  # `[*c, *c, ...]`: one launch
                            self.seen.add(id(container))
                            self.k8s_container(container)
                else:
                    self.find_containers(value, depth + 1)
        elif isinstance(node, yaml.SequenceNode):
            for item in node.value:
                self.find_containers(item, depth + 1)

    def k8s_container(self, container: yaml.Node) -> None:
        env: dict[str, Word] = {}
        env_list = _get(container, "env")
        if isinstance(env_list, yaml.SequenceNode):
            for item in env_list.value:
                name = _get(item, "name")
                if not isinstance(name, yaml.ScalarNode):
                    continue
                value = _get(item, "value")
                if isinstance(value, yaml.ScalarNode):
                    env[name.value] = Word(value.value, self.span(value), self.span(value))
                else:
                    where = _get(item, "valueFrom") or name
                    env[name.value] = Word(None, self.span(where), self.span(where),
                                           dynamic_reason=f"{name.value} comes from valueFrom "
                                                          "(a Secret, ConfigMap or field)")
        argv = self.words(_get(container, "command")) + self.words(_get(container, "args"))
        from ..frontends.manifests.gpus import k8s_gpu_count
        from ..frontends.manifests.k8s_expand import K8sExpander

        argv = K8sExpander(env, lambda begin, end: span_of(self.starts, begin, end)).argv(argv)

        count = len(self.result.launches)
        self.launch(argv, env, _get(container, "image"))
        self._gpus(count, k8s_gpu_count(self, container))

    def _gpus(self, first: int, gpus: Word | None) -> None:
        for launch in self.result.launches[first:]:
            launch.gpu_count = gpus

    def compose_service(self, service: yaml.Node) -> None:
        env: dict[str, Word] = {}
        environment = _get(service, "environment")
        if isinstance(environment, yaml.MappingNode):
            for key, value in mapping_pairs(environment):
                if isinstance(value, yaml.ScalarNode) and isinstance(key, yaml.ScalarNode):
                    env[key.value] = Word(value.value, self.span(value), self.span(value))
        elif isinstance(environment, yaml.SequenceNode):
            for item in environment.value:
                if isinstance(item, yaml.ScalarNode) and "=" in item.value:
                    name, _, value = item.value.partition("=")
                    env[name] = Word(value, self.span(item), self.span(item))
        entrypoint, command = _get(service, "entrypoint"), _get(service, "command")
        buffer = ShellBuffer(self.text, self.starts, self.budget)
        for part in (entrypoint, command):
            if isinstance(part, yaml.ScalarNode):
                # compose splits a string command into words (shlex); the shell parser
                # splits it the same way for the plain words a launch uses
                buffer.add_space()
                buffer.add_code(self.scalar_pieces(part))
            else:
                for item in self.words(part):
                    buffer.add_word(item)
        from ..frontends.manifests.gpus import compose_gpu_count

        count = len(self.result.launches)
        self._walk(buffer, env, _get(service, "image"))
        self._gpus(count, compose_gpu_count(self, service))

    def words(self, node: yaml.Node | None) -> list[ArgvItem]:
        if isinstance(node, yaml.SequenceNode):
            return [ArgvItem(self.scalar_pieces(item)) if isinstance(item, yaml.ScalarNode) else
                    ArgvItem([Piece(None, item.start_mark.index, item.end_mark.index,
                                    reason="not a string")], splat=True)
                    for item in node.value]
        if isinstance(node, yaml.ScalarNode):  # Kubernetes wants a list; be lenient
            return [ArgvItem(self.scalar_pieces(node))]
        return []

    def launch(self, argv: list[ArgvItem], env: dict[str, Word], image: yaml.Node | None) -> None:
        buffer = ShellBuffer(self.text, self.starts, self.budget)
        for item in argv:
            buffer.add_word(item)
        self._walk(buffer, env, image)

    def _walk(self, buffer: ShellBuffer, env: dict[str, Word], image: yaml.Node | None) -> None:
        image_info = ((image.value, self.span(image)) if isinstance(image, yaml.ScalarNode)
                      else None)
        count = len(self.result.launches)
        buffer.walk(self.path, self.result, env, image_info)
        for launch in self.result.launches[count:]:
            for name, word in env.items():
                if not name.startswith("__speclint_"):  # placeholders for unknown `$(VAR)`
                    launch.env.setdefault(name, word)

    def scalar_pieces(self, node: yaml.ScalarNode) -> list[Piece]:
        """The scalar's text with where each character is written; the whole node's range
        for every character when the layout cannot be matched (escapes, odd folding)."""
        value = node.value
        begin, end = node.start_mark.index, node.end_mark.index
        exact = _aligned(self.text, node, value)
        return exact if exact is not None else [Piece(value, begin, end)]


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
