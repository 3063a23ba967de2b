"""Prefill CUDA graphs before `cuda_graph_config` (0.5.13.post1 and older): one flag,
--disable-piecewise-cuda-graph, that `_handle_piecewise_cuda_graph` sets by a run of
`if <condition>: self.disable_piecewise_cuda_graph = True`. Read statically (`ast`) for
tools/gen_sglang_gpu_resolution.py:

- `piecewise_default`: "tc_piecewise" where `ServerArgs.disable_piecewise_cuda_graph`
  defaults to False (torch.compile piecewise graphs, 0.5.14's tc_piecewise), "disabled"
  where it defaults to True, None where there is no such field;
- `piecewise_rules`: each such `if`'s condition as written (`ast.unparse`), in order: the
  rule's name, as `disable_tc_piecewise_cudagraph_if_incompatible`'s names are later;
- `speculative_reserve`: in `handle_gpu_memory_settings`, what
  `if self.speculative_algorithm is not None:` adds to `reserved_mem` (MiB): for STANDALONE,
  for NGRAM and for any other algorithm ({"STANDALONE": 6144, "NGRAM": 0, "other": 4096} in
  0.5.13.post1), None where there is no such block.
"""

from __future__ import annotations

import ast

FLAG = "disable_piecewise_cuda_graph"


def _sets_flag(body: list[ast.stmt]) -> bool:
    for node in (n for stmt in body for n in ast.walk(stmt)):
        if (
            isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Attribute) and t.attr == FLAG for t in node.targets)
            and isinstance(node.value, ast.Constant)
            and node.value.value is True
        ):
            return True
    return False


def piecewise_default(trees: list[ast.Module]) -> str | None:
    for tree in trees:
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.ClassDef)
                and node.name == "ServerArgs"
                and any(
                    isinstance(f, ast.AnnAssign)
                    and isinstance(f.target, ast.Name)
                    and f.target.id == FLAG
                    and isinstance(f.value, ast.Constant)
                    and isinstance(f.value.value, bool)
                    for f in node.body
                )
            ):
                field = next(
                    f
                    for f in node.body
                    if isinstance(f, ast.AnnAssign) and isinstance(f.target, ast.Name) and f.target.id == FLAG
                )
                assert isinstance(field.value, ast.Constant)
                return "disabled" if field.value.value else "tc_piecewise"
    return None


def piecewise_rules(function: ast.FunctionDef) -> list[str]:
    return [
        ast.unparse(stmt.test) for stmt in function.body if isinstance(stmt, ast.If) and _sets_flag(stmt.body)
    ]


def _constant_mib(stmt: ast.stmt) -> int | None:
    """`reserved_mem += N` or `+= A * B` (constants)."""
    if not (
        isinstance(stmt, ast.AugAssign)
        and isinstance(stmt.target, ast.Name)
        and stmt.target.id == "reserved_mem"
    ):
        return None
    value = stmt.value
    if isinstance(value, ast.Constant) and type(value.value) is int:
        return value.value
    if (
        isinstance(value, ast.BinOp)
        and isinstance(value.op, ast.Mult)
        and isinstance(value.left, ast.Constant)
        and isinstance(value.right, ast.Constant)
        and type(value.left.value) is int
        and type(value.right.value) is int
    ):
        return value.left.value * value.right.value
    return None


def _algorithm_test(test: ast.expr) -> tuple[str, str] | None:
    """`self.speculative_algorithm == "X"` -> ("==", "X"); `!=` likewise."""
    if (
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Attribute)
        and test.left.attr == "speculative_algorithm"
        and len(test.ops) == 1
        and isinstance(test.ops[0], (ast.Eq, ast.NotEq))
        and isinstance(test.comparators[0], ast.Constant)
        and isinstance(test.comparators[0].value, str)
    ):
        return ("==" if isinstance(test.ops[0], ast.Eq) else "!="), test.comparators[0].value
    return None


def speculative_reserve(function: ast.FunctionDef) -> dict[str, int] | None:
    """`if X == "A": += a` / `elif X != "B": += b` under `if ....speculative_algorithm is not None:`."""
    for node in ast.walk(function):
        test = node.test if isinstance(node, ast.If) else None
        if not (
            isinstance(test, ast.Compare)
            and isinstance(test.left, ast.Attribute)
            and test.left.attr == "speculative_algorithm"
            and isinstance(test.ops[0], ast.IsNot)
        ):
            continue
        assert isinstance(node, ast.If)
        inner = node.body[0] if len(node.body) == 1 and isinstance(node.body[0], ast.If) else None
        if inner is None or len(inner.body) != 1 or len(inner.orelse) != 1:
            return None
        first, second = _algorithm_test(inner.test), inner.orelse[0]
        if first is None or first[0] != "==" or not isinstance(second, ast.If) or second.orelse:
            return None
        other = _algorithm_test(second.test)
        a, b = _constant_mib(inner.body[0]), _constant_mib(second.body[0]) if len(second.body) == 1 else None
        if other is None or other[0] != "!=" or a is None or b is None:
            return None
        return {first[1]: a, other[1]: 0, "other": b}
    return None
