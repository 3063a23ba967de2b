"""The values of variables per choice of branch arms (`alternatives`): which names a command
expands, each consistent choice of arms for them, and the environment one choice gives. A leaf
of the shell front-end (`alternatives` and `set_positional` both ask it).
"""

from __future__ import annotations

from itertools import product

from speclint.core.launches import MAX_ALTERNATIVES

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tree_sitter import Node

    from speclint.core.spans import Span
    from speclint.frontends.shell.arms import Choice
    from speclint.frontends.shell.text import TextMap
    from speclint.frontends.shell.variables import Env, VarValue

POSITIONAL = "__speclint_positional"
"""The hidden variable whose alternatives are the positional parameters on each path
(`set_positional`)."""
_MAX_PRODUCT = 256
"""Combinations looked at before the consistent ones are counted (several variables)."""


def combinations(
    env: Env, names: list[str]
) -> list[tuple[tuple[Choice, ...], dict[str, VarValue | None]]] | None:
    """Each consistent choice of arms for the variables `names` that have alternatives:
    (the choices, the values to use: name -> VarValue or None for unassigned), or None when
    none of them has alternatives or there would be more than MAX_ALTERNATIVES."""
    lists = []
    for name in dict.fromkeys(names):
        value = env.vars.get(name)
        if value is not None and value.alternatives:
            lists.append((name, value.alternatives))
    if not lists:
        return None
    total = 1
    for _, alternatives in lists:
        total *= len(alternatives)
    if total > _MAX_PRODUCT:
        return None
    found = []
    for combo in product(*(alternatives for _, alternatives in lists)):
        chosen: dict[tuple[str, Span], Choice] = {}
        consistent = True
        for choices, _ in combo:
            for choice in choices:
                if chosen.setdefault(choice.construct, choice).arm != choice.arm:
                    consistent = False
        if not consistent:
            continue
        ordered = tuple(
            sorted(chosen.values(), key=lambda c: (c.condition.span.line, c.condition.span.column))
        )
        found.append((ordered, {name: value for (name, _), (_, value) in zip(lists, combo)}))
        if len(found) > MAX_ALTERNATIVES:
            return None
    return found or None


_WHOLE_WORDS = frozenset(
    {"command", "array", "string", "concatenation", "expansion", "simple_expansion", "word", "number"}
)
"""What a command or an assignment's value is: never a part of an arithmetic expression."""


def referenced_names(node: Node, tm: TextMap) -> list[str]:
    """Names of the variables a node expands (`$X`, `${X...}`, `${X[@]}`), in order."""
    data = tm.data
    raw = data[node.start_byte : node.end_byte]
    if node.type in _WHOLE_WORDS and raw.find(b"((") < 0 and raw.find(b"$[") < 0 and not node.has_error:
        return _names_at_dollars(node, raw, node.start_byte, tm)
    names: list[str] = []
    stack = [node]
    while stack:
        current = stack.pop()
        kind = current.type
        if kind == "simple_expansion" or kind == "expansion":
            _add_name(current, tm, names)
        elif kind == "variable_name" and current.parent is not None and _in_arithmetic(current):
            names.append(tm.node_text(current))  # `$((30000 + i))`: i without its `$`
        stack.extend(reversed(current.named_children))
    return names


def _names_at_dollars(node: Node, raw: bytes, start: int, tm: TextMap) -> list[str]:
    """`referenced_names` of a node with no arithmetic (the only place a name is read without
    its `$`): the expansions are the nodes a `$` opens, met in the order of the walk (an
    expansion starts before those inside it), found from each `$` instead of from every node."""
    names: list[str] = []
    at = raw.find(b"$")
    while at >= 0:
        position = start + at
        token = node.descendant_for_byte_range(position, position + 1)
        if token is not None and not token.is_named and token.start_byte == position:
            opened = token.parent
            if opened is not None and opened.start_byte == position:
                kind = opened.type
                if kind == "simple_expansion" or kind == "expansion":
                    _add_name(opened, tm, names)
        at = raw.find(b"$", at + 1)
    return names


def _add_name(expansion: Node, tm: TextMap, names: list[str]) -> None:
    for child in expansion.named_children:
        if child.type == "variable_name":
            names.append(tm.node_text(child))
            return
        if child.type == "subscript":
            name = child.child_by_field_name("name")
            if name is not None:
                names.append(tm.node_text(name))
            return


def _in_arithmetic(node: Node) -> bool:
    parent = node.parent
    while parent is not None:
        if parent.type in ("arithmetic_expansion", "simple_expansion", "expansion"):
            return parent.type == "arithmetic_expansion"
        parent = parent.parent
    return False


def with_values(base: Env, values: dict[str, VarValue | None]) -> Env:
    """`base` with the variables set as one choice of branch arms sets them."""
    env = base.copy()
    for name, value in values.items():
        if value is None:
            env.vars.pop(name, None)
        else:
            env.vars[name] = value
            if name == POSITIONAL:  # the words of `set --` on this path (`set_positional`)
                env.positional = value.elements
                if value.elements is None and value.reason is not None:
                    env.positional_reason = value.reason  # (unknown on this path: why)
    return env


# ---- the arms of each construct, as a note reads them ("when ...") --------------------------
