"""Small readings of CPython's `ast` nodes that `atoms` asks while it sorts a file's statements."""

from __future__ import annotations

import ast


def root_name(node: ast.expr) -> str:
    """`m` of `m.A.B` ('' when it is not a name)."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else ""


def statement_blocks(node: ast.stmt) -> list[list[ast.stmt]]:
    """The statement lists a compound statement holds (body, else, finally, handlers, cases)."""
    found = [
        getattr(node, name)
        for name in ("body", "orelse", "finalbody")
        if isinstance(getattr(node, name, None), list)
    ]
    found += [handler.body for handler in getattr(node, "handlers", ())]
    found += [case.body for case in getattr(node, "cases", ())]
    return found
