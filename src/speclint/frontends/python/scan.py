"""Helpers of the Python walker: finding calls in a statement, joining branch environments."""

from __future__ import annotations

from collections import ChainMap
from dataclasses import replace

from speclint.core.records import dataclass
from speclint.frontends.python import syntax as py
from speclint.frontends.python.positions import Positions
from speclint.frontends.python.values import Scope, attribute_key
from speclint.frontends.shell.embedded import ArgvItem
from speclint.frontends.shell.pieces import Piece

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping, Sequence
    from typing import TypeGuard, TypeVar

    from speclint.frontends.python.evaluator import Evaluator
    from speclint.frontends.python.nodes import Range
    from speclint.frontends.python.positions import RangeLookup
    from speclint.frontends.python.values import Env, Val

    _N = TypeVar("_N", bound=py.Node)

_NOT_CODE = frozenset(
    {
        "lpar",
        "rpar",
        "leading_lines",
        "lines_after_decorators",
        "trailing_whitespace",
        "comma",
        "dot",
        "equal",
        "colon",
        "semicolon",
        "operator",
        "lbracket",
        "rbracket",
        "lbrace",
        "rbrace",
        "header",
        "footer",
        "newline",
        "asynchronous",
    }
)
_FIELDS: dict[tuple[type, bool], tuple[str, ...]] = {}


def _fields(kind: type, code_only: bool) -> tuple[str, ...]:
    names = _FIELDS.get((kind, code_only))
    if names is None:
        every: tuple[str, ...] = getattr(kind, "FIELDS", ())
        names = tuple(name for name in every if not code_only or name not in _NOT_CODE)
        _FIELDS[kind, code_only] = names
    return names


def descendants(node: py.Node, code_only: bool, prune: tuple[type, ...] = ()) -> Iterator[py.Node]:
    """`node` and the nodes under it, by reading their fields. `code_only` skips
    operators and `async` markers; `prune` types are yielded but not entered. Not in
    document order (an IfExp's test comes before its body)."""
    stack = [node]
    while stack:
        node = stack.pop()
        yield node
        kind = type(node)
        if prune and is_a(kind, prune):
            continue
        for name in _fields(kind, code_only):
            value = getattr(node, name)
            if isinstance(value, (list, tuple)):
                stack.extend(item for item in value if is_a(type(item), py.Node))
            elif is_a(type(value), py.Node):
                stack.append(value)


_IS_A: dict[tuple[type, type | tuple[type, ...]], bool] = {}


def is_a(kind: type, classes: type | tuple[type, ...]) -> bool:
    """`issubclass`, remembered (a dictionary lookup where `issubclass` walks the MRO)."""
    found = _IS_A.get((kind, classes))
    if found is None:
        found = _IS_A[kind, classes] = issubclass(kind, classes)
    return found


def node_is(node: py.Node, kind: type[_N]) -> TypeGuard[_N]:
    """`isinstance` for one node class, remembered per node type (`is_a`)."""
    return is_a(type(node), kind)


_NESTED = (py.Lambda, py.FunctionDef)


_LEAVES = (py.Name, py.SimpleString, py.Integer, py.Float, py.Imaginary, py.FormattedStringText, py.Ellipsis)
"""Node classes whose fields are text only: no call under them."""


class _NodeClasses(dict[type, bool]):
    """Class -> whether it is a node class that may hold a call (not a leaf: `_LEAVES`),
    worked out on first use (a lookup, where `is_a` is a call per value)."""

    def __missing__(self, kind: type) -> bool:
        found = self[kind] = issubclass(kind, py.Node) and not issubclass(kind, _LEAVES)
        return found


_NODE_CLASSES = _NodeClasses()
_CALL_FACTS: dict[type, tuple[bool, bool, tuple[str, ...]]] = {}
"""Node class -> (is a Call, not entered by `calls_in`, its code fields)."""


def calls_in(node: py.Node, ranges: RangeLookup) -> list[py.Call]:
    """Every call in `node`, outermost first (then in file order), not inside lambdas or
    nested functions. The walk of `descendants(node, True, _NESTED)`, with what it asks of
    a node class looked up once per class: the walker runs it on every statement."""
    found: list[py.Call] = []
    stack = [node]
    facts, nodes = _CALL_FACTS, _NODE_CLASSES
    while stack:
        node = stack.pop()
        kind = type(node)
        known = facts.get(kind)
        if known is None:
            known = facts[kind] = (is_a(kind, py.Call), is_a(kind, _NESTED), _fields(kind, True))
        is_call, pruned, names = known
        if is_call and isinstance(node, py.Call):  # isinstance: for the type checker
            found.append(node)
        if pruned:
            continue
        for name in names:
            value = getattr(node, name)
            if isinstance(value, (list, tuple)):
                stack.extend([item for item in value if nodes[type(item)]])
            elif nodes[type(value)]:
                stack.append(value)
    if len(found) > 1:
        found.sort(key=lambda call: _order(ranges[call]))
    return found


