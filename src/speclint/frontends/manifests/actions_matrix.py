"""GitHub Actions job matrices: `${{ matrix.NAME }}` read once per value the matrix gives
(`${{ matrix.NAME.KEY }}` too: a key of a mapping the matrix lists, `- { model: m, tp: 2 }`).

A job's `strategy.matrix` runs the job once per combination of its lists (`tp: [1, 2]`,
`model: [a, b]`: four jobs), less the `exclude:` entries that match one, and with each
`include:` entry added to every original combination whose original values it does not
change (or as a combination of its own when it fits none); values an earlier entry added can
be overwritten (GitHub's "Running variations of jobs in a workflow"). A `run:` script (or the job's `container:`
image) that reads `${{ matrix.NAME }}` is read once per distinct set of the values it reads,
each reading an alternative of the launch ("when the matrix gives `matrix.tp` the value
`2` (line 9)"), as branch alternatives are (`rules.alternatives`). A matrix, a list or an
`include:`/`exclude:` written as an expression (`${{ fromJSON(...) }}`) is known only when
the workflow runs: its values stay unknown, and so say. Bounded: at most MAX_COMBINATIONS
combinations are made and MAX_ALTERNATIVES readings of one step.
"""

from __future__ import annotations

import re
from itertools import product

import yaml

from speclint.core.launches import MAX_ALTERNATIVES
from speclint.core.records import dataclass
from speclint.frontends.manifests.yaml_nodes import get, mapping_pairs

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.conditions import Alternative, Condition
    from speclint.core.launches import Launch
    from speclint.frontends.manifests.yaml_nodes import NodeReader

MAX_COMBINATIONS = 256
"""GitHub runs at most 256 jobs of one matrix; a bigger product is not expanded."""
MATRIX_REF = re.compile(r"\$\{\{\s*matrix\.([A-Za-z_][A-Za-z0-9_-]*(?:\.[A-Za-z_][A-Za-z0-9_-]*)*)\s*\}\}")
"""`${{ matrix.NAME }}`, or `${{ matrix.NAME.KEY... }}` (a property of a mapping the matrix
gives: GitHub's expression syntax, "property dereference"): group 1 is the dotted path."""

_Combination = dict[str, yaml.Node]


@dataclass(frozen=True, slots=True)
class Matrix:
    """A job's matrix: its combinations, or why they cannot be known."""

    combinations: list[_Combination]
    unknown: str | None = None


@dataclass(frozen=True, slots=True)
class Reading:
    """One reading of a step: the text of each `matrix.NAME` it reads (None: not set), and
    the conditions that make it one alternative of several (empty when there is one)."""

    values: dict[str, str | None]
    conditions: tuple[Condition, ...] = ()
    unknown: str | None = None
    """Why the matrix values this step reads are not known (they stay unknown values)."""


def job_matrix(job: yaml.Node) -> Matrix | None:
    """The job's `strategy.matrix`; None when it has none."""
    strategy = get(job, "strategy")
    matrix = get(strategy, "matrix") if isinstance(strategy, yaml.MappingNode) else None
    if matrix is None:
        return None
    if not isinstance(matrix, yaml.MappingNode):
        return Matrix([], _from_expression("the job's matrix", matrix))
    lists: list[tuple[str, list[yaml.Node]]] = []
    entries: dict[str, list[yaml.MappingNode]] = {"include": [], "exclude": []}
    for key, value in mapping_pairs(matrix):
        name = key.value if isinstance(key, yaml.ScalarNode) else None
        if name is None:
            continue
        if not isinstance(value, yaml.SequenceNode):
            return Matrix([], _from_expression(f"the matrix's `{name}`", value))
        if name in entries:
            if len(value.value) > MAX_COMBINATIONS:
                return Matrix([], f"the matrix's `{name}` has more entries than speclint reads")
            entries[name] = [item for item in value.value if isinstance(item, yaml.MappingNode)]
        else:
            lists.append((name, value.value))
    size = 1
    for _name, values in lists:
        size *= len(values)
    if size > MAX_COMBINATIONS:
        return Matrix([], f"the job's matrix has {size} combinations, more than speclint expands")
    names = [name for name, _ in lists]
    combinations = (
        [dict(zip(names, values, strict=True)) for values in product(*(values for _, values in lists))]
        if lists
        else []
    )
    unread = _unread_entry(entries, {name for name, _ in lists})
    if unread is not None:
        return Matrix([], unread)
    combinations = [c for c in combinations if not any(_matches(c, e) for e in entries["exclude"])]
    originals = len(combinations)  # an entry is added to these only, never to one made by an entry
    for entry in entries["include"]:
        pairs = _pairs(entry)
        for c in combinations[:originals]:
            for k, v in pairs.items():  # a mapping matching part of the combination's
                if (
                    k in names
                    and isinstance(v, yaml.MappingNode)
                    and _partly(c[k], v)
                    and not _equal(c[k], v)
                ):
                    line = v.start_mark.line + 1
                    why = f"the matrix's `include` entry gives `{k}` a mapping (line {line}) that matches only part of a value of `{k}`"
                    return Matrix([], why + ": whether GitHub adds it there is not documented")
        fits = [
            c
            for c in combinations[:originals]
            if all(k not in names or _equal(c[k], v) for k, v in pairs.items())
        ]
        for combination in fits:
            combination.update(pairs)
        if not fits:
            combinations.append(dict(pairs))
    return Matrix(combinations[:MAX_COMBINATIONS])


