"""Comprehensions and `for` loops over values the file writes out.

Launch wrappers keep SGLang's flags in a dict and turn it into argv words:
`cmd += [item for k, v in FLAGS.items() for item in (f"--{k}", str(v))]` (Modal's SGLang
example), or `for flag, value in FLAGS.items(): cmd.extend([flag, value])`. When the iterable
is a list, tuple or dict whose elements (or keys) the file writes out, each element binds the
loop's names in turn (Python's iteration order: a list's order, a dict's insertion order), so
the words are known and point where they are written. Anything else (an unknown iterable, an
`if` clause, a body that may `break`) stays as before: the loop's names are unknown.
"""

from __future__ import annotations

from speclint.frontends.python import syntax as py
from speclint.frontends.python.values import Val, bounded, val_with
from speclint.frontends.shell.pieces import Piece

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from speclint.core.spans import Span

    Bound = dict[str, Val]
    Scoped = Callable[[Bound], Callable[[py.BaseExpression], Val]]

MAX_ITERATIONS = 64
"""Elements a loop or comprehension is followed through; more, and its names are unknown."""
Item = Val | tuple[Val, Val]
"""One element of an iterable: a value, or a dict's (key, value) pair from `.items()`."""


def _key(entry_key: str, span: Span, starts: list[int]) -> Val:
    """A dict key as a str value written where the key is."""
    begin = starts[span.line - 1] + span.column - 1
    end = starts[span.end_line - 1] + span.end_column - 1
    return Val("str", span, begin, end, pieces=[Piece(entry_key, begin, end)])


def elements(
    node: py.BaseExpression, evaluate: Callable[[py.BaseExpression], Val], starts: list[int]
) -> list[Item] | None:
    """The elements `for ... in node` goes through, or None when they are not all known."""
    if (
        isinstance(node, py.Call)
        and isinstance(node.func, py.Name)
        and node.func.value == "enumerate"
        and len(node.args) == 1
        and not node.args[0].keyword
        and not node.args[0].star
    ):  # `for i, role in enumerate(["prefill", "decode"])`: (index, element) pairs
        inner = elements(node.args[0].value, evaluate, starts)
        values = [item for item in inner or () if isinstance(item, Val)]
        if inner is None or len(values) != len(inner):
            return None
        at = evaluate(node.func)  # (the index is written nowhere: it stands at `enumerate`)
        return [(Val("const", at.span, at.begin, at.end, number), item) for number, item in enumerate(values)]
    method = None
    if isinstance(node, py.Call) and isinstance(node.func, py.Attribute) and not node.args:
        method = node.func.attr.value
        if method not in ("items", "keys", "values"):
            return None
        node = node.func.value
    value = evaluate(node)
    if value.alternatives:
        return None
    if value.kind == "list" and method is None:
        items: list[Item] = list(value.elements)
        if any(e.splat for e in value.elements):
            return None
    elif value.kind == "dict":
        entries = value.entries
        if any(e.key is None for e in entries):
            return None
        keys = [_key(e.key or "", e.key_span, starts) for e in entries]
        if method == "items":
            items = [(k, e.value) for k, e in zip(keys, entries)]
        else:
            items = [e.value for e in entries] if method == "values" else list(keys)
    else:
        return None
    if len(items) > MAX_ITERATIONS:
        return None
    return [_in_place(item) for item in items]


def _in_place(item: Item) -> Item:
    """The element read where it is written (`Val.in_place`)."""
    if isinstance(item, tuple):
        return (val_with(item[0], in_place=True), val_with(item[1], in_place=True))
    return val_with(item, in_place=True)


def bind(target: py.BaseExpression, item: Item) -> Bound | None:
    """The names `target` takes from one element, or None when it does not unpack it."""
    if isinstance(target, py.Name):
        return {target.value: item} if isinstance(item, Val) else None
    if not isinstance(target, (py.Tuple, py.List)):
        return None
    parts: list[Item] = (
        list(item) if isinstance(item, tuple) else list(item.elements) if item.kind == "list" else []
    )
    names = target.elements
    if len(parts) != len(names) or any(isinstance(n, py.StarredElement) for n in names):
        return None
    bound: Bound = {}
    for name, part in zip(names, parts):
        inner = bind(name.value, part)
        if inner is None:
            return None
        bound.update(inner)
    return bound


def comprehension(node: py.ListComp | py.GeneratorExp, scoped: Scoped, starts: list[int]) -> list[Val] | None:
    """The elements of `[ELT for T in ITER ...]` (no `if` clauses), or None."""
    out: list[Val] = []

    def run(clause: py.CompFor, names: Bound) -> bool:
        if clause.ifs or clause.asynchronous is not None:
            return False
        items = elements(clause.iter, scoped(names), starts)
        for item in items or []:
            bound = bind(clause.target, item)
            if bound is None:
                return False
            inner = {**names, **bound}
            if clause.inner_for_in is not None:
                if not run(clause.inner_for_in, inner):
                    return False
            else:
                out.append(scoped(inner)(node.elt))
                if len(out) > MAX_ITERATIONS:
                    return False
        return items is not None

    return [bounded(v) for v in out] if run(node.for_in, {}) else None


_EXITS: tuple[type, ...] = (py.Break, py.Continue, py.Return, py.Raise, py.Yield, py.Await)
_OWN_SCOPES = (py.FunctionDef, py.ClassDef, py.Lambda)


def _exits(body: py.Node, kinds: tuple[type, ...] = _EXITS) -> bool:
    """Whether a statement leaves a loop body early (`break`, `continue`, `return`, ...: of
    `kinds`), not inside a nested function, class or lambda."""
    stack: list[object] = [body]
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            stack.extend(node)
            continue
        if isinstance(node, kinds):
            return True
        if isinstance(node, py.Node) and not isinstance(node, _OWN_SCOPES):
            stack.extend(getattr(node, name) for name in node.FIELDS)
    return False


def loop_bindings(
    node: py.For, evaluate: Callable[[py.BaseExpression], Val], starts: list[int]
) -> list[Bound] | None:
    """The names each pass of a `for` loop binds, when every pass is known and its body runs
    through (no `break`, `return`, no `else`; a `continue` is the walker's to follow:
    `loop_passes`), or None."""
    if node.orelse is not None or node.asynchronous is not None:
        return None
    if _exits(node.body, tuple(kind for kind in _EXITS if kind is not py.Continue)):
        return None
    items = elements(node.iter, evaluate, starts)
    if items is None:
        return None
    bound = [bind(node.target, item) for item in items]
    return None if any(b is None for b in bound) else [b for b in bound if b is not None]


def continues(body: py.Node) -> bool:
    """Whether a loop body has a `continue` of its own (not in a nested function or class)."""
    return _exits(body, (py.Continue,))
