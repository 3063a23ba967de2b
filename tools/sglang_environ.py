"""What a release's `sglang/srt/environ.py` declares: `NAME = EnvInt(<int>)`,
`NAME = EnvBool(<bool>)` and the like, read statically (one reader for every generator)."""

from __future__ import annotations

import ast


def declared(environ: str | None, name: str, kind: str, value_type: type) -> object | None:
    """environ.py's `NAME = <kind>(<constant of value_type>)` -> the constant; None where the
    file is missing or declares NAME otherwise."""
    if environ is None:
        return None
    for stmt in ast.walk(ast.parse(environ)):
        if (
            isinstance(stmt, ast.Assign)
            and [ast.unparse(t) for t in stmt.targets] == [name]
            and isinstance(stmt.value, ast.Call)
            and ast.unparse(stmt.value.func) == kind
            and len(stmt.value.args) == 1
            and isinstance(stmt.value.args[0], ast.Constant)
            and isinstance(stmt.value.args[0].value, value_type)
        ):
            return stmt.value.args[0].value
    return None


def env_int(environ: str | None, name: str) -> int | None:
    """environ.py's `NAME = EnvInt(<int>)` -> the int."""
    found = declared(environ, name, "EnvInt", int)
    return found if isinstance(found, int) else None
