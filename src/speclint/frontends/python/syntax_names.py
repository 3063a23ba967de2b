"""Names a statement's syntax gives the walker: `import a as b`'s `b`, and the method
`super().NAME(...)` calls."""

from __future__ import annotations

from speclint.frontends.python import syntax as py


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