def readings(reader: NodeReader, matrix: Matrix | None, texts: list[str]) -> list[Reading]:
    """The readings of a step whose `texts` (its script, the job's image) may read matrix
    values: one per distinct set of values, or one (values unknown) when there are more than
    MAX_ALTERNATIVES or the matrix is unknown."""
    used = sorted({name for text in texts if "matrix." in text for name in MATRIX_REF.findall(text)})
    if matrix is None or not used:
        return [Reading({})]
    if matrix.unknown is not None or not matrix.combinations:
        return [
            Reading({}, unknown=matrix.unknown or "the job's matrix gives no combination speclint could read")
        ]
    distinct: dict[tuple[str | None, ...], _Combination] = {}
    for combination in matrix.combinations:
        key = tuple(_text(_lookup(combination, name)) for name in used)
        distinct.setdefault(key, combination)
    if len(distinct) > MAX_ALTERNATIVES:
        why = f"the job's matrix gives what this step reads {len(distinct)} different values, more than speclint reads one by one ({MAX_ALTERNATIVES})"
        return [Reading({}, unknown=why)]
    varying = [n for i, n in enumerate(used) if len({key[i] for key in distinct}) > 1]
    found = []
    for key, combination in distinct.items():
        conditions = tuple(_condition(reader, combination, name) for name in varying)
        values = dict(zip(used, key, strict=True))
        found.append(Reading(values, conditions if len(distinct) > 1 else ()))
    return found


def _condition(reader: NodeReader, combination: _Combination, name: str) -> Condition:
    """What makes a reading: the value `combination` gives `matrix.NAME`, placed where the
    matrix writes it."""
    from speclint.core.conditions import Condition

    node = _lookup(combination, name)
    if node is None:  # a path into a mapping that lacks the key: placed at the mapping
        node = combination.get(name.split(".", 1)[0])
    if node is not None and (text := _text(node)) is not None:
        return Condition(reader.span(node), f"the matrix gives `matrix.{name}` the value `{text}`")
    where = node or next(iter(combination.values()))  # a combination always has a value
    return Condition(reader.span(where), f"`matrix.{name}` is not set (or not a string)")


def unknown_reason(reading: Reading, name: str) -> str | None:
    """Why `matrix.NAME` has no value in this reading (None: it has one, or no matrix is read)."""
    if reading.unknown is not None:
        return reading.unknown
    if name in reading.values and reading.values[name] is None:
        return f"`matrix.{name}` is not set (or not a string) in this combination of the job's matrix"
    return None


def mark(launches: list[Launch], reading: Reading, index: int, count: int) -> None:
    """The launches of one reading of `count`: one alternative each (inside any of their own)."""
    from speclint.core.conditions import Alternative

    for launch in launches:
        inner: Alternative | None = launch.alternative
        if inner is None:
            launch.alternative = Alternative(reading.conditions, index, count)
        else:
            launch.alternative = Alternative(
                reading.conditions + inner.conditions, index * inner.count + inner.index, count * inner.count
            )