def may_call(pos: object, node: py.Node) -> bool:
    """False when `node`, read with `Positions`, has no `(` in its text as written: it makes
    no call (every call is written with one), so `calls_in` would find none."""
    if type(pos) is not Positions or not pos.source:
        return True
    line, column, end_line, end_column = pos.ranges[node]
    starts = pos.source_starts
    return "(" in pos.source[starts[line - 1] + column : starts[end_line - 1] + end_column]


def _order(code_range: Range) -> tuple[int, int, int, int]:
    line, column, end_line, end_column = code_range
    return line, column, -end_line, -end_column


def same_value(a: Val, b: Val) -> bool:
    if a is b:
        return True
    if a.kind != b.kind or a.kind == "unknown":
        return False
    value_a, known_a = a.python()
    value_b, known_b = b.python()
    return known_a and known_b and value_a == value_b and type(value_a) is type(value_b)


def merge_envs(
    before: Mapping[str, Val],
    results: Sequence[Mapping[str, Val]],
    ev: Evaluator,
    names: set[str] | None = None,
) -> dict[str, Val]:
    """The environment after alternative paths: a value all paths agree on is kept; a list
    that paths extended differently keeps the common start and then an unknown number of
    elements; anything else becomes unknown. With `names`, only those (the ones some path
    assigned) are merged and returned: the walker then costs nothing per unchanged name."""
    merged: dict[str, Val] = {}
    if names is None:
        names = {name for env in results for name in env}
    for name in names:
        values = [env.get(name) for env in results]
        first = values[0]
        if first is not None and all(v is not None and same_value(first, v) for v in values):
            merged[name] = first
            continue
        present = [v for v in values if v is not None]
        sample = present[0]
        shown = name[1:] if name.startswith("@") else name  # `@self.X`: an attribute (attribute_key)
        reason = f"`{shown}` is assigned differently on different paths (line {sample.span.line})"
        if all(v.kind == "list" for v in present) and len(present) == len(values):
            lists = [list(v.elements) for v in present]
            prefix: list[Val] = []
            for items in zip(*lists):
                if all(item is items[0] for item in items):
                    prefix.append(items[0])
                else:
                    break
            tail = replace(
                sample, kind="unknown", value=None, pieces=[], reason=reason, splat=True, alternatives=None
            )
            base = before.get(name) or sample  # a Val is always true
            merged[name] = replace(base, value=prefix + [tail], alternatives=None)
            continue
        merged[name] = replace(
            sample, kind="unknown", value=None, pieces=[], reason=reason, alternatives=None
        )
    return merged


@dataclass(frozen=True, slots=True)
class Elif:
    """The `else` arm that is an `elif`, and the `if` it belongs to."""

    node: py.If
    top: py.If


def value_key(node: py.Node) -> str | None:
    """Where the walker keeps the value of `node`: a name, or `self.X` / `cls.X`."""
    if isinstance(node, py.Name):
        return node.value
    return attribute_key(node) if isinstance(node, py.Attribute) else None


def snapshot(env: Env) -> Env:
    """A nested function's view of its enclosing function's values at definition: the
    function's own layer copied, the layers below it are never written again."""
    if isinstance(env, ChainMap):
        return Scope(dict(env.maps[0]), *env.maps[1:])
    return dict(env)


def argv_item(value: Val) -> ArgvItem:
    if value.shell_code and value.kind == "str":
        return ArgvItem(value.pieces, code=True)
    if value.splat or (value.kind == "unknown" and value.splat):
        return ArgvItem(
            [Piece(None, value.begin, value.end, reason=value.why_unknown())], splat=True, origin=value.origin
        )
    if value.kind == "list":  # a nested list is not a word: unknown to the shell too
        return ArgvItem([Piece(None, value.begin, value.end, reason="a list inside the argv")], splat=True)
    if value.kind == "str":
        return ArgvItem(
            value.pieces
            if value.origin is None
            else [
                Piece(
                    value.text,
                    value.begin,
                    value.end,
                    reason=value.why_unknown(),
                    identity=value.word_identity,
                )
            ],
            origin=value.origin,
        )
    text = value.text
    return ArgvItem(
        [
            Piece(
                text,
                value.begin,
                value.end,
                reason=None if text is not None else value.why_unknown(),
                identity=value.word_identity,
            )
        ],
        origin=value.origin,
    )


def target_names(target: py.Node) -> list[py.Name]:
    if isinstance(target, py.Name):
        return [target]
    if isinstance(target, (py.Tuple, py.List)):
        return [n for e in target.elements for n in target_names(e.value)]
    if isinstance(target, py.StarredElement):
        return target_names(target.value)
    return []
