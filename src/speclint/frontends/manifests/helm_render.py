"""A chart's own `values.yaml`, read for the actions of its templates that only look values up.

`helm install` renders a template with the chart's `values.yaml` (what `-f`/`--set` change is
not on disk beside the chart). Where a template's action only looks a value up, what Helm
writes there is known:
- `{{ .Values.server.tp }}`, `{{ $.Values.model | quote }}`, `{{ .Values.tp | default 8 }}`,
  `{{ .x }}` inside `{{- with .Values.server }}`: the value's text, written at the action,
  its origin in `values.yaml`;
- `- {{ . | quote }}` inside `{{- range .Values.extraArgs }}` (a list of scalars): one
  argument per item, each at its item in `values.yaml`;
- `{{- toYaml .Values.args | nindent 12 }}` under `args:` (a list of scalars): the same;
- `{{- if .Values.speculative.enabled }}`: the arm the value picks.
Anything else (a function, a template of the chart's own, a value that is a mapping, null, or
a number Helm writes in e-notation) stays an action speclint does not render.
"""

from __future__ import annotations

import os
import re

import yaml

from speclint.core.spans import Span
from speclint.frontends.shell.pieces import line_starts, span_of

MAX_VALUES = 1 << 20
"""A `values.yaml` larger than this (1 MiB) is not read."""
_PATH = r"(?:\$?\.Values(?:\.[A-Za-z_]\w*)+|\.[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*|\.)"
_LOOKUP = re.compile(
    r"\{\{-?\s*(?:index\s+)?(?P<path>" + _PATH + r")(?:\s+\"(?P<key>[^\"\\]+)\")?"
    r"(?P<pipes>(?:\s*\|\s*(?:quote|squote|toString|default\s+(?:\"[^\"\\]*\"|'[^']*'|[\w.+-]+)))*)\s*-?\}\}"
)
_DEFAULT = re.compile(r"\|\s*default\s+(\"[^\"\\]*\"|'[^']*'|[\w.+-]+)")
_BLOCK = re.compile(
    r"\{\{-?\s*(?P<keyword>range|with|if)\s+(?P<negated>not\s+)?(?P<path>" + _PATH + r")\s*-?\}\}"
)
_INSERT = re.compile(r"\{\{-?\s*toYaml\s+(?P<path>" + _PATH + r")\s*\|\s*nindent\s+\d+\s*-?\}\}")
_BOOL_TAG = "tag:yaml.org,2002:bool"
_NUMBER_TAGS = ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float")


class ChartValues:
    """A chart's `values.yaml` as nodes, with the positions of its scalars."""

    def __init__(self, path: str, root: yaml.Node, text: str) -> None:
        self.path = path
        self.root = root
        self.starts = line_starts(text)

    def span(self, node: yaml.Node) -> Span:
        found = span_of(
            self.starts, node.start_mark.index, max(node.end_mark.index, node.start_mark.index + 1)
        )
        return Span(found.line, found.column, found.end_line, found.end_column, self.path)

    def node(self, path: str, scope: yaml.Node | None) -> yaml.Node | None:
        """The node `path` names: `.Values.a.b` from the root, `.a` or `.` from `scope` (the
        value of the `with` or the item of the `range` around it)."""
        from speclint.frontends.manifests.yaml_nodes import get

        path = path.removeprefix("$")
        if path.startswith(".Values"):
            node: yaml.Node | None = self.root
            keys = path[len(".Values") :].split(".")[1:]
        else:
            node = scope
            keys = [key for key in path.split(".")[1:] if key]
        for key in keys:
            node = get(node, key)
        return node

    def text(self, node: yaml.Node | None) -> str | None:
        """What Helm writes for a scalar value, None where speclint does not say."""
        if not isinstance(node, yaml.ScalarNode):
            return None
        if node.tag == _BOOL_TAG:
            return "true" if node.value.lower() in ("true", "yes", "on", "y") else "false"
        if node.tag in _NUMBER_TAGS:
            return _number(node.value)
        if node.tag == "tag:yaml.org,2002:str":
            return str(node.value)
        return None

    def truthy(self, node: yaml.Node | None) -> bool | None:
        """Whether `if` takes its arm on the value (Go's truth: false, 0, "" and empty are
        not), None when speclint does not say."""
        if isinstance(node, (yaml.SequenceNode, yaml.MappingNode)):
            return bool(node.value)
        if not isinstance(node, yaml.ScalarNode):
            return None
        if node.tag == "tag:yaml.org,2002:null":
            return False
        text = self.text(node)
        if text is None:
            return None
        return text not in ("false", "", "0")

    def items(self, node: yaml.Node | None) -> list[tuple[str, Span]] | None:
        """A list of scalars as (text, where), None for anything else, and for a list that
        names SGLang (`["python3", "-m", "sglang.launch_server"]`): the values file is read as
        that launch itself (`helm_values`), so the template does not read it again."""
        if not isinstance(node, yaml.SequenceNode):
            return None
        found = []
        for item in node.value:
            text = self.text(item)
            if text is None or "sglang" in text:
                return None
            found.append((text, self.span(item)))
        return found


