"""The `if gpu_mem < N:` tiers of `handle_gpu_memory_settings`, read statically (`ast`) for
tools/gen_sglang_gpu_resolution.py (its docstring says what `tiers` and `tp_bound` hold;
an `elif is_npu() and ...:` branch, 0.5.6.x, is skipped: CUDA never takes it):
`tiers(node)` reads the chain starting at `node`; `number`, `attr_in`, `is_name` are the
small AST tests the generator shares."""

from __future__ import annotations

import ast


def number(node: ast.expr | None) -> int | None:
    """A constant int, or a product of them (`60 * 1024`)."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        left, right = number(node.left), number(node.right)
        return None if left is None or right is None else left * right
    return None


def attr_in(node: ast.expr, name: str | tuple[str, ...]) -> bool:
    return isinstance(node, ast.Attribute) and node.attr in ((name,) if isinstance(name, str) else name)


DECODE_MAX = ("max_bs", "cuda_graph_max_bs")
"""The decode CUDA-graph max_bs: `....decode.max_bs` (0.5.14+), `self.cuda_graph_max_bs` before."""
PREFILL_MAX = ("max_bs", "piecewise_cuda_graph_max_tokens")
"""The prefill CUDA-graph size: `....prefill.max_bs` (0.5.14+), the piecewise graphs' tokens before."""


def is_name(node: ast.expr, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def _chunk(body: list[ast.stmt]) -> int | None:
    """The constant chunked_prefill_size a branch sets (attribute or declare_resolution keyword)."""
    for node in (n for stmt in body for n in ast.walk(stmt)):
        if isinstance(node, ast.Assign) and any(attr_in(t, "chunked_prefill_size") for t in node.targets):
            return number(node.value)
        if isinstance(node, ast.Call):
            for keyword in node.keywords:
                if keyword.arg == "chunked_prefill_size":
                    return number(keyword.value)
    return None


def _max_bs(body: list[ast.stmt]) -> tuple[list[int], int | None] | None:
    """The decode max_bs a branch sets: [one] or [when tp_size < bound, else], and the bound."""
    for stmt in body:
        if not (isinstance(stmt, ast.If) and any(attr_in(n, DECODE_MAX) for n in ast.walk(stmt.test))):
            continue
        inner = stmt.body
        if len(inner) == 1 and isinstance(inner[0], ast.Assign):
            value = number(inner[0].value)
            return None if value is None else ([value, value], None)
        if len(inner) == 1 and isinstance(inner[0], ast.If):
            test = inner[0].test
            if (
                isinstance(test, ast.Compare)
                and attr_in(test.left, "tp_size")
                and isinstance(test.ops[0], ast.Lt)
                and len(inner[0].body) == 1
                and len(inner[0].orelse) == 1
                and isinstance(inner[0].body[0], ast.Assign)
                and isinstance(inner[0].orelse[0], ast.Assign)
            ):
                small, large = number(inner[0].body[0].value), number(inner[0].orelse[0].value)
                bound = number(test.comparators[0])
                if small is None or large is None or bound is None:
                    return None
                return [small, large], bound
    return None


def _npu_only(test: ast.expr) -> bool:
    """`is_npu() and ...`: a branch CUDA never takes."""
    return (
        isinstance(test, ast.BoolOp)
        and isinstance(test.op, ast.And)
        and isinstance(test.values[0], ast.Call)
        and is_name(test.values[0].func, "is_npu")
        and not test.values[0].args
    )


def tiers(node: ast.If) -> tuple[list[list[int | None]], int | None] | None:
    """The `if gpu_mem < N: ... elif ...: ... else: ...` chain, and the tp_size bound."""
    tiers: list[list[int | None]] = []
    bounds: set[int] = set()
    current: ast.stmt | None = node
    while current is not None:
        if isinstance(current, ast.If) and _npu_only(current.test):
            rest = current.orelse  # `elif is_npu() and gpu_mem < N:` (0.5.6.x): never on CUDA
            if not rest:
                return None
            current = (
                rest[0]
                if len(rest) == 1 and isinstance(rest[0], ast.If)
                else ast.If(test=ast.Constant(value=True), body=rest, orelse=[])
            )
            continue
        if isinstance(current, ast.If) and isinstance(current.test, ast.Constant):
            bound, body, rest = None, current.body, []  # the `else:` after a skipped branch
        elif isinstance(current, ast.If):
            test = current.test
            if not (
                isinstance(test, ast.Compare)
                and is_name(test.left, "gpu_mem")
                and len(test.ops) == 1
                and isinstance(test.ops[0], ast.Lt)
            ):
                return None
            bound, body, rest = number(test.comparators[0]), current.body, current.orelse
        else:
            bound, body, rest = None, [current], []
        chunk, sizes = _chunk(body), _max_bs(body)
        final = not (isinstance(current, ast.If) and not isinstance(current.test, ast.Constant))
        if (bound is None and not final) or chunk is None or sizes is None:
            return None
        tiers.append([bound, chunk, *sizes[0]])
        if sizes[1] is not None:
            bounds.add(sizes[1])
        if len(rest) == 1 and isinstance(rest[0], ast.If):
            current = rest[0]
        elif rest:
            chunk, sizes = _chunk(rest), _max_bs(rest)
            if chunk is None or sizes is None:
                return None
            tiers.append([None, chunk, *sizes[0]])
            current = None
        else:
            current = None
    if len(bounds) > 1:
        return None
    return tiers, (bounds.pop() if bounds else None)
