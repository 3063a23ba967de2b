"""bash associative arrays: `declare -A CFG=([tp]=2 [model]=x)`, `CFG[tp]=4`, `CFG=([a]=1)`
after `declare -A CFG`, and `${CFG[tp]}` / `${CFG[$NAME]}` in a launch.

bash's manual ("Arrays"): `declare -A name` makes an associative array; `name[key]=value` and
`name=([key]=value ...)` assign its elements, the key expanded as a word is (parameter
expansion, command substitution, quote removal: no splitting); `${name[key]}` is one key's
value, unset (empty) when the key was never assigned; `$name` is `${name[0]}`. The manual
gives `${name[@]}` / `${!name[@]}` of an associative array no defined order (bash keeps a hash
table), so those stay unknown, with that reason. The key/value list form `name=(k1 v1 k2 v2)`
is not read: the array is then unknown.

The array is a `VarValue` whose `reason` says so (everything that does not know about keys
reads it as unknown, never guessed) and whose `keys` hold each key's value while every key is
known; a key or an assignment speclint cannot read makes the whole array unknown.
"""

from __future__ import annotations

from speclint.frontends.shell.quoting import unescape_unquoted
from speclint.frontends.shell.variables import Env, VarValue, dynamic_value

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Protocol

    from tree_sitter import Node

    from speclint.core.spans import Span
    from speclint.frontends.shell.text import TextMap

    class Expander(Protocol):
        """What is used here of `expand.Expander` (a `ParameterExpansion`)."""

        tm: TextMap

        def value(self, node: Node | None, origin: Span) -> VarValue: ...

    class Walking(Protocol):
        """What is used here of a `walking.Walking` (which imports this module through `expand`)."""

        tm: TextMap
        env: Env

        def expander(self) -> Expander: ...


Keys = tuple[tuple[str, VarValue], ...]


def unordered(name: str) -> str:
    """Why `${name[@]}` of an associative array is unknown."""
    return f"${name} is an associative array: bash gives its keys and values in no defined order"


def array(name: str, keys: Keys, origin: Span | None) -> VarValue:
    return VarValue(reason=unordered(name), origin=origin, keys=keys)


def declared(walker: Walking, node: Node) -> None:
    """`declare -A NAME`, `declare -A NAME=(...)` (also `local -A`, `typeset -A`)."""
    tm = walker.tm
    for child in node.named_children:
        if child.type == "variable_name":
            name = tm.node_text(child)
            span = tm.node_span(child)
            if name not in walker.env.vars:
                walker.env.assign(name, array(name, (), span))
            else:  # bash keeps an array's keys, or makes a new local one in a function
                walker.env.assign(name, dynamic_value(f"${name} is declared again with `-A`", span))
        elif child.type == "variable_assignment":
            target = child.child_by_field_name("name")
            value_node = child.child_by_field_name("value")
            if target is None or target.type != "variable_name":
                continue
            name = tm.node_text(target)
            if value_node is not None and value_node.type == "array":
                compound(walker, name, value_node)
            else:
                span = tm.node_span(child)
                walker.env.assign(
                    name, dynamic_value(f"${name} is an associative array given a scalar", span)
                )


def compound(walker: Walking, name: str, node: Node) -> None:
    """`NAME=([key]=value ...)` of an associative array: its keys anew."""
    tm = walker.tm
    expander = walker.expander()
    keys: dict[str, VarValue] = {}
    for element in node.named_children:
        if element.type == "comment":
            continue
        entry = _entry(expander, element)
        if isinstance(entry, str):
            walker.env.assign(name, dynamic_value(f"${name}: {entry}", tm.node_span(element)))
            return
        keys[entry[0]] = entry[1]
    walker.env.assign(name, array(name, tuple(keys.items()), tm.node_span(node)))


def element(walker: Walking, name: str, current: VarValue, index: Node | None, value: VarValue) -> None:
    """`NAME[key]=value` of an associative array."""
    key, why = _key(walker.expander(), index)
    if key is None:
        walker.env.assign(name, dynamic_value(f"${name}: {why}", value.origin))
        return
    keys = dict(current.keys or ())
    keys[key] = value
    walker.env.assign(name, array(name, tuple(keys.items()), current.origin))


def lookup(expander: Expander, name: str, value: VarValue, index: Node | None) -> VarValue:
    """`${NAME[key]}`: the key's value, unset when never assigned, or why it is unknown."""
    text = expander.tm.node_text(index) if index is not None else ""
    if text in ("@", "*"):
        return VarValue(reason=unordered(name), origin=value.origin)
    key, why = _key(expander, index)
    if key is None:
        return VarValue(reason=f"${name}[{text}]: {why}", origin=value.origin)
    found = dict(value.keys or ()).get(key)
    return found if found is not None else VarValue(text="", is_set=False, origin=value.origin)


def _key(expander: Expander, index: Node | None) -> tuple[str | None, str]:
    """A subscript's key, expanded as bash expands it (no splitting), or (None, why not)."""
    if index is None:
        return None, "a key speclint cannot read"
    found = expander.value(index, expander.tm.node_span(index))
    if found.reason is not None or found.elements is not None or found.text is None:
        return None, f"the key `{expander.tm.node_text(index)}` is not known ({found.reason or 'an array'})"
    return found.text, ""


def _entry(expander: Expander, node: Node) -> tuple[str, VarValue] | str:
    """`[key]=value`, one element of `NAME=(...)`; why it is not read otherwise (a plain
    word: bash's `NAME=(a b)` of an associative array, read by no form here)."""
    tm = expander.tm
    parts = list(node.children) if node.type == "concatenation" else [node]
    closing = next((i for i, p in enumerate(parts) if p.type == "word" and tm.node_text(p) == "]"), None)
    if (
        closing != 2
        or tm.node_text(parts[0]) != "["
        or len(parts) < 4
        or parts[3].type != "word"
        or not tm.node_text(parts[3]).startswith("=")
    ):
        return f"the element `{tm.node_text(node)}` is not `[key]=value`"
    key, why = _key(expander, parts[1])
    if key is None:
        return why
    start = parts[3].start_byte + 1
    origin = tm.span(start, node.end_byte) if start < node.end_byte else tm.node_span(parts[3])
    texts = [unescape_unquoted(tm.node_text(parts[3])[1:])]
    for part in parts[4:]:
        found = expander.value(part, origin)
        if found.reason is not None or found.text is None:
            return key, VarValue(reason=found.reason or "an array in a value", origin=origin)
        texts.append(found.text)
    return key, VarValue(text="".join(texts), origin=origin)