def _number(written: str) -> str | None:
    """How Helm writes a number from values (a float64, Go's `%v`): `8`, `0.85`; None where
    it would write e-notation (1,000,000 and up: `1e+06`) or the text is not plain."""
    try:
        value = float(written.replace("_", ""))
    except ValueError:
        return None
    if value != value or abs(value) >= 1e6 or (value and abs(value) < 1e-4):
        return None
    return str(int(value)) if value == int(value) else repr(value)


def chart_values(template_path: str) -> ChartValues | None:
    """The values of the chart whose `templates/` holds `template_path` (its `Chart.yaml`
    and `values.yaml` beside that folder), None where there is none or it cannot be read."""
    from speclint.frontends.manifests.yaml_nodes import Loader
    from speclint.runner.depends import note

    folder = os.path.dirname(os.path.abspath(template_path))
    given = os.path.dirname(template_path)  # (the same folder as the user wrote the path)
    while os.path.basename(folder) != "templates":
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder, given = parent, os.path.dirname(given)
    chart = os.path.dirname(folder)
    shown = os.path.join(
        os.path.dirname(given) if os.path.basename(given) == "templates" else chart, "values.yaml"
    )
    note(os.path.join(chart, "Chart.yaml"))
    if not os.path.isfile(os.path.join(chart, "Chart.yaml")):
        return None
    path = os.path.join(chart, "values.yaml")
    note(path)
    try:
        if os.path.getsize(path) > MAX_VALUES:
            return None
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
        loader = Loader(text)
        try:
            root = loader.get_single_node()
        finally:
            loader.dispose()
    except (OSError, UnicodeDecodeError, yaml.YAMLError, RecursionError):
        return None
    if not isinstance(root, yaml.MappingNode):
        return None
    return ChartValues(shown, root, text)


def lookup(action: str) -> tuple[str, str | None, str | None] | None:
    """(the path looked up, the `default` literal or None, the key `index` takes or None) of
    an action that only looks a value up (`{{ .Values.tp | quote }}`, `{{ index
    .Values.resources.limits "nvidia.com/gpu" }}`), None for any other action."""
    match = _LOOKUP.fullmatch(action)
    if match is None or (match.group("key") is not None) != action.lstrip("{-").lstrip().startswith("index"):
        return None
    default = _DEFAULT.search(match.group("pipes"))
    literal = default.group(1).strip("\"'") if default else None
    return match.group("path"), literal, match.group("key")


def block(action: str) -> tuple[str, str, bool] | None:
    """(keyword, path, negated) of `{{- range PATH }}`, `{{- with PATH }}`, `{{- if [not] PATH }}`."""
    match = _BLOCK.fullmatch(action)
    if match is None:
        return None
    return match.group("keyword"), match.group("path"), bool(match.group("negated"))


def inserted_list(action: str) -> str | None:
    """The path of `{{- toYaml PATH | nindent N }}`, None for another action."""
    match = _INSERT.fullmatch(action)
    return match.group("path") if match else None


class Rendered:
    """What an action writes: a value's `text` (from `origin` in values.yaml, None for a
    `default` literal), or the `items` of a list it stands for."""

    __slots__ = ("text", "origin", "items", "reason")

    def __init__(
        self,
        text: str | None,
        origin: Span | None = None,
        items: list[tuple[str, Span]] | None = None,
        reason: str | None = None,
    ) -> None:
        self.text = text
        self.origin = origin
        self.items = items
        self.reason = reason
        """Why the value is not known, where speclint says more than "filled in by Helm"."""


_RANGE_ITEM = object()
"""The scope inside a `range`: `.` is each item in turn (only `{{ . }}` is read there)."""


