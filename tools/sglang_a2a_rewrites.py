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


def read_pplx_attention_dp(sources: Sources) -> dict[str, object] | None:
    """Under `if a2a_backend == "pplx":` (0.5.18+), the attention-DP assert: `assert
    <...>.enable_dp_attention and <...>.dp_size >= N, "..."` (0.5.18-0.5.21) or `assert
    cfg.attn_dp_size >= N, "..."` (0.5.22+) -> {"enabled": "enable_dp_attention" or "", "size":
    the field, "min": N, "message", "where": the function}; None where not found."""
    for _, tree, _ in sources:
        for function in (f for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)):
            for branch in (n for n in ast.walk(function) if isinstance(n, ast.If)):
                if ast.unparse(branch.test) not in (
                    "a2a_backend == 'pplx'",
                    "self.moe_a2a_backend == 'pplx'",
                ):
                    continue
                for stmt in branch.body:
                    found = _pplx_assert(stmt)
                    if found is not None:
                        return {**found, "where": function.name}
    return None


def _pplx_assert(stmt: ast.stmt) -> dict[str, object] | None:
    if not (
        isinstance(stmt, ast.Assert)
        and isinstance(stmt.msg, ast.Constant)
        and isinstance(stmt.msg.value, str)
    ):
        return None
    terms = (
        stmt.test.values
        if isinstance(stmt.test, ast.BoolOp) and isinstance(stmt.test.op, ast.And)
        else [stmt.test]
    )
    enabled = ""
    if len(terms) == 2 and ast.unparse(terms[0]).endswith(".enable_dp_attention"):
        enabled, terms = "enable_dp_attention", terms[1:]
    compared = terms[0] if len(terms) == 1 else None
    if not (
        isinstance(compared, ast.Compare)
        and isinstance(compared.ops[0], ast.GtE)
        and isinstance(compared.comparators[0], ast.Constant)
        and isinstance(compared.comparators[0].value, int)
        and ast.unparse(compared.left).split(".")[-1] in ("dp_size", "attn_dp_size")
    ):
        return None
    return {
        "enabled": enabled,
        "size": ast.unparse(compared.left).split(".")[-1],
        "min": compared.comparators[0].value,
        "message": stmt.msg.value,
    }


def read_a2a_spanning(sources: Sources) -> dict[str, object] | None:
    """0.5.15.post1+ `arg_groups/overrides.py`: `_A2A_EP_SPANNING_BACKENDS = frozenset({...})`,
    the backends whose `_a2a_ep_size` sets ep_size = tp_size -> {"backends": sorted, "logs":
    whether `_a2a_ep_size` itself logs the change (0.5.17+; before, `_handle_a2a_moe` logs each
    backend's own line), "where": "_a2a_ep_size"}; None where there is no such set."""
    backends: list[str] | None = None
    logs = False
    for _, tree, _ in sources:
        for node in tree.body:
            if (
                isinstance(node, ast.Assign)
                and [ast.unparse(t) for t in node.targets] == ["_A2A_EP_SPANNING_BACKENDS"]
                and isinstance(node.value, ast.Call)
                and ast.unparse(node.value.func) == "frozenset"
                and len(node.value.args) == 1
                and isinstance(node.value.args[0], ast.Set)
            ):
                backends = sorted(ast.literal_eval(node.value.args[0]))
            if isinstance(node, ast.FunctionDef) and node.name == "_a2a_ep_size":
                logs = any(
                    isinstance(call, ast.Call) and ast.unparse(call.func).startswith("logger.")
                    for call in ast.walk(node)
                )
    return None if backends is None else {"backends": backends, "logs": logs, "where": "_a2a_ep_size"}
