"""Shell assignments as the walker meets them: `X=...`, `X+=...`, `ARR[i]=...`, `export`,
`declare`/`local`/`typeset` with their options, `unset`. A value that depends on a branch keeps
one value per choice of arms (`choices`)."""

from __future__ import annotations

from dataclasses import replace

from speclint.core.words import Word
from speclint.frontends.shell import arm_values as alts
from speclint.frontends.shell.text import NAME_FIELD, VALUE_FIELD
from speclint.frontends.shell.variables import VarValue, appended, dynamic_value, rests_on_environment

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tree_sitter import Node

    from speclint.core.spans import Span
    from speclint.frontends.shell.walking import Walking


def assignment(walker: Walking, node: Node, exported: bool = False, array: bool = False) -> None:
    target = node.child_by_field_id(NAME_FIELD)
    if target is None:
        return
    value_node = node.child_by_field_id(VALUE_FIELD)
    tm = walker.tm
    append = tm.data.find(b"+=", node.start_byte, node.end_byte) >= 0 and any(
        not c.is_named and c.type == "+=" for c in node.children
    )  # (the bytes first: most assignments have no `+=`, and the children cost more)
    origin = tm.node_span(value_node) if value_node is not None else tm.span(node.end_byte, node.end_byte)
    if target.type == "subscript":
        _element_assignment(walker, target, value_node, origin)
        return
    name = tm.node_text(target)
    current = walker.env.vars.get(name)
    if current is not None and current.keys is not None:  # an associative array (`assoc_arrays`)
        from speclint.frontends.shell import assoc_arrays

        if value_node is not None and value_node.type == "array" and not append:
            assoc_arrays.compound(walker, name, value_node)
        else:
            why = f"${name} is an associative array assigned {'with `+=`' if append else 'a scalar'}"
            walker.env.assign(name, dynamic_value(why, origin))
        return
    names: list[str] = []
    combos = None
    if walker.env.has_alternatives:  # a value can only depend on a branch after one
        names = alts.referenced_names(value_node, tm) if value_node is not None else []
        positional = walker.env.vars.get(alts.POSITIONAL)
        if (
            positional is not None
            and positional.alternatives
            and any(n.isdigit() or n in "@*#" for n in names)
        ):
            names.append(alts.POSITIONAL)  # `MODEL=$1` after `set --` on some paths only
        combos = alts.combinations(walker.env, names + [name] if append else names)
    if combos is None:
        value = _assigned_value(walker, name, value_node, origin, append, array)
    else:  # the value depends on a branch: one value per choice of arms
        base = walker.env
        found = []
        for choices, values in combos:
            walker.env = alts.with_values(base, values)
            found.append((choices, _assigned_value(walker, name, value_node, origin, append, array)))
        walker.env = base
        reason = next(
            base.vars[n].reason for n in names + [name] if n in base.vars and base.vars[n].alternatives
        )
        value = VarValue(reason=reason, origin=origin, alternatives=tuple(found))
    if exported:
        value = value.marked(True, value.assumed)
    walker.env.assign(name, value)


def _assigned_value(
    walker: Walking, name: str, value_node: Node | None, origin: Span, append: bool, array: bool
) -> VarValue:
    value = _marked(walker, walker.expander().value(value_node, origin), value_node)
    if value.reason is None and array and value.elements is None:
        value = VarValue(
            elements=(Word(value.text or "", origin, origin),), origin=origin, assumed=value.assumed
        )
    if append:
        current = walker.env.get(name)
        joined = appended(current, value, name, origin)
        if (
            current is not None
            and joined.text is not None
            and joined.elements is None
            and current.text is not None
        ):
            from speclint.frontends.shell.written_chars import appended_chars

            chars = appended_chars(  # `CMD+=" --tp 2"`
                walker.tm,
                (current.text, current.written, current.origin),
                (value.text or "", value.written, value.origin),
                joined.text,
            )
            if chars is not None:
                joined = replace(joined, written=chars)
        value = joined
    return value


def _marked(walker: Walking, value: VarValue, value_node: Node | None) -> VarValue:
    """`value`, `assumed` when it was computed from a variable the environment may set."""
    if (
        value.reason is not None
        or value_node is None
        or walker.tm.data.find(b"$", value_node.start_byte, value_node.end_byte) < 0
    ):
        return value
    if rests_on_environment(walker.env, alts.referenced_names(value_node, walker.tm)):
        return value.marked(value.exported, True)
    return value


