"""The draft model's MoE runner when --speculative-moe-runner-backend is not given, read
statically (`ast`) for tools/gen_sglang_gpu_resolution.py: the runners of the target that
the draft does not follow, taking "auto" instead, from
`self.speculative_moe_runner_backend = ("auto" if self.moe_runner_backend in [...] else
self.moe_runner_backend)` (0.5.10-0.5.11: flashinfer_trtllm, flashinfer_trtllm_routed), or
`... if self.moe_runner_backend == "..." else ...` (0.5.9: flashinfer_trtllm); [] where the
draft takes the target's runner as it is (`= self.moe_runner_backend`, 0.5.12+), None where
neither form is there."""

from __future__ import annotations

import ast

FIELD = "speculative_moe_runner_backend"


def _target_runner(node: ast.expr) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "moe_runner_backend"


def draft_moe_auto(trees: list[ast.Module]) -> list[str] | None:
    for tree in trees:
        for node in ast.walk(tree):
            if not (
                isinstance(node, ast.Assign)
                and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Attribute)
                and node.targets[0].attr == FIELD
            ):
                continue
            value = node.value
            if _target_runner(value):
                return []
            if (
                isinstance(value, ast.IfExp)
                and isinstance(value.body, ast.Constant)
                and value.body.value == "auto"
                and _target_runner(value.orelse)
                and isinstance(value.test, ast.Compare)
                and _target_runner(value.test.left)
            ):
                op, named = value.test.ops[0], value.test.comparators[0]
                if isinstance(op, ast.In) and isinstance(named, (ast.List, ast.Tuple)):
                    names = [e.value for e in named.elts if isinstance(e, ast.Constant)]
                    return [n for n in names if isinstance(n, str)]
                if (
                    isinstance(op, ast.Eq)
                    and isinstance(named, ast.Constant)
                    and isinstance(named.value, str)
                ):
                    return [named.value]  # 0.5.9: `== "flashinfer_trtllm"`
    return None
