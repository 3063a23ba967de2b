"""Names a statement's syntax gives the walker: what an import binds, `import a as b`'s `b`,
and the method `super().NAME(...)` calls."""

from __future__ import annotations

from collections.abc import Callable

from speclint.frontends.python import syntax as py


def imported(
    node: py.Import | py.ImportFrom, dotted: Callable[[py.BaseExpression], str | None]
) -> dict[str, str]:
    """local name -> the dotted name it stands for, of each name an import binds (`dotted`:
    the evaluator's, for the module's written name); nothing for `from m import *`."""
    bound: dict[str, str] = {}
    if isinstance(node, py.Import):
        for alias in node.names:
            full = dotted(alias.name) or ""
            local = as_name(alias) or full.split(".")[0]
            bound[local] = full if alias.asname else local
    elif not isinstance(node.names, py.ImportStar):
        module = dotted(node.module) if node.module else ""
        for alias in node.names:
            name = alias.name.value if isinstance(alias.name, py.Name) else ""
            bound[as_name(alias) or name] = f"{module}.{name}"
    return bound


def as_name(alias: py.ImportAlias) -> str | None:
    """`b` of `import a as b` (an import's `as` target is always a name), None without `as`."""
    if alias.asname is None:
        return None
    name = alias.asname.name
    return name.value if isinstance(name, py.Name) else None


def super_method(call: py.Call) -> str | None:
    """`NAME` of `super().NAME(...)` / `super(C, cls).NAME(...)`, else None."""
    func = call.func
    if (
        isinstance(func, py.Attribute)
        and isinstance(func.value, py.Call)
        and isinstance(func.value.func, py.Name)
        and func.value.func.value == "super"
    ):
        return func.attr.value
    return None
