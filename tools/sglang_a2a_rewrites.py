"""Read, statically (`ast`, never imported), the --moe-a2a-backend values SGLang's resolution
rewrites whatever the platform (0.5.16+: `if (... == "none" and is_npu()) or
....moe_a2a_backend == "ascend_tp": self.moe_a2a_backend = "none"`, 0.5.19+ the same through
`declare_resolution(..., moe_a2a_backend="none")`); used by tools/gen_sglang_moe_defaults.py
(`a2a_rewrites`)."""

from __future__ import annotations

import ast

from sglang_moe_runner_asserts import Sources


def read_a2a_rewrites(sources: Sources) -> dict[str, dict[str, str]] | None:
    """{value: {"to": the value set, "where": the function}} for each `if` whose test is an `or`
    with a bare `<...>.moe_a2a_backend == "V"` term (a platform-free one; or a local assigned
    `<...>.moe_a2a_backend`) and whose body's first
    statement sets moe_a2a_backend to a constant; None where there is none."""
    found: dict[str, dict[str, str]] = {}
    for _, tree, _ in sources:
        for function in (f for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)):
            names = {  # 0.5.19+: `a2a_now = resolved_view(server_args).moe_a2a_backend`
                ast.unparse(a.targets[0])
                for a in ast.walk(function)
                if isinstance(a, ast.Assign)
                and len(a.targets) == 1
                and isinstance(a.targets[0], ast.Name)
                and ast.unparse(a.value).endswith(".moe_a2a_backend")
            }
            for branch in (n for n in ast.walk(function) if isinstance(n, ast.If)):
                terms = branch.test.values if isinstance(branch.test, ast.BoolOp) else [branch.test]
                if not isinstance(branch.test, ast.BoolOp) or not isinstance(branch.test.op, ast.Or):
                    continue
                values = [
                    t.comparators[0].value
                    for t in terms
                    if isinstance(t, ast.Compare)
                    and (ast.unparse(t.left).endswith(".moe_a2a_backend") or ast.unparse(t.left) in names)
                    and isinstance(t.ops[0], ast.Eq)
                    and isinstance(t.comparators[0], ast.Constant)
                    and isinstance(t.comparators[0].value, str)
                ]
                to = _sets(branch.body[0]) if branch.body else None
                for value in values:
                    if to is not None and to != value:
                        found[value] = {"to": to, "where": function.name}
    return found or None


def _sets(stmt: ast.stmt) -> str | None:
    """`<...>.moe_a2a_backend = "X"` or `declare_resolution(..., moe_a2a_backend="X")` -> X."""
    if (
        isinstance(stmt, ast.Assign)
        and len(stmt.targets) == 1
        and ast.unparse(stmt.targets[0]).endswith(".moe_a2a_backend")
        and isinstance(stmt.value, ast.Constant)
        and isinstance(stmt.value.value, str)
    ):
        return stmt.value.value
    call = stmt.value if isinstance(stmt, ast.Expr) else None
    if isinstance(call, ast.Call) and ast.unparse(call.func) == "declare_resolution":
        named = [k.value for k in call.keywords if k.arg == "moe_a2a_backend"]
        if len(call.keywords) == 1 and named and isinstance(named[0], ast.Constant):
            return str(named[0].value)
    return None
