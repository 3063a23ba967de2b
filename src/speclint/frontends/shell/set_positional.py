"""`set -- $cfg` where `$cfg` has a value per branch or loop iteration (`alternatives`):
`for cfg in "1 8" "2 4"; do set -- $cfg; ... --dp $1 --chunked-prefill-size $2`.

bash's manual ("The Set Builtin"): after `set --` the remaining arguments are assigned to the
positional parameters, `$1` the first; they are the words the arguments expand to, so an
unquoted `$cfg` gives one parameter per word it splits into. The words are read once per
choice of arms that gives `$cfg` its value, and kept as the alternatives of a hidden variable
(`POSITIONAL`): a command that reads `$1`, `$@` ... is then walked once per choice, with those
words as its positional parameters (`arm_values.with_values`). A choice whose words are not
all known leaves the parameters unknown on that path, with the reason.
"""

from __future__ import annotations

from speclint.frontends.shell.arm_values import POSITIONAL, combinations, referenced_names, with_values
from speclint.frontends.shell.choices import arm_alternatives
from speclint.frontends.shell.variables import VarValue

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tree_sitter import Node

    from speclint.frontends.shell.arms import Choice
    from speclint.frontends.shell.variables import Env
    from speclint.frontends.shell.walking import Walking


def set_alternatives(walker: Walking, node: Node, line: int) -> bool:
    """`set -- WORDS` whose words depend on a branch or loop: the positional parameters kept
    per choice of arms; False when they do not (read as one set of words)."""
    base = walker.env
    names = referenced_names(node, walker.tm)
    combos = combinations(base, names)
    if combos is None:
        return False
    found = []
    try:
        for choices, values in combos:
            walker.env = with_values(base, values)
            _, args = walker.expander().command_words(node)
            texts = [a.word.text for a in args]
            if "--" not in texts[1:]:
                return False
            words = tuple(a.word for a in args[texts.index("--", 1) + 1 :])
            found.append((choices, VarValue(elements=words, origin=walker.tm.node_span(node))))
    finally:
        walker.env = base
    reason = f"the words `set --` gives at line {line} depend on a branch or loop"
    base.positional = None
    base.positional_reason = reason
    base.assign(POSITIONAL, VarValue(reason=reason, alternatives=tuple(found)))
    return True


def join_positional(env: Env, branches: list[Env], arms: list[Choice], where: int) -> bool:
    """The paths through a branch at line `where` leave different positional parameters
    (`if [ $# -eq 0 ]; then set -- --model-path X; fi`): each path's words (or why they are
    unknown there: the script's own arguments) kept per arm, as the alternatives of
    `POSITIONAL`; False when no path's words are known (then they stay unknown)."""
    values: list[VarValue | None] = []
    for branch in branches:
        kept = branch.vars.get(POSITIONAL)
        if kept is not None and kept.alternatives:
            values.append(kept)
        elif branch.positional is not None:
            values.append(VarValue(elements=branch.positional))
        else:
            values.append(VarValue(reason=branch.positional_reason))
    found = arm_alternatives(values, arms)
    if found is None:
        return False
    reason = f"the positional parameters differ on the paths through the branch at line {where}"
    env.positional = None
    env.positional_reason = reason
    env.assign(POSITIONAL, VarValue(reason=reason, alternatives=found))
    return True


def forget(env: Env) -> None:
    """The positional parameters are set anew (`set --`, a function call) or shifted: the
    words kept per choice no longer hold."""
    if POSITIONAL in env.vars:
        del env.vars[POSITIONAL]


def shift_alternatives(env: Env, by: int | None, line: int) -> bool:
    """`shift [N]` after such a `set --`: each choice's words less the first N (bash: none
    dropped when N is more than `$#`); False when no words are kept per choice."""
    value = env.vars.get(POSITIONAL)
    if value is None or not value.alternatives:
        return False
    reason = f"{env.positional_reason}, after the `shift` at line {line}"
    env.positional_reason = reason
    shifted = []
    for choices, words in value.alternatives:
        elements = words.elements if words is not None else None
        if words is not None and elements is None and words.reason is not None:
            shifted.append((choices, VarValue(reason=f"{words.reason}, after the `shift` at line {line}")))
        elif words is None or elements is None or by is None or any(w.splat for w in elements[:by]):
            shifted.append((choices, VarValue(reason=reason)))
        else:
            kept = elements[by:] if by <= len(elements) else elements
            shifted.append((choices, VarValue(elements=kept, origin=words.origin)))
    env.assign(POSITIONAL, VarValue(reason=reason, alternatives=tuple(shifted)))
    return True


def reads_positional(env: Env, names: list[str], raw: bytes) -> bool:
    """Whether a command reads the positional parameters kept per choice of arms."""
    value = env.vars.get(POSITIONAL)
    if value is None or not value.alternatives:
        return False
    return any(name.isdigit() for name in names) or any(
        token in raw for token in (b"$@", b"${@", b"$*", b"${*", b"$#", b"${#}")
    )
