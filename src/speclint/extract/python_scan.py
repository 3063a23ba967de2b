"""Helpers of the Python walker: finding calls in a statement, joining branch environments."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

import libcst as cst

from .python_values import Evaluator, Val


def calls_in(node: cst.CSTNode) -> list[cst.Call]:
    """Every call in `node`, outermost first, not inside lambdas or comprehensions' own
    scopes (their variables are unknown anyway)."""
    found: list[cst.Call] = []

    class Visitor(cst.CSTVisitor):
        def visit_Call(self, call: cst.Call) -> None:
            found.append(call)

        def visit_Lambda(self, _node: cst.Lambda) -> bool:
            return False

        def visit_FunctionDef(self, _node: cst.FunctionDef) -> bool:
            return False

    node.visit(Visitor())
    return found


def _same(a: Val, b: Val) -> bool:
    if a is b:
        return True
    if a.kind != b.kind or a.kind == "unknown":
        return False
    value_a, known_a = a.python()
    value_b, known_b = b.python()
    return known_a and known_b and value_a == value_b and type(value_a) is type(value_b)


def merge_envs(before: Mapping[str, Val], results: list[Mapping[str, Val]], ev: Evaluator,
               names: set[str] | None = None) -> dict[str, Val]:
    """The environment after alternative paths: a value all paths agree on is kept; a list
    that paths extended differently keeps the common start and then an unknown number of
    elements; anything else becomes unknown. With `names`, only those (the ones some path
    assigned) are merged and returned: the walker then costs nothing per unchanged name."""
    merged: dict[str, Val] = {}
    if names is None:
        names = {name for env in results for name in env}
    for name in names:
        values = [env.get(name) for env in results]
        first = values[0]
        if first is not None and all(v is not None and _same(first, v) for v in values):
            merged[name] = first
            continue
        present = [v for v in values if v is not None]
        sample = present[0]
        reason = f"`{name}` is assigned differently on different paths (line {sample.span.line})"
        if all(v.kind == "list" for v in present) and len(present) == len(values):
            lists = [list(v.value) for v in present]  # type: ignore[arg-type]
            prefix = []
            for items in zip(*lists):
                if all(item is items[0] for item in items):
                    prefix.append(items[0])
                else:
                    break
            tail = replace(sample, kind="unknown", value=None, pieces=[], reason=reason, splat=True)
            base = before.get(name) if before.get(name) is not None else sample
            merged[name] = replace(base, value=prefix + [tail])
            continue
        merged[name] = replace(sample, kind="unknown", value=None, pieces=[], reason=reason)
    return merged
