"""How a release sizes its CUDA graphs, read statically (`ast`) for
tools/gen_sglang_gpu_resolution.py (none of it digested: each is a reading of its own):

- `prefill_clamps(handle_gpu_memory_settings)`: {"total_tokens": whether a given
  --max-total-tokens caps the default prefill CUDA-graph size (`if ....max_total_tokens is not
  None: <prefill max> = min(<prefill max>, ....max_total_tokens)`, 0.5.10+), "llama2": the cap
  of a model path naming "llama-2" (`if "llama-2" in ....model_path.lower(): <prefill max> =
  min(<prefill max>, N)`, 0.5.10+: 4096) or None};
- `decode_appends_max_bs(<decode batch-size generator>)`: whether the decode CUDA-graph batch
  sizes end with the max_bs when the list does not reach it (`if <max> not in capture_bs:
  capture_bs.append(...)`, 0.5.10+);
- `prefill_fields(handle_gpu_memory_settings, flag)`: before `cuda_graph_config`, the
  `ServerArgs` fields the prefill (piecewise) CUDA graphs are resolved into: {"backend": the
  switch (`piecewise_flag`), "max_bs": the field set to `....chunked_prefill_size` when unset,
  "bs": the field set to `self._generate_piecewise_cuda_graph_tokens()`}; None where either
  assignment is not there.
"""

from __future__ import annotations

import ast

PREFILL_MAX = ("max_bs", "piecewise_cuda_graph_max_tokens")
"""The prefill CUDA-graph size: `....prefill.max_bs` (0.5.14+), the piecewise graphs' tokens before."""
TOKENS = "_generate_piecewise_cuda_graph_tokens"


def _attr(node: ast.expr, names: str | tuple[str, ...]) -> bool:
    return isinstance(node, ast.Attribute) and node.attr in ((names,) if isinstance(names, str) else names)


def _min_of(stmt: ast.stmt) -> list[ast.expr] | None:
    """`<prefill max> = min(a, b)`: [a, b]."""
    if not (
        isinstance(stmt, ast.Assign)
        and len(stmt.targets) == 1
        and _attr(stmt.targets[0], PREFILL_MAX)
        and isinstance(stmt.value, ast.Call)
        and isinstance(stmt.value.func, ast.Name)
        and stmt.value.func.id == "min"
        and len(stmt.value.args) == 2
    ):
        return None
    return stmt.value.args


def prefill_clamps(function: ast.FunctionDef) -> dict[str, object]:
    total, llama2 = False, None
    for node in ast.walk(function):
        if not (isinstance(node, ast.If) and isinstance(node.test, ast.Compare) and len(node.body) == 1):
            continue
        test, args = node.test, _min_of(node.body[0])
        if args is None:
            continue
        if (
            _attr(test.left, "max_total_tokens")
            and isinstance(test.ops[0], ast.IsNot)
            and any(_attr(a, "max_total_tokens") for a in args)
        ):
            total = True
        if (
            isinstance(test.left, ast.Constant)
            and test.left.value == "llama-2"
            and isinstance(test.ops[0], ast.In)
            and any(_attr(n, "model_path") for n in ast.walk(test.comparators[0]))
        ):
            caps = [a.value for a in args if isinstance(a, ast.Constant) and type(a.value) is int]
            llama2 = caps[0] if len(caps) == 1 else None
    return {"total_tokens": total, "llama2": llama2}


def decode_appends_max_bs(function: ast.FunctionDef) -> bool:
    for node in ast.walk(function):
        if (
            isinstance(node, ast.If)
            and isinstance(node.test, ast.Compare)
            and isinstance(node.test.ops[0], ast.NotIn)
            and isinstance(node.test.comparators[0], ast.Name)
            and node.test.comparators[0].id == "capture_bs"
            and any(
                isinstance(n, ast.Call) and _attr(n.func, "append")
                for stmt in node.body
                for n in ast.walk(stmt)
            )
        ):
            return True
    return False


def prefill_size_field(function: ast.FunctionDef) -> str | None:
    """The field the prefill token counts go up to: `X` of `range(a, self.X + 1, c)`."""
    for node in ast.walk(function):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "range":
            stop = node.args[1] if len(node.args) == 3 else None
            if isinstance(stop, ast.BinOp) and isinstance(stop.op, ast.Add):
                left = stop.left
                if (
                    isinstance(left, ast.Attribute)
                    and isinstance(left.value, ast.Name)
                    and left.value.id == "self"
                ):
                    return left.attr
    return None


