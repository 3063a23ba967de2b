"""Values chosen by `if`/`elif`/`else` arms, kept as alternatives (issue 14).

`kwargs = dict(...)` then `kwargs.update(...)` in one arm per algorithm before
`sgl.Engine(**kwargs)`: after the `if`, `kwargs` is unknown for everything else, but it
remembers the value each arm leaves (`Val.alternatives`). A launch call reading such names
directly is emitted once per choice, each marked `core.launches.Alternative` with the arms that
make it (names set by the same `if` go together; different `if`s multiply), at most
MAX_ALTERNATIVES; beyond, the launch sees the unknown value as before.
"""

from __future__ import annotations

from dataclasses import replace

from speclint.core.launches import MAX_ALTERNATIVES, Alternative, Condition
from speclint.core.spans import Span
from speclint.frontends.python import syntax as py
from speclint.frontends.python.scan import descendants, same_value
from speclint.frontends.python.values import attribute_key

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import TypeVar

    from speclint.core.launches import Launch
    from speclint.frontends.python.values import Choice, Val
    from speclint.frontends.python.walking import Walking

    Path = TypeVar("Path")


def is_main_guard(test: py.BaseExpression) -> bool:
    """`__name__ == "__main__"` (either side): the block a file runs when it is run as a
    script, which is how a launch script's launch runs, so it is walked as code that runs
    (its `os.environ` settings hold for the functions it calls), not as a branch."""
    if not isinstance(test, py.Comparison) or len(test.comparisons) != 1:
        return False
    target = test.comparisons[0]
    if not isinstance(target.operator, py.Equal):
        return False
    sides = (test.left, target.comparator)
    names = [side for side in sides if isinstance(side, py.Name) and side.value == "__name__"]
    texts = [
        side
        for side in sides
        if isinstance(side, py.SimpleString)
        and side.value[:1] in "'\""
        and side.value.strip("'\"") == "__main__"
    ]
    return len(names) == 1 and len(texts) == 1


def walk_decided(walker: Walking, node: py.If, top: py.If | None) -> bool:
    """Walk only the arm that runs when the file's own values decide the test
    (`conditions.decided`; not in SGLang's own source, not in a loop body read once for all its
    passes); False, walking nothing, when the test decides nothing."""
    from speclint.frontends.python.conditions import decided

    ev = walker.evaluator()
    truth = decided(ev, node.test, ev.rebound) if walker.pos.relocates and ev.deciding else None
    if truth is None:
        return False
    orelse = node.orelse
    if truth:
        walker.block(node.body.body)
    elif isinstance(orelse, py.If):
        walker.if_statement(orelse, top or node)
    elif orelse is not None:
        walker.block(orelse.body.body)
    return True


class ElseIf(Condition):
    """The arm of an `elif`: its own arms say when, unless they leave one value (`else:
    sys.exit()` beside it), which then reads "the `if` branch at line N is not taken"."""

    __slots__ = ()


EXIT_CALLS = frozenset({"sys.exit", "exit", "quit", "os._exit"})


def surely_exits(walker: Walking, group: object) -> bool:
    """Whether an arm's statements end the program at their top level (`raise ...`,
    `sys.exit(...)`, `exit()`, `os._exit(...)`): the code after the `if` never runs on it."""
    if not isinstance(group, (list, tuple)):
        return False  # (an `elif`: its own arms are read so)
    for statement in group:
        for small in statement.body if isinstance(statement, py.SimpleStatementLine) else ():
            if isinstance(small, py.Raise):
                return True
            call = small.value if isinstance(small, py.Expr) else None
            if isinstance(call, py.Call):
                name = walker.evaluator().dotted(call.func) or ""
                if walker.imports.get(name, name) in EXIT_CALLS:
                    return True
    return False


def drop_exits(
    walker: Walking, groups: Sequence[object], results: list[Path], conditions: list[Condition | None] | None
) -> tuple[list[Path], list[Condition | None] | None]:
    """The paths that go on past the construct: those of arms that surely exit are dropped
    (all kept when every arm exits)."""
    ends = [surely_exits(walker, group) for group in groups] + [False] * (len(results) - len(groups))
    if not any(ends) or all(ends):
        return results, conditions
    kept = [i for i, ended in enumerate(ends) if not ended]
    if conditions is not None and len(conditions) == len(results):
        conditions = [conditions[i] for i in kept]
    return [results[i] for i in kept], conditions


