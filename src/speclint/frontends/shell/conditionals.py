"""`if`, `case`, `&&`/`||`: each arm that may run is walked as one path (`Walker.branches`), and an arm
the script's own values rule out (`static_tests`) is not walked at all, so what it would launch
is never reported. When a single arm must run, it is walked as plain code (no alternatives)."""

from __future__ import annotations

from speclint.frontends.shell import alternatives as alts
from speclint.frontends.shell.static_tests import case_item_matches, decide

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tree_sitter import Node

    from speclint.core.spans import Span
    from speclint.frontends.shell.choices import Choice
    from speclint.frontends.shell.function_defs import Definition
    from speclint.frontends.shell.text import TextMap
    from speclint.frontends.shell.variables import Env
    from speclint.frontends.shell.walking import Walking


def arms_that_may_run(decisions: list[bool | None]) -> tuple[list[int], bool]:
    """Given whether each guarded arm's test is known to pass (True), fail (False) or not known
    (None), in order: the arms that may run, and whether the rest (`else`, or nothing) may."""
    kept: list[int] = []
    for index, decision in enumerate(decisions):
        if decision is False:
            continue
        kept.append(index)
        if decision is True:
            return kept, False
    return kept, True


def if_statement(walker: Walking, node: Node) -> None:
    condition: list[Node] = []
    then_body: list[Node] = []
    groups: list[list[Node]] = [then_body]
    guards: list[list[Node]] = [condition]
    else_body: list[Node] | None = None
    in_then = False
    for child in node.children:
        if child.type == "then":
            in_then = True
        elif child.type == "elif_clause":
            groups.append([c for c in child.children if c.is_named])
            guard: list[Node] = []
            for part in child.children:
                if part.type == "then":
                    break
                if part.is_named:
                    guard.append(part)
            guards.append(guard)
        elif child.type == "else_clause":
            else_body = [c for c in child.children if c.is_named]
        elif child.is_named:
            (then_body if in_then else condition).append(child)
    walker.block(condition)
    arms = alts.if_arms(walker.tm, node, else_body is not None)
    decisions = [decide(guard, walker.tm, walker.env) for guard in guards] if walker.collect else []
    if not any(d is not None for d in decisions):
        if else_body is not None:
            groups.append(else_body)
        walker.branches(groups, else_body is None, walker.line_of(node), arms)
        return
    kept, rest = arms_that_may_run(decisions)
    chosen = [groups[i] for i in kept]
    chosen_arms = [arms[i] for i in kept]
    if rest:
        chosen_arms.append(arms[-1])
        if else_body is not None:
            chosen.append(else_body)
    _walk_arms(walker, node, chosen, rest and else_body is None, chosen_arms)


def case_statement(walker: Walking, node: Node) -> None:
    groups: list[list[Node]] = []
    items: list[Node] = []
    patterns: list[list[Node]] = []
    for item in node.named_children:
        if item.type != "case_item":
            continue
        items.append(item)
        body: list[Node] = []
        written: list[Node] = []
        after_pattern = False
        for child in item.children:
            if child.type == ")":
                after_pattern = True
            elif after_pattern and child.is_named:
                body.append(child)
            elif not after_pattern and child.is_named:
                written.append(child)
        groups.append(body)
        patterns.append(written)
    tm = walker.tm
    catch_all = any(
        c.type in ("extglob_pattern", "word") and tm.node_text(c) == "*"
        for item in items
        for c in item.children
        if c.type != ")"
    )
    arms = alts.case_arms(tm, node, items)
    if catch_all:
        arms = arms[:-1]
    subject = node.child_by_field_name("value")
    falls_through = any(c.type in (";&", ";;&") for item in items for c in item.children)
    decisions: list[bool | None] = []
    if walker.collect and subject is not None and not falls_through:
        decisions = [case_item_matches(subject, written, tm, walker.env) for written in patterns]
    if not any(d is not None for d in decisions):
        walker.branches(groups, not catch_all, walker.line_of(node), arms)
        return
    kept, rest = arms_that_may_run(decisions)
    rest = rest and not catch_all
    _walk_arms(
        walker, node, [groups[i] for i in kept], rest, [arms[i] for i in kept] + (arms[-1:] if rest else [])
    )


