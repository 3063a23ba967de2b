"""Read, statically (`ast`, never imported), 0.5.20+'s attention-DP assert beside
--moe-a2a-backend flashinfer_megamoe (`handle_a2a_moe`, after `validate_flashinfer_megamoe_model`):
0.5.20-0.5.21 `assert cfg.enable_dp_attention and cfg.dp_size == cfg.tp_size, "..."`, 0.5.22+
`assert attn_dp_enabled_of(cfg) and cfg.attn_dp_size == cfg.tp_size, "..."`, and the
the runner's assert and `if not is_sm100_supported(): raise ValueError("...")` after it; used by
tools/sglang_megamoe.py (`megamoe_architectures.attention_dp`)."""

from __future__ import annotations

import ast

from sglang_moe_runner_asserts import Sources, value_error_text

_ENABLED = {"cfg.enable_dp_attention": "enable_dp_attention", "attn_dp_enabled_of(cfg)": "attn_dp_enabled_of"}


def read_megamoe_attention_dp(sources: Sources, validator: str, caller: str) -> dict[str, str] | None:
    """In `caller`, the `if` whose body calls `validator` (the flashinfer_megamoe branch): its
    first `assert <enabled> and cfg.<size> == cfg.tp_size, "<message>"` -> {"enabled":
    "enable_dp_attention" | "attn_dp_enabled_of", "size": the field compared with tp_size,
    "message", "runner_message" of the MoE runner's assert after it, "sm100_message" where the
    branch then raises off SM100}; None where the branch
    has no such assert."""
    for _, tree, _ in sources:
        for function in (f for f in ast.walk(tree) if isinstance(f, ast.FunctionDef) and f.name == caller):
            for branch in (n for n in ast.walk(function) if isinstance(n, ast.If)):
                calls = any(
                    isinstance(c, ast.Call) and isinstance(c.func, ast.Name) and c.func.id == validator
                    for s in branch.body
                    for c in ast.walk(s)
                )
                if not calls:
                    continue
                checked = next((s for s in branch.body if isinstance(s, ast.Assert)), None)
                found = _assert(checked) if checked is not None else None
                sm100 = _sm100(branch.body)
                if found is not None and sm100 is not None:
                    found["sm100_message"] = sm100
                runner = _runner(branch.body)
                if found is not None and runner is not None:
                    found["runner_message"] = runner
                return found
    return None


def _sm100(body: list[ast.stmt]) -> str | None:
    """`if not is_sm100_supported(): raise ValueError("...")` in the branch -> its message."""
    for stmt in body:
        if isinstance(stmt, ast.If) and stmt.body and ast.unparse(stmt.test) == "not is_sm100_supported()":
            message = value_error_text(stmt.body[0])
            if message is not None:
                return message
    return None


def _assert(checked: ast.Assert) -> dict[str, str] | None:
    test, message = checked.test, checked.msg
    if not (
        isinstance(test, ast.BoolOp)
        and isinstance(test.op, ast.And)
        and len(test.values) == 2
        and isinstance(message, ast.Constant)
        and isinstance(message.value, str)
    ):
        return None
    enabled, compared = test.values
    if not (
        ast.unparse(enabled) in _ENABLED
        and isinstance(compared, ast.Compare)
        and isinstance(compared.ops[0], ast.Eq)
        and len(compared.comparators) == 1
        and ast.unparse(compared.comparators[0]) == "cfg.tp_size"
        and ast.unparse(compared.left).startswith("cfg.")
    ):
        return None
    return {
        "enabled": _ENABLED[ast.unparse(enabled)],
        "size": ast.unparse(compared.left).split(".", 1)[1],
        "message": message.value,
    }


def _runner(body: list[ast.stmt]) -> str | None:
    """`assert resolved_view(server_args).moe_runner_backend == "flashinfer_megamoe", "..."`
    (after the branch sets an auto runner to it) -> its message."""
    for stmt in body:
        if (
            isinstance(stmt, ast.Assert)
            and isinstance(stmt.test, ast.Compare)
            and ast.unparse(stmt.test.left).endswith(".moe_runner_backend")
            and isinstance(stmt.test.ops[0], ast.Eq)
            and ast.unparse(stmt.test.comparators[0]) == "'flashinfer_megamoe'"
            and isinstance(stmt.msg, ast.Constant)
            and isinstance(stmt.msg.value, str)
        ):
            return stmt.msg.value
    return None


# `validate_mega_moe_token_budget`'s early returns and token partitions (sglang_megamoe.py)
def budget_returns(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.If) and len(stmt.body) == 1 and isinstance(stmt.body[0], ast.Return)


def budget_partitions(function: ast.FunctionDef) -> list[str]:
    """The tests of the `if`/`elif` chain assigning `token_partition_name`, in order."""
    chain = next(
        (s for s in function.body if isinstance(s, ast.If) and "token_partition_name" in ast.unparse(s)), None
    )
    tests = []
    while isinstance(chain, ast.If):
        tests.append(ast.unparse(chain.test))
        chain = chain.orelse[0] if len(chain.orelse) == 1 else None
    return tests


def budget_branches(function: ast.FunctionDef) -> list[list[object]]:
    """That chain's branches, in order: [test (None for the `else`), {name: the expression each
    plain `name = expression` of its body assigns, unparsed}]."""
    chain = next(
        (s for s in function.body if isinstance(s, ast.If) and "token_partition_name" in ast.unparse(s)), None
    )
    branches: list[list[object]] = []
    while isinstance(chain, ast.If):
        branches.append([ast.unparse(chain.test), _assigned(chain.body)])
        orelse = chain.orelse
        if len(orelse) == 1 and isinstance(orelse[0], ast.If):
            chain = orelse[0]
            continue
        if orelse:
            branches.append([None, _assigned(orelse)])
        break
    return branches


def _assigned(body: list[ast.stmt]) -> dict[str, str]:
    return {
        s.targets[0].id: ast.unparse(s.value)
        for s in body
        if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)
    }


def budget_disabled(function: ast.FunctionDef, render, fields: dict[str, str]) -> str | None:
    """The message of `if cfg.chunked_prefill_size is None or cfg.chunked_prefill_size <= 0:
    raise ValueError(f"...")` (`render`ed with `fields`); None where there is none."""
    for stmt in function.body:
        raised = stmt.body[0] if isinstance(stmt, ast.If) and stmt.body else None
        if (
            isinstance(stmt, ast.If)
            and ast.unparse(stmt.test) == "cfg.chunked_prefill_size is None or cfg.chunked_prefill_size <= 0"
            and isinstance(raised, ast.Raise)
            and isinstance(raised.exc, ast.Call)
            and raised.exc.args
            and isinstance(raised.exc.args[0], ast.JoinedStr)
        ):
            rendered: str | None = render(raised.exc.args[0], fields)
            return rendered
    return None
