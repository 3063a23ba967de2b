"""Read, statically (`ast`, never imported), whether a release calls its MoE-kernel handler
before its all-to-all handler; used by tools/gen_sglang_moe_defaults.py (`moe_kernel_first`).

In server_args.py / arg_groups/: the first function that calls both `..._handle_moe_kernel_config()`
(or `handle_moe_kernel_config`) and `..._handle_a2a_moe()` (`handle_a2a_moe`), or passes them to
another call (0.5.19+ `run_hook(handle_moe_kernel_config, server_args)` in arg_groups/pipeline.py)
-> true where the kernel handler's call comes first (0.5.3-0.5.23 `__post_init__` / the
pipeline); None where no function calls both."""

from __future__ import annotations

import ast

_KERNEL, _A2A = "handle_moe_kernel_config", "handle_a2a_moe"


def _named(node: ast.AST) -> str | None:
    name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else None
    if name is None:
        return None
    bare = name.lstrip("_")
    return bare if bare in (_KERNEL, _A2A) else None


def read_moe_kernel_first(sources: list[tuple[str, ast.Module, str]]) -> bool | None:
    for _, tree, _ in sources:
        for function in (f for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)):
            first: dict[str, int] = {}
            for node in ast.walk(function):
                if not isinstance(node, ast.Call):
                    continue
                for candidate in (node.func, *node.args[:1]):
                    name = _named(candidate)
                    if name is not None:
                        first[name] = min(first.get(name, node.lineno), node.lineno)
            if len(first) == 2:
                return first[_KERNEL] < first[_A2A]
    return None