def and_or_list(walker: Walking, node: Node) -> None:
    """`LEFT && RIGHT` / `LEFT || RIGHT`: RIGHT is one more path, or, when LEFT is a test the
    script's values decide, plain code that surely runs or is surely skipped."""
    named = node.named_children
    if not named:
        return
    walker.block(named[:1])
    line = walker.line_of(node)
    for left, child in zip(named, named[1:]):
        decided = decide([left], walker.tm, walker.env) if walker.collect and len(named) == 2 else None
        if decided is None:
            walker.branches([[child]], True, line, alts.list_arms(walker.tm, node, left, child))
            continue
        operator = next((c.type for c in node.children if c.type in ("&&", "||")), "&&")
        if decided == (operator == "&&"):
            walker.block([child])


def _walk_arms(
    walker: Walking, node: Node, groups: list[list[Node]], fallthrough: bool, arms: list[Choice]
) -> None:
    """Walk the arms that may run: as one path when only one may."""
    if len(groups) + fallthrough > 1:
        walker.branches(groups, fallthrough, walker.line_of(node), arms)
    elif groups:
        walker.block(groups[0])


def join_branches(
    walker: Walking, groups: list[list[Node]], fallthrough: bool, line: int, arms: list[Choice] | None
) -> None:
    """Walk each group from the same state, then join the paths that go on past the construct:
    an arm that surely runs `exit` (`*) echo usage; exit 1 ;;`) ends its path, so what it
    assigned never reaches the commands after it (unless every path exits: then all are kept)."""
    base, image = walker.env, walker.image
    results: list[Env] = []
    images: list[tuple[str | None, Span | None] | None] = []
    ends: list[bool] = []
    for group in groups:
        walker.env, walker.image = base.copy(), image
        walker.block(group)
        results.append(walker.env)
        images.append(walker.image)
        ends.append(surely_exits(walker.tm, group, walker.definitions))
    if fallthrough:
        results.append(base)
        images.append(image)
        ends.append(False)
    if not all(ends):
        kept = [i for i, ended in enumerate(ends) if not ended]
        if arms is not None and len(arms) == len(results):
            arms = [arms[i] for i in kept]
        results = [results[i] for i in kept]
        images = [images[i] for i in kept]
    # a `pip install sglang==X` on some paths only: its launches read the path's own pin
    # (`python_runners.PIN_VARIABLE`); what this shell hands on keeps the one before
    walker.image = images[0] if len(set(images)) == 1 else image
    merged = base.copy()
    arms = arms if arms and len(arms) == len(results) else None
    merged.merge_from(results, line, arms)
    if arms is not None and any(r.positional != results[0].positional for r in results[1:]):
        from speclint.frontends.shell.set_positional import join_positional

        join_positional(merged, results, arms, line)  # `if [ $# -eq 0 ]; then set -- ...; fi`
    walker.env = merged


def surely_exits(
    tm: TextMap,
    nodes: list[Node],
    functions: dict[str, Definition] | None = None,
    seen: frozenset[str] = frozenset(),
) -> bool:
    """Whether running these statements in order surely reaches a plain `exit` of this shell
    (one written at their top level or in a `{ ...; }` group, not in a subshell or a branch,
    or in the `{ ...; }` body of a function they call: `usage() { echo ...; exit 1; }`)."""
    for node in nodes:
        kind = node.type
        if kind == "redirected_statement":
            body = node.child_by_field_name("body")
            kind, node = (body.type, body) if body is not None else (kind, node)
        if kind == "command":
            name = node.child_by_field_name("name")
            text = tm.node_text(name) if name is not None else ""
            if text == "exit":
                return True
            called = (functions or {}).get(text)
            if (
                called is not None
                and text not in seen
                and called.body.type == "compound_statement"
                and surely_exits(called.tm, called.body.named_children, functions, seen | {text})
            ):
                return True
        elif kind == "compound_statement" and surely_exits(tm, node.named_children, functions, seen):
            return True
    return False
