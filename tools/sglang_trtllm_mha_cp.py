"""Read, statically (`ast`, never imported), the refusal of a TRT-LLM MHA prefill backend beside
context-parallel prefill off SM100 (0.5.19+ `handle_attention_backend_compatibility`,
attention_hook.py):

    if prefill_backend == "trtllm_mha" and not get_platform().is_sm100 and (<cp test>):
        raise ValueError("...")

where <cp test> is `cfg.attn_cp_size > 1` or `cfg.<switch> or cfg.attn_cp_size > 1` (0.5.19:
the switch `enable_prefill_context_parallel`, which `_handle_legacy_cp_arguments` sets) ->
{"where": the function, "switch": that field or null, "message"}; None where no such `if`
(or another form). Used by tools/gen_sglang_server_checks.py (`trtllm_mha_prefill_cp`)."""

from __future__ import annotations

import ast

from sglang_moe_runner_asserts import value_error_text

_PREFILL = ("prefill_backend == 'trtllm_mha'", 'prefill_backend == "trtllm_mha"')
_OFF_SM100 = ("not get_platform().is_sm100", "not is_sm100_supported()")
_CP_SIZE = ("cfg.attn_cp_size > 1", "self.attn_cp_size > 1")


def _cp_terms(test: ast.expr) -> str | None | bool:
    """`<cp test>` -> the switch field (str), None for `attn_cp_size > 1` alone, False otherwise."""
    if ast.unparse(test) in _CP_SIZE:
        return None
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or) and len(test.values) == 2:
        switch, size = test.values
        if (
            ast.unparse(size) in _CP_SIZE
            and isinstance(switch, ast.Attribute)
            and isinstance(switch.value, ast.Name)
            and switch.value.id in ("cfg", "self")
        ):
            return switch.attr
    return False


def read_trtllm_mha_prefill_cp(sources: list[str]) -> dict[str, object] | None:
    found: list[dict[str, object]] = []
    for source in (s for s in sources if "trtllm_mha" in s and "attn_cp_size" in s):
        for function in (f for f in ast.walk(ast.parse(source)) if isinstance(f, ast.FunctionDef)):
            for node in (n for n in ast.walk(function) if isinstance(n, ast.If)):
                test = node.test
                if not (
                    isinstance(test, ast.BoolOp)
                    and isinstance(test.op, ast.And)
                    and len(test.values) == 3
                    and ast.unparse(test.values[0]) in _PREFILL
                    and ast.unparse(test.values[1]) in _OFF_SM100
                    and len(node.body) == 1
                    and not node.orelse
                ):
                    continue
                switch = _cp_terms(test.values[2])
                message = value_error_text(node.body[0])
                if switch is False or message is None:
                    continue
                found.append({"where": function.name, "switch": switch, "message": message})
    return found[0] if len(found) == 1 else None
