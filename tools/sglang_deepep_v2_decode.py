"""Read, statically (`ast`, never imported), `validate_deepep_v2_dispatch_token_budget`'s decode
CUDA-graph check (0.5.19+) from a release's arg_groups/; used by tools/gen_sglang_moe_defaults.py
(reading `deepep_v2_decode`).

The check: `capacity = envs.V.get()`; a prefill server (`view.disaggregation_mode ==
"prefill"`) and decode CUDA graphs off (`... .backend == Backend.DISABLED`) return; `graph_bs =
<decode config>.max_bs or 0`, lowered with --max-running-requests to `max(1,
view.max_running_requests // A)`, A the attention-DP size (0.5.19-0.5.22: `view.dp_size if
view.enable_dp_attention else 1`; 0.5.23: `view.attn_dp_size`), times the tokens per request
(1 without a speculative algorithm); above `capacity`: `raise ValueError(f"...")`. The graph's
size is read in the check or in the helper it calls (0.5.22+
`_decode_graph_dispatch_tokens_per_rank`).

-> {"variable": V, "default": environ.py's `V = EnvInt(N)`, "message": the f-string with
`{required}` (the graph's tokens), `{capacity}`, `{requests}` and `{tokens}` (per request),
"attention_dp": "dp_size_if_enabled" or "attn_dp_size", "where": the check's name}; None where
any part has another form."""

from __future__ import annotations

import ast

from sglang_environ import env_int

Sources = list[tuple[str, ast.Module, str]]
CHECK = "validate_deepep_v2_dispatch_token_budget"
HELPER = "_decode_graph_dispatch_tokens_per_rank"
_NAMES = {
    "graph_tokens": "{required}",
    "capacity": "{capacity}",
    "graph_bs": "{requests}",
    "tokens_per_req": "{tokens}",
}
_ATTENTION_DP = {
    "view.dp_size if view.enable_dp_attention else 1": "dp_size_if_enabled",
    "view.attn_dp_size": "attn_dp_size",
}


def read_deepep_v2_decode(sources: Sources, environ: str | None) -> dict[str, object] | None:
    functions = {
        f.name: f for _, tree, _ in sources for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)
    }
    check = functions.get(CHECK)
    if check is None:
        return None
    capacity = [
        ast.unparse(s.value)
        for s in ast.walk(check)
        if isinstance(s, ast.Assign) and ast.unparse(s.targets[0]) == "capacity"
    ]
    if len(capacity) != 1 or not (capacity[0].startswith("envs.") and capacity[0].endswith(".get()")):
        return None
    variable = capacity[0][len("envs.") : -len(".get()")]
    raised = [
        n
        for n in ast.walk(check)
        if isinstance(n, ast.Raise)
        and isinstance(n.exc, ast.Call)
        and n.exc.args
        and isinstance(n.exc.args[0], ast.JoinedStr)
        and "graph_tokens" in ast.unparse(n.exc.args[0])
    ]
    if len(raised) != 1:
        return None
    message = _template(raised[0].exc.args[0])  # type: ignore[union-attr]
    sizing = functions.get(HELPER) if HELPER in ast.unparse(check) else check
    attention = _attention_dp(sizing) if sizing is not None else None
    default = env_int(environ, variable)
    if message is None or attention is None or default is None:
        return None
    return {
        "variable": variable,
        "default": default,
        "message": message,
        "attention_dp": attention,
        "where": check.name,
    }


def _template(text: ast.JoinedStr) -> str | None:
    parts = []
    for value in text.values:
        if isinstance(value, ast.Constant):
            parts.append(str(value.value))
        elif isinstance(value, ast.FormattedValue) and ast.unparse(value.value) in _NAMES:
            parts.append(_NAMES[ast.unparse(value.value)])
        else:
            return None
    return "".join(parts)


def _attention_dp(function: ast.FunctionDef) -> str | None:
    """The attention-DP size dividing --max-running-requests, where the function has the
    form above (the prefill-server and graphs-off returns, `max_bs or 0`, one speculative
    factor); None otherwise."""
    text = ast.unparse(function)
    if not (
        "view.disaggregation_mode == 'prefill'" in text
        and "Backend.DISABLED" in text
        and ".max_bs or 0" in text
        and "max_speculative_num_draft_tokens(server_args) or 1 if view.speculative_algorithm else 1" in text
    ):
        return None
    pools = [
        n
        for n in ast.walk(function)
        if isinstance(n, ast.Assign)
        and ast.unparse(n.targets[0]) == "per_rank_pool_bs"
        and isinstance(n.value, ast.Call)
        and ast.unparse(n.value.func) == "max"
        and len(n.value.args) == 2
        and isinstance(n.value.args[1], ast.BinOp)
        and isinstance(n.value.args[1].op, ast.FloorDiv)
        and ast.unparse(n.value.args[1].left) == "view.max_running_requests"
    ]
    if len(pools) != 1:
        return None
    divisor = ast.unparse(pools[0].value.args[1].right)  # type: ignore[attr-defined]
    if divisor == "attn_dp_size":  # a local: its one assignment
        local = [
            ast.unparse(n.value)
            for n in ast.walk(function)
            if isinstance(n, ast.Assign) and ast.unparse(n.targets[0]) == "attn_dp_size"
        ]
        divisor = local[0] if len(local) == 1 else ""
    return _ATTENTION_DP.get(divisor)
