"""The chunked prefill size an SGLang release defaults to by GPU memory, read statically (`ast`,
never imported) from its wheel: the `if gpu_mem < A * B` chain of `_handle_gpu_memory_settings`
(server_args.py; 0.5.19+ arg_groups/memory_hook.py `handle_gpu_memory_settings`). Used by
tools/gen_sglang_moe_defaults.py (`chunk_defaults`, described there)."""

from __future__ import annotations

import ast

MEMORY_FUNCTIONS = ("_handle_gpu_memory_settings", "handle_gpu_memory_settings")


def _number(node: ast.expr) -> int | None:
    """A constant int, or a product of them (`60 * 1024`)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
        return node.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        left, right = _number(node.left), _number(node.right)
        return None if left is None or right is None else left * right
    return None


def _assigned_chunk(body: list[ast.stmt]) -> int | None:
    """The constant chunked_prefill_size a branch sets (attribute or declare_resolution keyword)."""
    for node in (n for stmt in body for n in ast.walk(stmt)):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Attribute) and target.attr == "chunked_prefill_size":
                    return _number(node.value)
        if isinstance(node, ast.Call):
            for keyword in node.keywords:
                if keyword.arg == "chunked_prefill_size":
                    return _number(keyword.value)
    return None


def _is_name(node: ast.expr, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def _npu_only(test: ast.expr) -> bool:
    return (
        isinstance(test, ast.BoolOp)
        and isinstance(test.op, ast.And)
        and isinstance(test.values[0], ast.Call)
        and _is_name(test.values[0].func, "is_npu")
    )


def _tier_chain(node: ast.If) -> list[list[int | None]] | None:
    """[[bound, chunk], ...] of an `if gpu_mem < N: ... elif ...: ... else: ...` chain."""
    tiers: list[list[int | None]] = []
    current: ast.stmt | None = node
    while isinstance(current, ast.If):
        test = current.test
        if _npu_only(test):  # `is_npu() and gpu_mem < N`: an Ascend branch, not taken on a GPU
            rest = current.orelse
            current = rest[0] if len(rest) == 1 and isinstance(rest[0], ast.If) else None
            continue
        if not (
            isinstance(test, ast.Compare)
            and _is_name(test.left, "gpu_mem")
            and len(test.ops) == 1
            and isinstance(test.ops[0], ast.Lt)
        ):
            return None
        bound, chunk = _number(test.comparators[0]), _assigned_chunk(current.body)
        if bound is None or chunk is None:
            return None
        tiers.append([bound, chunk])
        rest = current.orelse
        if len(rest) == 1 and isinstance(rest[0], ast.If):
            current = rest[0]
            continue
        if rest:
            chunk = _assigned_chunk(rest)
            if chunk is None:
                return None
            tiers.append([None, chunk])
        current = None
    return tiers


def read_chunk_defaults(sources: list[tuple[str, ast.Module, str]]) -> dict[str, object] | None:
    for name, tree, _ in sources:
        for function in ast.walk(tree):
            if not (isinstance(function, ast.FunctionDef) and function.name in MEMORY_FUNCTIONS):
                continue
            for node in ast.walk(function):
                test = getattr(node, "test", None)
                if not (
                    isinstance(node, ast.If)
                    and isinstance(test, ast.Compare)
                    and _is_name(test.left, "gpu_mem")
                    and isinstance(test.ops[0], ast.IsNot)
                ):
                    continue
                chains = [s for s in node.body if isinstance(s, ast.If)]
                tiers = _tier_chain(chains[0]) if chains else None
                if tiers:
                    return {
                        "tiers": tiers,
                        "no_gpu": _assigned_chunk(node.orelse),
                        "where": f"{name}:{function.name}",
                    }
    return None
