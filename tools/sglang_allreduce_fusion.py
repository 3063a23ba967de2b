"""When a release before --flashinfer-allreduce-fusion-backend turns
--enable-flashinfer-allreduce-fusion on by itself, read statically (`ast`) for
tools/gen_sglang_gpu_resolution.py: the `if <a> and <b> and ...:` of `ServerArgs` whose body
is `self.enable_flashinfer_allreduce_fusion = True` (`_handle_model_specific_adjustments`,
0.5.13.post1 and older), as {"conditions": [each operand as written (`ast.unparse`), the
architecture list left out], "architectures": [the names of its `model_arch in [...]`],
"is_h20_device": the test assigned to the `is_h20_device` a condition names, as written, or
None, "before_data_parallelism": whether the function holding the `if` is called before
`_handle_data_parallelism` (which turns --enable-dp-attention off for --dp-size 1) by a function
calling both (`__post_init__`), None where none does}. None where there is no such `if` with a `model_arch in [...]` (0.5.14+ resolve the
backend instead; 0.5.6.x set the flag inside each architecture's branch, not read)."""

from __future__ import annotations

import ast

FIELD = "enable_flashinfer_allreduce_fusion"


def _sets_true(body: list[ast.stmt]) -> bool:
    return any(
        isinstance(stmt, ast.Assign)
        and any(isinstance(t, ast.Attribute) and t.attr == FIELD for t in stmt.targets)
        and isinstance(stmt.value, ast.Constant)
        and stmt.value.value is True
        for stmt in body
    )


def _h20_test(function: ast.AST) -> str | None:
    for node in ast.walk(function):
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and node.targets[0].id == "is_h20_device"
        ):
            return ast.unparse(node.value)
    return None


def allreduce_fusion(trees: list[ast.Module]) -> dict[str, object] | None:
    for tree in trees:
        for function in ast.walk(tree):
            if isinstance(function, ast.FunctionDef):
                found = _read(function)
                if found is not None:
                    found["before_data_parallelism"] = _called_before(trees, function.name, DATA_PARALLELISM)
                    return found
    return None


DATA_PARALLELISM = "_handle_data_parallelism"


def _called_before(trees: list[ast.Module], first: str, second: str) -> bool | None:
    """In the first function calling both `self.<first>()` and `self.<second>()`: whether the
    first call comes first; None where no function calls both."""
    for tree in trees:
        for function in (f for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)):
            lines: dict[str, int] = {}
            for node in ast.walk(function):
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Attribute)
                    and isinstance(node.func.value, ast.Name)
                    and node.func.value.id == "self"
                    and node.func.attr in (first, second)
                ):
                    lines.setdefault(node.func.attr, node.lineno)
            if len(lines) == 2:
                return lines[first] < lines[second]
    return None


def _read(function: ast.FunctionDef) -> dict[str, object] | None:
    for node in ast.walk(function):
        if not (
            isinstance(node, ast.If)
            and isinstance(node.test, ast.BoolOp)
            and isinstance(node.test.op, ast.And)
            and _sets_true(node.body)
        ):
            continue
        conditions, architectures = [], []
        for operand in node.test.values:
            if (
                isinstance(operand, ast.Compare)
                and isinstance(operand.left, ast.Name)
                and operand.left.id == "model_arch"
                and isinstance(operand.ops[0], ast.In)
                and isinstance(operand.comparators[0], (ast.List, ast.Tuple))
            ):
                elements = operand.comparators[0].elts
                architectures = [e.value for e in elements if isinstance(e, ast.Constant)]
            else:
                conditions.append(ast.unparse(operand))
        if not architectures:
            continue  # 0.5.6.x: inside the architectures' own branches, a form not read
        return {
            "conditions": conditions,
            "architectures": [str(a) for a in architectures],
            "is_h20_device": _h20_test(function),
        }
    return None
