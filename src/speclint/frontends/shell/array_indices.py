"""`${!NAME[@]}` of an indexed array whose elements the script sets: its indices, 0 to n-1.

bash manual, "Arrays": "${!name[@]} and ${!name[*]} expand to the indices assigned in array
variable name". The arrays tracked here are dense (`assignments` reads `X[i]=v` only up to the
next index), so the indices are 0 to n-1; a set scalar is an array of one element, index 0.
An associative array's keys have no defined order and an array of unknown length
(`($(scontrol ...))`) unknown indices: both are left to the caller, which says so.
"""

from __future__ import annotations

from speclint.core.words import Word

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from tree_sitter import Node

    from speclint.frontends.shell.text import TextMap
    from speclint.frontends.shell.variables import Env


def indices(tm: TextMap, env: Env, node: Node, target: Node) -> tuple[tuple[Word, ...], bool] | None:
    """The indices of `${!NAME[@]}` (node: the expansion, target: its `NAME[@]`) as words
    written at the expansion, and whether they are joined (`[*]`); None when not known."""
    if target.type != "subscript":
        return None
    name_node = target.child_by_field_name("name")
    index_node = target.child_by_field_name("index")
    index = tm.node_text(index_node) if index_node is not None else ""
    if name_node is None or index not in ("@", "*"):
        return None
    value = env.get(tm.node_text(name_node))
    if value is None or value.reason is not None or value.keys is not None:
        return None
    span = tm.node_span(node)
    elements = value.elements
    if elements is None:
        elements = (Word("", span),) if value.is_set else ()
    if any(w.text is None and w.splat for w in elements):
        return None
    return tuple(Word(str(k), span, value.origin) for k in range(len(elements))), index == "*"


def subscript_position(index: str, known: Callable[[str], str | None]) -> int | None:
    """The subscript of an indexed array, an arithmetic expression bash evaluates
    (`${D_IP[$i]}`, `${NODES[i + 1]}`), when the script's own integers decide it (`known`: a
    variable's text) and it is not negative (counted from the end in bash: left unknown here)."""
    from speclint.frontends.shell.arithmetic import evaluate

    position = evaluate(index, known)
    return position if position is not None and position >= 0 else None
