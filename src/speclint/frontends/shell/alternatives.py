"""Values chosen by a branch: `if ...; then TP=8; else TP=4; fi ... --tp-size $TP`.

Where the paths through an `if`, `case` or `&&`/`||` disagree on a variable, the variable
stays dynamic (so anything that does not know about alternatives still never guesses) but also
remembers each path's value with the arm that gives it. A command that uses such variables is
then walked once per consistent choice of arms, and each launch it yields is marked as one
`core.launches.Alternative`: the engine checks every alternative and reports a finding once, saying
on which branch it happens. Bounded by `MAX_ALTERNATIVES`; beyond, the value is dynamic.
"""

from __future__ import annotations

from itertools import product

from speclint.core.launches import MAX_ALTERNATIVES
from speclint.frontends.recognise import names_launcher
from speclint.frontends.shell.builtin_commands import changes_variables, function_effects

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tree_sitter import Node

    from speclint.core.spans import Span
    from speclint.frontends.shell.arms import Choice
    from speclint.frontends.shell.text import TextMap
    from speclint.frontends.shell.variables import Env, VarValue
    from speclint.frontends.shell.walking import Walking

_PIN = "__speclint_pip_pin"
"""`python_runners.PIN_VARIABLE`: the release `pip install sglang==X` installed on this path."""
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


def walk_alternatives(walker: Walking, node: Node) -> bool:
    """Walk a command once per choice of branch arms when it uses values chosen by a
    branch (each launch it yields is one alternative); False when it does not."""
    name_node = node.child_by_field_name("name")
    name = walker.tm.node_text(name_node) if name_node is not None else ""
    raw = walker.tm.data[node.start_byte : node.end_byte]
    called = name in walker.functions  # a call read once per choice (`functions`)
    if (changes_variables(walker, name) and not called) or b":=" in raw:
        return False
    names = referenced_names(node, walker.tm)
    pin = walker.env.vars.get(_PIN)
    if pin is not None and pin.alternatives and names_launcher(raw):
        names.append(_PIN)  # a launch after `pip install sglang==X` on some paths only
    combos = combinations(walker.env, names)
    if combos is None:
        return False
    from speclint.core.conditions import Alternative

    base, outer = walker.env, walker.alternative
    for index, (choices, values) in enumerate(combos):
        conditions = tuple(choice.condition for choice in choices)
        if outer is None:
            walker.alternative = Alternative(conditions, index, len(combos))
        else:
            walker.alternative = Alternative(
                outer.conditions + conditions, outer.index * len(combos) + index, outer.count * len(combos)
            )
        walker.env = with_values(base, values)
        walker.walk_command(node)
    walker.env, walker.alternative = base, outer
    if called:
        function_effects(walker, name, walker.line_of(node))
    return True


def with_values(base: Env, values: dict[str, VarValue | None]) -> Env:
    """`base` with the variables set as one choice of branch arms sets them."""
    env = base.copy()
    for name, value in values.items():
        if value is None:
            env.vars.pop(name, None)
        else:
            env.vars[name] = value
    return env


# ---- the arms of each construct, as a note reads them ("when ...") --------------------------


def _short(tm: TextMap, node: Node) -> str:
    text = " ".join(tm.node_text(node).split())
    return text if len(text) <= 40 else text[:37] + "..."


def if_arms(tm: TextMap, node: Node, has_else: bool) -> list[Choice]:
    """then, each elif, else (or the fallthrough when there is no else)."""
    from speclint.core.conditions import Condition
    from speclint.frontends.shell.arms import Choice

    key = ("if", tm.node_span(node))
    line = tm.node_span(node).line
    arms: list[Choice] = []
    for child in node.children:
        if child.type == "then" and not arms:
            span = tm.node_span(child)
            arms.append(Choice(key, 0, Condition(span, f"the `then` branch at line {span.line} runs")))
        elif child.type in ("elif_clause", "else_clause"):
            keyword = child.children[0] if child.children else child
            span = tm.node_span(keyword)
            word = "elif" if child.type == "elif_clause" else "else"
            arms.append(
                Choice(key, len(arms), Condition(span, f"the `{word}` branch at line {span.line} runs"))
            )
    if not has_else:
        span = tm.node_span(node.children[0]) if node.children else tm.node_span(node)
        what = (
            "no branch of the `if` at line {} is taken"
            if len(arms) > 1
            else "the `if` at line {} is not taken"
        )
        arms.append(Choice(key, len(arms), Condition(span, what.format(line))))
    return arms


def case_arms(tm: TextMap, node: Node, items: list[Node]) -> list[Choice]:
    """Each case item, then the fallthrough (no pattern matches)."""
    from speclint.core.conditions import Condition
    from speclint.frontends.shell.arms import Choice

    key = ("case", tm.node_span(node))
    arms: list[Choice] = []
    for item in items:
        patterns = [c for c in item.children if c.type == ")"]
        end = patterns[0].start_byte if patterns else item.start_byte
        span = tm.span(item.start_byte, end)
        pattern = " ".join(tm.data[item.start_byte : end].decode("utf-8", "replace").split())
        arms.append(
            Choice(key, len(arms), Condition(span, f"the `{pattern})` case at line {span.line} runs"))
        )
    span = tm.node_span(node.children[0]) if node.children else tm.node_span(node)
    arms.append(
        Choice(key, len(arms), Condition(span, f"no pattern of the `case` at line {span.line} matches"))
    )
    return arms


def list_arms(tm: TextMap, node: Node, left: Node, right: Node) -> list[Choice]:
    """`LEFT && RIGHT` / `LEFT || RIGHT`: RIGHT runs, or it does not."""
    from speclint.core.conditions import Condition
    from speclint.frontends.shell.arms import Choice

    key = ("list", tm.span(right.start_byte, right.end_byte))
    operator = next((c.type for c in node.children if c.type in ("&&", "||")), "&&")
    span = tm.node_span(left)
    runs, skips = ("succeeds", "fails") if operator == "&&" else ("fails", "succeeds")
    left_text = _short(tm, left)
    return [
        Choice(key, 0, Condition(span, f"`{left_text}` at line {span.line} {runs}")),
        Choice(key, 1, Condition(span, f"`{left_text}` at line {span.line} {skips}")),
    ]
