"""Lists and dicts changed in place: `cmd += [...]`, `cmd.append(x)`, `cmd.extend(xs)`,
`cfg.update(...)`, `cfg |= {...}` keep their values known; `.insert`, `.pop` and the like make them unknown.
A value that remembers `if` arms (`branches`) is changed arm by arm. Apart from `walker`,
which hands each such statement here, because it is about values, not the order of statements.
"""

from __future__ import annotations

from speclint.frontends.python import syntax as py
from speclint.frontends.python.branches import each
from speclint.frontends.python.scan import value_key
from speclint.frontends.python.values import Entries, Entry, bounded, val_with

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.frontends.python.values import Val
    from speclint.frontends.python.walking import Walking


def augment(walker: Walking, node: py.AugAssign, key: str) -> None:
    """`key += value` (any other operator makes `key` unknown)."""
    current = walker.env.get(key)
    if isinstance(node.operator, py.BitOrAssign) and current is not None and current.kind == "dict":
        entries = Entries(current.entries)  # `d |= other`: other's keys update d's (PEP 584)
        entries.merge(walker.evaluator().eval(node.value), walker.pos.span(node.value))
        walker.env[key] = bounded(val_with(current, value=entries.list()))
    elif isinstance(node.operator, py.AddAssign) and current is not None:
        added = walker.evaluator().eval(node.value)
        walker.env[key] = each(current, lambda value: bounded(_extended(value, added))) or bounded(
            _extended(current, added)
        )
    else:
        walker.env[key] = walker.evaluator().unknown(
            node.target,
            f"`{key}` is changed by `{node.operator.TEXT}`",
        )


def _extended(current: Val, added: Val) -> Val:
    if current.kind == "list" and added.kind == "list":
        return val_with(current, value=list(current.elements) + list(added.elements))
    if current.kind == "str" and added.kind == "str":
        return val_with(current, pieces=current.pieces + added.pieces)
    if current.kind == "list":
        return val_with(
            current,
            value=list(current.elements)
            + [val_with(added, kind="unknown", splat=True, reason=added.why_unknown())],
        )
    return val_with(added, kind="unknown", reason="changed with a value not known statically")


def mutate(walker: Walking, call: py.Call) -> None:
    """`cmd.append(x)`, `cmd.extend(xs)`, `cmd.insert(i, x)`, `cfg.update(...)`."""
    func = call.func
    name = value_key(func.value) if isinstance(func, py.Attribute) else None
    if name is None or not isinstance(func, py.Attribute):  # a name only for an attribute
        return
    method = func.attr.value
    current = walker.env.get(name)
    if current is not None and current.alternatives:  # after `if` arms: change each choice
        changed = each(current, lambda value: _mutated(walker, value, name, method, call))
        assert changed is not None  # `each` gives None only for a value without alternatives
        walker.env[name] = changed
        return
    if current is None or current.kind not in ("list", "dict"):
        return
    mutated = _mutated(walker, current, name, method, call)
    if mutated is not None:
        walker.env[name] = mutated


def _mutated(walker: Walking, current: Val, name: str, method: str, call: py.Call) -> Val | None:
    """`current` after `name.method(...)`, None when the call does not change it."""
    if current.kind not in ("list", "dict"):
        return None
    ev = walker.evaluator()
    args = [  # `cmd.extend(f"--{k}={v}" for k, v in cfg.items())`: the generator read as a list
        ev._ListComp(a.value) if isinstance(a.value, py.GeneratorExp) else ev.eval(a.value)
        for a in call.args
        if not a.keyword
    ]
    if current.kind == "list" and method == "append" and len(args) == 1:
        return bounded(val_with(current, value=list(current.elements) + args))
    if current.kind == "list" and method == "extend" and len(args) == 1:
        return bounded(_extended(current, args[0]))
    if current.kind == "dict" and method == "update":
        entries = Entries(current.entries)
        for arg in call.args:
            if arg.keyword is not None:
                entries.set(Entry(arg.keyword.value, walker.pos.span(arg.keyword), ev.eval(arg.value)))
            else:
                entries.merge(ev.eval(arg.value), walker.pos.span(arg))
        return bounded(val_with(current, value=entries.list()))
    if method in ("insert", "pop", "remove", "clear", "setdefault", "sort", "reverse"):
        unknown = ev.unknown(call, f"`{name}` is changed by .{method}()", splat=current.kind == "list")
        return val_with(current, value=[unknown]) if current.kind == "list" else unknown
    return None


def unpack(walker: Walking, target: py.BaseExpression, value: Val) -> bool:
    """`a, b = X, Y` (or `[a, b] = [X, Y]`, a list value read earlier): each name gets its
    element, as Python binds them, when the counts match and nothing is starred; False
    (nothing assigned) otherwise."""
    if not isinstance(target, (py.Tuple, py.List)) or value.kind != "list":
        return False
    items = value.value if isinstance(value.value, list) else []
    elements = target.elements
    if len(items) != len(elements) or any(
        isinstance(e, py.StarredElement) or getattr(item, "splat", False) for e, item in zip(elements, items)
    ):
        return False
    for element, item in zip(elements, items):
        walker.assign(element.value, item)
    return True


def assign_item(walker: Walking, target: py.Subscript, name: py.Name, value: Val) -> None:
    """`NAME[KEY] = value`: a dict of known entries gets the entry (KEY known text); any other
    value of NAME becomes unknown."""
    current = walker.env.get(name.value)
    index = target.slice[0].slice if len(target.slice) == 1 else None
    text = walker.evaluator().eval(index.value).text if isinstance(index, py.Index) else None
    if current is not None and current.kind == "dict" and text is not None and isinstance(index, py.Index):
        entries = Entries(current.entries)
        entries.set(Entry(text, walker.pos.span(index), value))
        walker.env[name.value] = bounded(val_with(current, value=entries.list()))
    elif current is not None:
        walker.assign_unknown(name, f"`{name.value}` is changed by an assignment")
