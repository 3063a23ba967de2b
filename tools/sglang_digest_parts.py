"""Parts of tools/gen_sglang_gpu_resolution.py's reading: the statement its digests leave out
(the piecewise token counts, read as `prefill_ranges`) and the DeepSeek-V3 SM100 MoE-runner
test of `_handle_model_specific_adjustments` (`deepseek_runner_quantization`)."""

from __future__ import annotations

import ast
import copy

from sglang_memory_tiers import attr_in as _attr

ADJUSTMENTS = "handle_model_specific_adjustments"


def piecewise_tokens(node: ast.If) -> bool:
    """`if self.piecewise_cuda_graph_tokens is None: self.piecewise_cuda_graph_tokens =
    self._generate_piecewise_cuda_graph_tokens()` (0.5.3.post2-0.5.13.post1)."""
    test = node.test
    return (
        isinstance(test, ast.Compare)
        and _attr(test.left, "piecewise_cuda_graph_tokens")
        and isinstance(test.ops[0], ast.Is)
        and len(node.body) == 1
        and isinstance(node.body[0], ast.Assign)
        and _attr(node.body[0].targets[0], "piecewise_cuda_graph_tokens")
        and isinstance(node.body[0].value, ast.Call)
        and _attr(node.body[0].value.func, "_generate_piecewise_cuda_graph_tokens")
        and not node.orelse
    )


class _StripTokens(ast.NodeTransformer):
    def visit_If(self, node: ast.If) -> ast.AST | None:
        if piecewise_tokens(node):
            return None
        self.generic_visit(node)
        return node


def digested(node: ast.AST) -> str:
    """`ast.dump` of a cut function without the piecewise token counts' statement."""
    return ast.dump(_StripTokens().visit(copy.deepcopy(node)))


def deepseek_runner_quantization(trees: list[ast.Module]) -> str | None:
    """The first `if` in `handle_model_specific_adjustments` whose body sets
    `self.moe_runner_backend = "flashinfer_trtllm"` (the DeepSeek-V3 SM100 branch before
    0.5.22): the quantization its test requires by an `and`-ed `self.quantization == "Q"`
    (0.5.3.post2-0.5.4: "modelopt_fp4"), else None (0.5.4.post1: `self.moe_runner_backend ==
    "auto"`; 0.5.4.post2+: `... and (self.quantization in [...])`)."""
    tests = _runner_tests(trees)
    if not tests:
        return None
    operands = (
        tests[0].values
        if isinstance(tests[0], ast.BoolOp) and isinstance(tests[0].op, ast.And)
        else [tests[0]]
    )
    for operand in operands:
        if (
            isinstance(operand, ast.Compare)
            and _attr(operand.left, "quantization")
            and isinstance(operand.ops[0], ast.Eq)
            and isinstance(operand.comparators[0], ast.Constant)
        ):
            return str(operand.comparators[0].value)
    return None


def _runner_tests(trees: list[ast.Module]) -> list[ast.expr]:
    found: list[ast.expr] = []
    for tree in trees:
        for node in ast.walk(tree):
            if not (isinstance(node, ast.FunctionDef) and node.name.lstrip("_") == ADJUSTMENTS):
                continue
            for branch in ast.walk(node):
                if isinstance(branch, ast.If) and any(
                    isinstance(s, ast.Assign)
                    and _attr(s.targets[0], "moe_runner_backend")
                    and isinstance(s.value, ast.Constant)
                    and s.value.value == "flashinfer_trtllm"
                    for s in branch.body
                ):
                    found.append(branch.test)
    return found