def arm_conditions(walker: Walking, node: py.If, top: py.If | None) -> list[Condition | None]:
    """One condition per arm of `node` (the `if`/`elif` body, then the `else` arm): an
    `ElseIf` for an `else` that is an `elif` (its own arms say when). `top`: the `if` of an
    `elif`."""
    start = walker.pos.span(node)
    keyword = "elif" if top is not None else "if"
    conditions: list[Condition | None] = [
        Condition(
            Span(start.line, start.column, start.line, start.column + len(keyword)),
            f"the `{keyword}` branch at line {start.line} runs",
        )
    ]
    orelse = node.orelse
    if isinstance(orelse, py.If):
        conditions.append(
            ElseIf(
                Span(start.line, start.column, start.line, start.column + len(keyword)),
                f"the `{keyword}` branch at line {start.line} is not taken",
            )
        )
    elif orelse is not None:
        where = walker.pos.span(orelse)
        conditions.append(
            Condition(
                Span(where.line, where.column, where.line, where.column + 4),
                f"the `else` branch at line {where.line} runs",
            )
        )
    else:
        first = walker.pos.span(top) if top is not None else start
        conditions.append(
            Condition(
                Span(first.line, first.column, first.line, first.column + 2),
                f"no branch of the `if` at line {first.line} runs",
            )
        )
    return conditions


def with_alternatives(merged: Val, values: list[Val | None], conditions: list[Condition | None]) -> Val:
    """`merged` (the unknown value after the arms) remembering what each arm left, when every
    arm left a value and there are at most MAX_ALTERNATIVES choices."""
    if merged.kind not in ("unknown", "list") or any(v is None for v in values):
        return merged
    too_many = replace(merged, alternatives=())  # () : more than the bound, in an arm too
    choices: list[Choice] = []
    for value, condition in zip(values, conditions):
        assert value is not None  # every arm left a value (checked above)
        own: tuple[Condition, ...] = (condition,) if condition is not None else ()
        if isinstance(condition, ElseIf) and value.alternatives:
            own = ()  # the `elif`'s own arms say when
        if value.alternatives == ():
            return too_many
        if value.alternatives:
            choices += [(own + conds, alt) for conds, alt in value.alternatives]
        else:
            choices.append((own, value))
        if len(choices) > MAX_ALTERNATIVES:
            return too_many
    if all(same_value(choices[0][1], other) for _, other in choices[1:]):
        return merged
    return replace(merged, alternatives=tuple(choices))


def each(value: Val, change: Callable[[Val], Val | None]) -> Val | None:
    """`change` applied to each alternative of `value` (`kwargs.update(...)` after the `if`),
    or None when `value` has none."""
    if not value.alternatives:
        return None
    changed = tuple((conds, change(alt) or alt) for conds, alt in value.alternatives)
    return replace(value, alternatives=changed)


def choices_for(
    walker: Walking, call: py.BaseExpression
) -> list[tuple[tuple[Condition, ...], dict[str, Val]]] | None:
    """The choices a launch call makes, as names → the value each choice gives them, or None
    when it reads no name with alternatives (or too many combinations)."""
    read: dict[str, Val] = {}
    for node in descendants(call, True, (py.Lambda,)):
        key = (
            node.value
            if isinstance(node, py.Name)
            else attribute_key(node)
            if isinstance(node, py.Attribute)
            else None
        )
        if key is not None and key not in read:
            value = walker.env.get(key)
            if value is not None and value.alternatives:
                read[key] = value
    if not read:
        return None
    groups: dict[tuple[tuple[Condition, ...], ...], list[tuple[str, Val]]] = {}
    for name, value in read.items():  # names one `if` set go together
        alternatives = value.alternatives or ()  # read only names with alternatives
        groups.setdefault(tuple(conds for conds, _ in alternatives), []).append((name, value))
    combos: list[tuple[tuple[Condition, ...], dict[str, Val]]] = [((), {})]
    for signature, members in groups.items():
        combos = [
            (so_far + conds, {**values, **{name: _alternatives(value)[i][1] for name, value in members}})
            for so_far, values in combos
            for i, conds in enumerate(signature)
        ]
        if len(combos) > MAX_ALTERNATIVES:
            return None
    return combos


def _alternatives(value: Val) -> tuple[Choice, ...]:
    """The alternatives of a value `choices_for` read (it reads only values that have some)."""
    return value.alternatives or ()


def mark(
    launches: list[Launch], conditions: tuple[Condition, ...], index: int, count: int, span: Span
) -> None:
    for launch in launches:
        launch.alternative = Alternative(conditions, index, count)
        launch.span = span
