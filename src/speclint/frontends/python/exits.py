"""Statements that end the program where they stand (`raise ...`, `sys.exit(...)`, `exit()`,
`quit()`, `os._exit(...)`), as CPython's `ast` writes them: an `if` arm holding one is not
a path to the code after the `if` (`branches.drop_exits`), so `select` keeps them (and the
`if`s that return, and `assert`s: guards, `guards`)."""

from __future__ import annotations

import ast

_CALLS = frozenset({"exit", "quit", "sys.exit", "os._exit"})


def ends_program(node: ast.stmt) -> bool:
    if isinstance(node, ast.Raise):
        return True
    call = node.value if isinstance(node, ast.Expr) else None
    if not isinstance(call, ast.Call):
        return False
    func = call.func
    if isinstance(func, ast.Name):
        return func.id in _CALLS
    return (
        isinstance(func, ast.Attribute)
        and isinstance(func.value, ast.Name)
        and (f"{func.value.id}.{func.attr}" in _CALLS)
    )


def arm_exits(node: ast.stmt) -> set[int]:
    """The ids of the statements of an `if`'s arms that end the program or return (a guard
    `guards.refuse_guard` reads: `if X is None: raise`, `if not ENABLED: return`)."""
    if not isinstance(node, ast.If):
        return set()
    return {
        id(child)
        for child in (*node.body, *node.orelse)
        if ends_program(child) or isinstance(child, ast.Return)
    }
