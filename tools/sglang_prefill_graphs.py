"""Two facts about prefill CUDA graphs read statically (`ast`) from a release's wheel, outside
`server_args.py`, for tools/gen_sglang_gpu_resolution.py:

- `prefill_default`: the prefill CUDA-graph backend `CudaGraphConfig` starts with on CUDA
  (`sglang/srt/model_executor/cuda_graph_config.py`): the `Backend.X` of
  `prefill: PhaseConfig = field(default_factory=lambda: PhaseConfig(backend=Backend.X))`
  (0.5.14: tc_piecewise), or, where the backend is `default_prefill_backend()`, the branch
  that function returns on CUDA (`Backend.BREAKABLE if is_cuda() else ...`, 0.5.15+:
  breakable). None where neither form is there.
- `piecewise_disabled_archs`: `piecewise_cuda_graph_disabled_model_archs` of
  `sglang/srt/configs/model_config.py` (the tc_piecewise "model-arch blacklist" rule).

and, in `handle_gpu_memory_settings`, `decode_reserve_unguarded`; in
`apply_cuda_graph_compatibility`, `multimodal_piecewise`; the names of a
`disable_*_cudagraph_if_incompatible`'s rules, `rule_names`.
"""

from __future__ import annotations

import ast
import zipfile

GRAPH_CONFIG = "sglang/srt/model_executor/cuda_graph_config.py"
MODEL_CONFIG = "sglang/srt/configs/model_config.py"
DEFAULT_FUNCTION = "default_prefill_backend"


def _tree(archive: zipfile.ZipFile, name: str) -> ast.Module | None:
    try:
        return ast.parse(archive.read(name).decode("utf-8"))
    except KeyError:
        return None


def _backend(node: ast.expr) -> str | None:
    """`Backend.X` -> "x"."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "Backend":
        return node.attr.lower()
    return None


def _on_cuda(tree: ast.Module) -> str | None:
    """What `default_prefill_backend()` returns when `is_cuda()` is true."""
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == DEFAULT_FUNCTION:
            returns = [n for n in ast.walk(node) if isinstance(n, ast.Return)]
            if len(returns) == 1 and isinstance(returns[0].value, ast.IfExp):
                choice = returns[0].value
                test = choice.test
                if (
                    isinstance(test, ast.Call)
                    and isinstance(test.func, ast.Name)
                    and test.func.id == "is_cuda"
                ):
                    return _backend(choice.body)
    return None


def prefill_default(archive: zipfile.ZipFile) -> str | None:
    tree = _tree(archive, GRAPH_CONFIG)
    if tree is None:
        return None
    for node in ast.walk(tree):
        if not (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and node.target.id == "prefill"
            and isinstance(node.value, ast.Call)
        ):
            continue
        for keyword in node.value.keywords:
            factory = keyword.value
            if keyword.arg != "default_factory" or not isinstance(factory, ast.Lambda):
                continue
            phase = factory.body
            if not isinstance(phase, ast.Call):
                return None
            backend = next((k.value for k in phase.keywords if k.arg == "backend"), None)
            if backend is None:
                return None
            if isinstance(backend, ast.Call) and isinstance(backend.func, ast.Name):
                return _on_cuda(tree) if backend.func.id == DEFAULT_FUNCTION else None
            return _backend(backend)
    return None


def piecewise_disabled_archs(archive: zipfile.ZipFile) -> list[str] | None:
    tree = _tree(archive, MODEL_CONFIG)
    if tree is None:
        return None
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and isinstance(node.targets[0], ast.Name)
            and node.targets[0].id == "piecewise_cuda_graph_disabled_model_archs"
            and isinstance(node.value, ast.List)
        ):
            names = [e.value for e in node.value.elts if isinstance(e, ast.Constant)]
            return [n for n in names if isinstance(n, str)]
    return None


def decode_reserve_unguarded(function: ast.FunctionDef) -> bool:
    """`reserved_mem += ....max_bs * 2` (the decode CUDA graphs' reserve) outside any `if`
    that tests a backend (0.5.14: reserved with decode graphs off too; 0.5.15-0.5.17 test
    `decode_cuda_graph_config.backend != Backend.DISABLED`)."""

    def reserve(stmt: ast.stmt) -> bool:
        value = stmt.value if isinstance(stmt, ast.AugAssign) else None
        return (
            isinstance(stmt, ast.AugAssign)
            and isinstance(stmt.target, ast.Name)
            and stmt.target.id == "reserved_mem"
            and isinstance(value, ast.BinOp)
            and isinstance(value.left, ast.Attribute)
            and value.left.attr in ("max_bs", "cuda_graph_max_bs")
            and isinstance(value.right, ast.Constant)
            and value.right.value == 2
        )

    def walk(body: list[ast.stmt], guarded: bool) -> bool:
        for stmt in body:
            if reserve(stmt) and not guarded:
                return True
            if isinstance(stmt, ast.If):
                tests = guarded or any(
                    isinstance(n, ast.Attribute) and n.attr == "backend" for n in ast.walk(stmt.test)
                )
                if walk(stmt.body, tests) or walk(stmt.orelse, tests):
                    return True
        return False

    return walk(function.body, False)


def multimodal_piecewise(function: ast.FunctionDef) -> bool:
    """An `if` moving every model with `is_multimodal_piecewise_cuda_graph_supported` to
    tc_piecewise prefill graphs, without the breakable allowlist's exception (0.5.15-0.5.16)."""
    for node in ast.walk(function):
        if isinstance(node, ast.If):
            names = {n.attr for n in ast.walk(node.test) if isinstance(n, ast.Attribute)}
            if (
                "is_multimodal_piecewise_cuda_graph_supported" in names
                and "is_multimodal_breakable_cuda_graph_supported" not in names
            ):
                return True
    return False


def rule_names(function: ast.FunctionDef) -> list[str]:
    """The names of `rules = [("name", lambda: ...), ...]` in the function."""
    for node in ast.walk(function):
        if (
            isinstance(node, ast.Assign)
            and isinstance(node.targets[0], ast.Name)
            and node.targets[0].id == "rules"
        ):
            if isinstance(node.value, ast.List):
                return [
                    str(e.elts[0].value)
                    for e in node.value.elts
                    if isinstance(e, ast.Tuple) and isinstance(e.elts[0], ast.Constant)
                ]
    return []


def _named(node: ast.expr, name: str) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == name


def pp_disables_breakable(function: ast.FunctionDef) -> bool:
    """`if ....pp_size > 1 and ....prefill.backend == Backend.BREAKABLE:` in the function."""
    for node in ast.walk(function):
        if isinstance(node, ast.If) and any(_named(n, "BREAKABLE") for n in ast.walk(node.test)):
            for compare in ast.walk(node.test):
                if (
                    isinstance(compare, ast.Compare)
                    and _named(compare.left, "pp_size")
                    and isinstance(compare.ops[0], ast.Gt)
                    and isinstance(compare.comparators[0], ast.Constant)
                    and compare.comparators[0].value == 1
                ):
                    return True
    return False
