"""Read, statically (`ast`, never imported), where the functions that pick the attention backend
and its page size touch the flags speclint lets stand beside that pick
(`speclint.sglang.resolve.hardware_flags.BESIDE`), per release.

The pickers are the functions of the resolution code (server_args.py, arg_groups/**) named in
PICKERS, and every function of that code they call, transitively: `f(...)`, `self.f(...)`, a
function handed on by name (`run_post_process_pass(server_args, f)`). A function touches a field
where it names it: an attribute (`cfg.ep_size`, `self.moe_a2a_backend`), a keyword
(`declare_resolution(..., moe_a2a_backend=...)`) or a string (`getattr(x, "ep_size")`, a dict
key). Per release -> {field: sorted "<path under sglang/srt/>::<function>" touching it} for the
fields of FIELDS; {} where no picker is defined (the release leaves the backend to the model
runner). Used by tools/gen_sglang_backend_reads.py."""

from __future__ import annotations

import ast

PICKERS = (
    "_get_default_attn_backend",
    "get_default_attn_backend",
    "_attention_backend_default",
    "_handle_attention_backend_compatibility",
    "handle_attention_backend_compatibility",
    "_deepseek_family_overrides",
    "_handle_page_size",
    "_page_size_default",
    "_mla_backend_page_constraints",
    "_handle_model_specific_adjustments",
    "handle_model_specific_adjustments",
)
"""The functions that pick the attention backend and its page size, 0.5.4-0.5.23 (hardware.py's
model of them: `_attention_backend`, `gpu_page_size`), and the model-specific adjustments that
hold the DeepSeek Blackwell trtllm_mla fill (`deepseek_blackwell.py`)."""

FIELDS = (
    "enable_mis",
    "enable_deterministic_inference",
    "moe_runner_backend",
    "dtype",
    "moe_a2a_backend",
    "enable_prefill_cp",
    "enable_prefill_context_parallel",
    "cp_strategy",
    "attn_cp_size",
    "attention_context_parallel_size",
    "ep_size",
    "disaggregation_mode",
)
"""The dests of hardware_flags.BESIDE (tests/test_backend_reads.py keeps the two the same)."""


def _functions(named: list[tuple[str, str]]) -> dict[str, list[tuple[str, ast.FunctionDef]]]:
    """Every function (methods included) of the sources, by name -> [(path::name, node)]."""
    found: dict[str, list[tuple[str, ast.FunctionDef]]] = {}
    for path, source in named:
        short = path.removeprefix("sglang/srt/")
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.FunctionDef):
                found.setdefault(node.name, []).append((f"{short}::{node.name}", node))
    return found


def _called(function: ast.FunctionDef, known: dict[str, object]) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(function):
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name):
                names.add(func.id)
            elif (
                isinstance(func, ast.Attribute)
                and isinstance(func.value, ast.Name)
                and func.value.id == "self"
            ):
                names.add(func.attr)
            names.update(a.id for a in node.args if isinstance(a, ast.Name))
    return {n for n in names if n in known}


def _touched(function: ast.FunctionDef) -> set[str]:
    fields = set(FIELDS)
    touched: set[str] = set()
    for node in ast.walk(function):
        if isinstance(node, ast.Attribute) and node.attr in fields:
            touched.add(node.attr)
        elif isinstance(node, ast.keyword) and node.arg in fields:
            touched.add(node.arg)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in fields:
            touched.add(node.value)
    return touched


def read_backend_reads(named: list[tuple[str, str]]) -> dict[str, list[str]]:
    functions = _functions(named)
    queue = [name for name in PICKERS if name in functions]
    seen = set(queue)
    reads: dict[str, set[str]] = {}
    while queue:
        name = queue.pop()
        for where, node in functions[name]:
            for field in _touched(node):
                reads.setdefault(field, set()).add(where)
            for callee in _called(node, functions) - seen:
                seen.add(callee)
                queue.append(callee)
    return {field: sorted(reads[field]) for field in sorted(reads)}