def substitute(text: str, reading: Reading) -> str | None:
    """`text` with each `${{ matrix.NAME }}` replaced by its value; None when one is unknown
    or another expression remains."""

    def value(match: re.Match[str]) -> str:
        found = reading.values.get(match.group(1))
        if found is None:
            raise KeyError(match.group(1))
        return found

    try:
        filled = MATRIX_REF.sub(value, text)
    except KeyError:
        return None
    return None if "${{" in filled else filled


def _lookup(combination: _Combination, path: str) -> yaml.Node | None:
    """The value at a dotted path: `cfg.model` is the `model` key of the mapping the matrix
    gives `cfg` (`- { model: /m, tp: 2 }`); None when a step of it is missing or not a mapping."""
    first, *rest = path.split(".")
    node = combination.get(first)
    for key in rest:
        if not isinstance(node, yaml.MappingNode):
            return None
        node = next(
            (v for k, v in mapping_pairs(node) if isinstance(k, yaml.ScalarNode) and k.value == key), None
        )
    return node


def _from_expression(what: str, node: yaml.Node) -> str:
    if isinstance(node, yaml.ScalarNode) and "${{" in node.value:
        shown = node.value if len(node.value) <= 60 else node.value[:57] + "..."
        return f"{what} is `{shown}`, an expression known only when the workflow runs"
    return f"{what} is not a list speclint reads"


def _pairs(entry: yaml.MappingNode) -> dict[str, yaml.Node]:
    return {key.value: value for key, value in mapping_pairs(entry) if isinstance(key, yaml.ScalarNode)}


def _same(a: yaml.Node | None, b: yaml.Node) -> bool:
    return a is not None and _text(a) is not None and _text(a) == _text(b)


def _matches(combination: _Combination, entry: yaml.MappingNode) -> bool:
    """An `exclude:` entry matches a combination when each value it gives matches, a mapping
    in part: each of its keys, down to the values written (actions/runner's `MatrixFilter`: one
    `matrix['k']['sub'] == value` test per value the entry writes)."""
    return all(_partly(combination.get(k), v) for k, v in _pairs(entry).items())


def _partly(value: yaml.Node | None, wanted: yaml.Node) -> bool:
    if isinstance(wanted, yaml.MappingNode):
        if not isinstance(value, yaml.MappingNode):
            return False
        given = _pairs(value)
        return all(_partly(given.get(k), v) for k, v in _pairs(wanted).items())
    return _same(value, wanted)


def _equal(a: yaml.Node | None, b: yaml.Node) -> bool:
    """Whether an `include:` entry's value leaves the combination's as it is: the same text, or
    mappings with the same keys and values."""
    if isinstance(a, yaml.MappingNode) and isinstance(b, yaml.MappingNode):
        left, right = _pairs(a), _pairs(b)
        return left.keys() == right.keys() and all(_equal(left[k], right[k]) for k in left)
    return _same(a, b)


def _unread_entry(entries: dict[str, list[yaml.MappingNode]], names: set[str]) -> str | None:
    """Why the matrix is not read, when an `include:`/`exclude:` entry gives one of the
    matrix's own keys a list (actions/runner refuses one in a filter; a value an `include:`
    entry adds may be anything), which speclint does not match."""
    for kind, items in entries.items():
        for entry in items:
            for key, value in _pairs(entry).items():
                if kind == "include" and key not in names:
                    continue  # a value the entry adds: any YAML
                if isinstance(value, yaml.SequenceNode) or (
                    isinstance(value, yaml.MappingNode) and _holds(value, yaml.SequenceNode)
                ):
                    line = value.start_mark.line + 1
                    return f"the matrix's `{kind}` entry gives `{key}` a list (line {line}), which speclint does not match"
    return None


def _holds(node: yaml.MappingNode, kind: type) -> bool:
    return any(
        isinstance(v, kind) or (isinstance(v, yaml.MappingNode) and _holds(v, kind))
        for v in _pairs(node).values()
    )


def _text(node: yaml.Node | None) -> str | None:
    """A matrix value's text; None for a list, a mapping or a null (`~`), which speclint does
    not turn into text."""
    if not isinstance(node, yaml.ScalarNode) or node.tag == "tag:yaml.org,2002:null":
        return None
    text: str = node.value
    return text
