"""Read, statically (`ast`, never imported), the decode side of 0.5.21+'s
`validate_mega_moe_token_budget` (--moe-a2a-backend megamoe): before the disaggregation
returns, `if cfg.disaggregation_mode != "prefill":` the largest decode / verify forward on one
rank (`decode_tokens = HELPER(cfg)`) must fit `max_tokens_per_rank` (the budget's variable),
else `raise ValueError(f"...")`. Used by tools/sglang_megamoe.py (`megamoe_token_budget.decode`).

The helper (`mega_moe_decode_tokens_per_rank`), statement by statement:

    cg_config = cfg.cuda_graph_config
    decode_max_bs = (cg_config.decode.max_bs if cg_config is not None else 0) or 0
    if cfg.max_running_requests is not None:                       # 0.5.23
        per_rank_requests = ceil_align(A, B)
        decode_max_bs = min(decode_max_bs, per_rank_requests)
    num_tokens_per_req = (cfg.speculative_num_draft_tokens or 1) if cfg.speculative_algorithm else 1
    return decode_max_bs * num_tokens_per_req

-> {"test", "message" (`{label}`, `{tokens}`, `{limit}`), "helper", "requests": the cap's
`ceil_align(A, B)` written out as `(A + B - 1) // B * B` where utils/common.py's `ceil_align`
is `ceil_div(x, y) * y` and `ceil_div` is `(x + y - 1) // y`, else absent}; None where any
statement has another form."""

from __future__ import annotations

import ast

_NAMES = {"model_label": "{label}", "decode_tokens": "{tokens}", "max_tokens_per_rank": "{limit}"}
_TEST = "cfg.disaggregation_mode != 'prefill'"
_HEAD = (
    "cg_config = cfg.cuda_graph_config",
    "decode_max_bs = (cg_config.decode.max_bs if cg_config is not None else 0) or 0",
)
_TAIL = (
    "num_tokens_per_req = cfg.speculative_num_draft_tokens or 1 if cfg.speculative_algorithm else 1",
    "return decode_max_bs * num_tokens_per_req",
)
_CAP_TEST = "cfg.max_running_requests is not None"
_CAP_LAST = "decode_max_bs = min(decode_max_bs, per_rank_requests)"


def read_megamoe_decode(
    function: ast.FunctionDef, functions: dict[str, ast.FunctionDef], common: str | None
) -> dict[str, object] | None:
    branch = next((s for s in function.body if isinstance(s, ast.If) and ast.unparse(s.test) == _TEST), None)
    if branch is None or len(branch.body) != 2:
        return None
    assign, check = branch.body
    if not (
        isinstance(assign, ast.Assign)
        and ast.unparse(assign.targets[0]) == "decode_tokens"
        and isinstance(assign.value, ast.Call)
        and isinstance(assign.value.func, ast.Name)
        and [ast.unparse(a) for a in assign.value.args] == ["cfg"]
        and isinstance(check, ast.If)
        and ast.unparse(check.test) == "max_tokens_per_rank < decode_tokens"
        and len(check.body) == 1
        and isinstance(check.body[0], ast.Raise)
        and isinstance(check.body[0].exc, ast.Call)
        and ast.unparse(check.body[0].exc.func) == "ValueError"
        and check.body[0].exc.args
        and isinstance(check.body[0].exc.args[0], ast.JoinedStr)
    ):
        return None
    message = _template(check.body[0].exc.args[0])
    helper = functions.get(assign.value.func.id)
    if message is None or helper is None:
        return None
    body = [s for s in helper.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    written = [ast.unparse(s) for s in body]
    found: dict[str, object] = {"test": _TEST, "message": message, "helper": helper.name}
    if len(body) == 4 and tuple(written[:2]) == _HEAD and tuple(written[2:]) == _TAIL:
        return found
    cap = body[2] if len(body) == 5 else None
    if not (
        tuple(written[:2]) == _HEAD
        and tuple(written[3:]) == _TAIL
        and isinstance(cap, ast.If)
        and ast.unparse(cap.test) == _CAP_TEST
        and not cap.orelse
        and len(cap.body) == 2
        and ast.unparse(cap.body[1]) == _CAP_LAST
    ):
        return None
    first = cap.body[0]
    call = first.value if isinstance(first, ast.Assign) else None
    if not (
        isinstance(first, ast.Assign)
        and ast.unparse(first.targets[0]) == "per_rank_requests"
        and isinstance(call, ast.Call)
        and ast.unparse(call.func) == "ceil_align"
        and len(call.args) == 2
        and not call.keywords
        and _ceil_align(common)
    ):
        return None
    a, b = (ast.unparse(x) for x in call.args)
    found["requests"] = f"({a} + {b} - 1) // ({b}) * ({b})"
    return found


def _ceil_align(common: str | None) -> bool:
    """utils/common.py: `def ceil_align(x, y): return ceil_div(x, y) * y` and `def ceil_div(x,
    y): return (x + y - 1) // y`."""
    if common is None:
        return False
    bodies = {
        f.name: [ast.unparse(s) for s in f.body]
        for f in ast.parse(common).body
        if isinstance(f, ast.FunctionDef) and f.name in ("ceil_align", "ceil_div")
    }
    return bodies.get("ceil_align") == ["return ceil_div(x, y) * y"] and bodies.get("ceil_div") == [
        "return (x + y - 1) // y"
    ]


def _template(text: ast.JoinedStr) -> str | None:
    parts = []
    for value in text.values:
        if isinstance(value, ast.Constant):
            parts.append(str(value.value).replace("{", "{{").replace("}", "}}"))
        elif isinstance(value, ast.FormattedValue) and ast.unparse(value.value) in _NAMES:
            parts.append(_NAMES[ast.unparse(value.value)])
        else:
            return None
    return "".join(parts)
