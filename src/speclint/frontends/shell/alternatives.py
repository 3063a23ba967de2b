"""Values chosen by a branch: `if ...; then TP=8; else TP=4; fi ... --tp-size $TP`.

Where the paths through an `if`, `case` or `&&`/`||` disagree on a variable, the variable
stays dynamic (so anything that does not know about alternatives still never guesses) but also
remembers each path's value with the arm that gives it. A command that uses such variables is
then walked once per consistent choice of arms, and each launch it yields is marked as one
`core.launches.Alternative`: the engine checks every alternative and reports a finding once, saying
on which branch it happens. Bounded by `MAX_ALTERNATIVES`; beyond, the value is dynamic.
"""

from __future__ import annotations

from speclint.frontends.recognise import names_launcher
from speclint.frontends.shell.arm_values import POSITIONAL, combinations, referenced_names, with_values
from speclint.frontends.shell.builtin_commands import changes_variables, function_effects
from speclint.frontends.shell.set_positional import reads_positional

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tree_sitter import Node

    from speclint.frontends.shell.arms import Choice
    from speclint.frontends.shell.text import TextMap
    from speclint.frontends.shell.walking import Walking

_PIN = "__speclint_pip_pin"
"""`python_runners.PIN_VARIABLE`: the release `pip install sglang==X` installed on this path."""


def walk_alternatives(walker: Walking, node: Node) -> bool:
    """Walk a command once per choice of branch arms when it uses values chosen by a
    branch (each launch it yields is one alternative); False when it does not."""
    name_node = node.child_by_field_name("name")
    name = walker.tm.node_text(name_node) if name_node is not None else ""
    raw = walker.tm.data[node.start_byte : node.end_byte]
    called = name in walker.functions  # a call read once per choice (`functions`)
    evaluated = name == "eval"  # `eval $CMD`, CMD set by an `if`: its code read per choice
    if (changes_variables(walker, name) and not called and not evaluated) or b":=" in raw:
        return False
    names = referenced_names(node, walker.tm)
    pin = walker.env.vars.get(_PIN)
    if pin is not None and pin.alternatives and names_launcher(raw):
        names.append(_PIN)  # a launch after `pip install sglang==X` on some paths only
    if reads_positional(walker.env, names, raw):  # `$1` after `set -- $cfg` in a loop
        names.append(POSITIONAL)
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
        if evaluated and walker.env.poison is not None and base.poison != walker.env.poison:
            base.poison_all(walker.env.poison)  # (code on this path may set any variable)
    walker.env, walker.alternative = base, outer
    if called:
        function_effects(walker, name, walker.line_of(node))
    return True


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