class Block:
    """An open `if`/`with`/`range` (or another block) of a template: whether the arm being read
    is blanked (`blanking`), whether an arm was taken, and what `.` is inside it. Without
    values, the first arm is read and every `else` arm blanked."""

    __slots__ = ("blanking", "taken", "scope", "items", "values")

    def __init__(self, values: ChartValues | None, action: str, outer: list[Block]) -> None:
        self.values = values
        self.scope: object = scope_of(outer)
        self.items: list[tuple[str, Span]] | None = (
            outer[-1].items if outer and self.scope is _RANGE_ITEM else None
        )
        truth = None
        opened = block(action) if values is not None else None
        if values is not None and opened is not None:
            keyword, path, negated = opened
            node = values.node(path, self._node(self.scope))
            truth = values.truthy(node)
            if truth is not None and negated:
                truth = not truth
            if keyword == "with":
                self.scope = node if truth else None
            elif keyword == "range":
                self.items = values.items(node)
                self.scope = _RANGE_ITEM
        elif values is not None and _keyword_of(action) in ("with", "range"):
            self.scope = None  # (`.` is not known inside)
        self.taken = truth is not False
        self.blanking = not self.taken

    @staticmethod
    def _node(scope: object) -> yaml.Node | None:
        return scope if isinstance(scope, yaml.Node) else None

    def otherwise(self, action: str, outer: list[Block]) -> int:
        """At an `else` (or `else if`): the change in the count of blanked arms."""
        was = self.blanking
        if self.taken:
            self.blanking = True
        else:
            opened = block("{{" + action.lstrip("{-").lstrip()[4:]) if self.values is not None else None
            truth = None
            if self.values is not None and opened is not None and opened[0] == "if":
                node = self.values.node(opened[1], self._node(scope_of(outer)))
                truth = self.values.truthy(node)
                if truth is not None and opened[2]:
                    truth = not truth
            self.taken = truth is not False
            self.blanking = not self.taken
            if self.taken:
                self.scope = scope_of(outer)
        return int(self.blanking) - int(was)


def _keyword_of(action: str) -> str:
    return action.lstrip("{-").lstrip().split(" ", 1)[0]


def scope_of(stack: list[Block]) -> object:
    """What `.` is at the innermost open block (None at the top: `.Values` is read there)."""
    return stack[-1].scope if stack else None


def render(values: ChartValues, action: str, stack: list[Block]) -> Rendered | None:
    """What `action` writes, where only a values lookup (`lookup`) or a `toYaml` of a list."""
    scope = scope_of(stack)
    inserted = inserted_list(action)
    if inserted is not None:
        if inserted.startswith(".Values") or inserted.startswith("$.Values") or isinstance(scope, yaml.Node):
            node = values.node(inserted, scope if isinstance(scope, yaml.Node) else None)
            items = values.items(node)
            return Rendered(None, items=items) if items is not None else None
        return None
    looked = lookup(action)
    if looked is None:
        return None
    path, default, key = looked
    if path == ".":
        if scope is _RANGE_ITEM and stack[-1].items is not None:
            return Rendered(None, items=stack[-1].items)
        return None
    if scope is _RANGE_ITEM and not path.lstrip("$").startswith(".Values"):
        return None
    node = values.node(path, scope if isinstance(scope, yaml.Node) else None)
    if key is not None:
        from speclint.frontends.manifests.yaml_nodes import get

        node = get(node, key)
    if default is not None and (node is None or values.truthy(node) is False):
        return Rendered(default)
    text = values.text(node)
    if text is None and isinstance(node, yaml.ScalarNode) and node.tag in _NUMBER_TAGS:
        where = values.span(node)
        return Rendered(
            None,
            reason=f"{node.value} in {values.path} line {where.line} is a number that Helm may write in "
            "e-notation (values are read as floating-point numbers: 1000000 as 1e+06); speclint does not say which",
        )
    return Rendered(text, values.span(node)) if text is not None and node is not None else None


def rendering_template(values_path: str, text: str, offset: int) -> str | None:
    """The template of the chart that writes the values' list holding the scalar at `offset`
    into a launch (`range`/`toYaml` of its path, in a template naming SGLang's launcher),
    which speclint reads with these values; None where there is none."""
    from speclint.frontends.manifests.helm_charts import chart_templates
    from speclint.frontends.manifests.yaml_nodes import Loader

    if os.path.basename(values_path) != "values.yaml":
        return None
    try:
        loader = Loader(text)
        try:
            root = loader.get_single_node()
        finally:
            loader.dispose()
    except (yaml.YAMLError, RecursionError):
        return None
    keys = _keys_to(root, offset)
    if not keys:
        return None
    dotted = re.escape(".Values." + ".".join(keys))
    used = re.compile(r"\{\{-?\s*(?:range|toYaml)\s+\$?" + dotted + r"(?![\w.])")
    chart = os.path.dirname(values_path)
    for name, template in chart_templates(chart or "."):
        if used.search(template) and "sglang" in template:
            return os.path.join(chart, "templates", name)
    return None


def _keys_to(node: yaml.Node | None, offset: int) -> list[str] | None:
    """The mapping keys down to the list whose item is at `offset` (None if it is not in one)."""
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            if isinstance(key, yaml.ScalarNode) and value.start_mark.index <= offset < value.end_mark.index:
                if isinstance(value, yaml.SequenceNode):
                    return [key.value] if _KEY.fullmatch(key.value) else None
                deeper = _keys_to(value, offset)
                return None if deeper is None or not _KEY.fullmatch(key.value) else [key.value, *deeper]
    return None


_KEY = re.compile(r"[A-Za-z_]\w*")