def _element_assignment(walker: Walking, target: Node, value_node: Node | None, origin: Span) -> None:
    name_node = target.child_by_field_name("name")
    index_node = target.child_by_field_name("index")
    if name_node is None:
        return
    name = walker.tm.node_text(name_node)
    current = walker.env.get(name)
    index = walker.tm.node_text(index_node) if index_node is not None else ""
    value = _marked(walker, walker.expander().value(value_node, origin), value_node)
    if current is not None and current.keys is not None:  # `CFG[tp]=4` (`assoc_arrays`)
        from speclint.frontends.shell.assoc_arrays import element

        element(walker, name, current, index_node, value)
        return
    elements = current.elements if current is not None and current.reason is None else None
    if elements is None and current is None:
        elements = ()
    if elements is not None and index.isdigit() and int(index) <= len(elements) and value.reason is None:
        word = Word(value.text or "", origin, origin)
        position = int(index)
        updated = elements[:position] + (word,) + elements[position + 1 :]
        assumed = value.assumed or (current is not None and current.assumed)
        walker.env.assign(name, VarValue(elements=updated, origin=origin, assumed=assumed))
    else:
        walker.env.assign(name, dynamic_value(f"${name}[{index}] is assigned dynamically", origin))


def declaration(walker: Walking, node: Node) -> None:
    keyword = node.children[0].type if node.children else ""
    exported = keyword == "export"
    unexport = False
    array = False
    if any(c.type == "word" and _option_has(walker.tm.node_text(c), "f") for c in node.children[1:]):
        _function_names(walker, node, keyword)
        return
    for child in node.children[1:]:
        kind = child.type
        if kind == "word":
            option = walker.tm.node_text(child)
            if option.startswith("-") and not option.startswith("--"):
                if "A" in option and "n" not in option:
                    from speclint.frontends.shell.assoc_arrays import declared

                    declared(walker, node)  # `declare -A CFG=([tp]=2)` (`assoc_arrays`)
                    return
                if "A" in option or ("n" in option and keyword != "export"):
                    _dynamic_declared(walker, node, "associative array or name reference")
                    return
                exported = exported or "x" in option
                array = array or "a" in option
                unexport = unexport or (keyword == "export" and "n" in option)
            elif option.startswith("+") and "x" in option:
                unexport = True
        elif kind == "variable_assignment":
            assignment(walker, child, exported=exported and not unexport, array=array)
        elif kind == "variable_name":
            name = walker.tm.node_text(child)
            if exported or unexport:
                walker.env.set_exported(name, not unexport, walker.tm.node_span(child))


def _option_has(word: str, letter: str) -> bool:
    return word[:1] in "-+" and not word.startswith("--") and letter in word[1:]


def _function_names(walker: Walking, node: Node, keyword: str) -> None:
    """`export -f NAME`, `declare -fx NAME`: the functions passed to the bash shells this
    one starts (`export -nf`, `declare +fx`: no longer); `declare -f NAME` only prints."""
    options = [walker.tm.node_text(c) for c in node.children[1:] if c.type == "word"]
    exported = keyword == "export" or any(o[:1] == "-" and _option_has(o, "x") for o in options)
    unexport = any(o[:1] == "+" and _option_has(o, "x") for o in options) or (
        keyword == "export" and any(o[:1] == "-" and _option_has(o, "n") for o in options)
    )
    for child in node.children[1:]:
        if child.type in ("variable_name", "word") and not walker.tm.node_text(child).startswith(("-", "+")):
            name = walker.tm.node_text(child)
            if unexport:
                walker.exported_functions.discard(name)
            elif exported:
                walker.exported_functions.add(name)


def _dynamic_declared(walker: Walking, node: Node, what: str) -> None:
    for child in node.named_children:
        target = child.child_by_field_name("name") if child.type == "variable_assignment" else child
        if target is not None and target.type == "variable_name":
            name = walker.tm.node_text(target)
            walker.env.assign(name, dynamic_value(f"${name} is an {what}", walker.tm.node_span(child)))


def unset(walker: Walking, node: Node) -> None:
    for child in node.named_children:
        if child.type in ("variable_name", "word"):
            name = walker.tm.node_text(child)
            if not name.startswith("-"):
                walker.env.vars[name] = VarValue(text="", is_set=False, origin=walker.tm.node_span(child))