def server_args_int(trees: list[ast.Module], name: str) -> int | None:
    """`ServerArgs.<name>: int = N` (0.5.6.x: piecewise_cuda_graph_max_tokens = 4096)."""
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and node.name == "ServerArgs":
                for field in node.body:
                    if (
                        isinstance(field, ast.AnnAssign)
                        and isinstance(field.target, ast.Name)
                        and field.target.id == name
                        and isinstance(field.value, ast.Constant)
                        and type(field.value.value) is int
                    ):
                        return field.value.value
    return None


def prefill_fields(
    function: ast.FunctionDef, flag: str | None, size: str | None = None
) -> dict[str, str] | None:
    """`size`: the field `prefill_size_field` read, where the memory settings do not set one."""
    tokens = assigned = None
    for node in ast.walk(function):
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1):
            continue
        target, value = node.targets[0], node.value
        if not (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)):
            continue
        if target.value.id != "self":
            continue
        if _attr(value, "chunked_prefill_size") and target.attr != "chunked_prefill_size":
            assigned = assigned or target.attr
        if isinstance(value, ast.Call) and _attr(value.func, TOKENS):
            tokens = target.attr
    size = assigned or size
    if flag is None or size is None or tokens is None:
        return None
    return {"backend": flag, "max_bs": size, "bs": tokens}


def _int(node: ast.expr) -> int | None:
    """A constant int, or a sum / product of them (`1024 + 1`)."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mult)):
        left, right = _int(node.left), _int(node.right)
        if left is None or right is None:
            return None
        return left + right if isinstance(node.op, ast.Add) else left * right
    return None


def _ranges(node: ast.expr) -> list[list[int | None]] | None:
    """`list(range(a, b, c)) + ...`: [[a, b, c], ...], b None where it is `<max> + 1`; a
    literal `[v, ...]` is [[v, v + 1, 1], ...]."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _ranges(node.left), _ranges(node.right)
        return None if left is None or right is None else left + right
    if isinstance(node, ast.List):
        values = [_int(e) for e in node.elts]
        return None if None in values else [[v, v + 1, 1] for v in values if v is not None]
    if not (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "list"
        and len(node.args) == 1
        and isinstance(node.args[0], ast.Call)
        and isinstance(node.args[0].func, ast.Name)
        and node.args[0].func.id == "range"
        and len(node.args[0].args) in (2, 3)
    ):
        return None
    start, stop, *rest = node.args[0].args
    first, last, stride = _int(start), _int(stop), _int(rest[0]) if rest else 1
    up_to_max = (
        isinstance(stop, ast.BinOp)
        and isinstance(stop.op, ast.Add)
        and _int(stop.right) == 1
        and last is None
    )
    if first is None or stride is None or (last is None and not up_to_max):
        return None
    return [[first, last, stride]]


def prefill_ranges(function: ast.FunctionDef) -> list[list[int | None]] | None:
    """The prefill CUDA-graph token counts' `capture_sizes = list(range(a, b, c)) + ...`
    (`generate_piecewise_cuda_graph_tokens` / `generate_prefill_cuda_graph_batch_sizes`), each
    [a, b, c] with b None for `<max> + 1`; None where not in that form."""
    for node in ast.walk(function):
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and node.targets[0].id == "capture_sizes"
        ):
            return _ranges(node.value)
    return None


def decode_ranges(function: ast.FunctionDef) -> dict[str, list[list[int | None]]] | None:
    """The decode CUDA-graph batch sizes before the cut at max_bs, as `_ranges` reads them:
    {"padding": under `if ....disable_cuda_graph_padding:`, "plain": under `elif
    ....speculative_algorithm is None:`, "speculative": the `else:`}; None where the function
    is not that `if` chain of `capture_bs = ...`."""
    for node in ast.walk(function):
        if not (isinstance(node, ast.If) and _attr(node.test, "disable_cuda_graph_padding")):
            continue
        plain = node.orelse[0] if len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If) else None
        if plain is None or not (
            isinstance(plain.test, ast.Compare)
            and _attr(plain.test.left, "speculative_algorithm")
            and isinstance(plain.test.ops[0], ast.Is)
        ):
            return None
        read = {}
        for name, body in (("padding", node.body), ("plain", plain.body), ("speculative", plain.orelse)):
            if not (
                len(body) == 1
                and isinstance(body[0], ast.Assign)
                and isinstance(body[0].targets[0], ast.Name)
                and body[0].targets[0].id == "capture_bs"
            ):
                return None
            ranges = _ranges(body[0].value)
            if ranges is None:
                return None
            read[name] = ranges
        return read
    return None
