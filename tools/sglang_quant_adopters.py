"""Which architectures an SGLang release's resolution gives the checkpoint's quantization,
read statically (`ast`, never imported) from server_args.py and arg_groups/*.py; used by
tools/gen_sglang_moe_defaults.py (`quantization_adopters`).

Every statement that sets the quantization (`<x>.quantization = V`, `<d>["quantization"] = V`,
a call with `quantization=V`) to anything but None or "gguf" (a GGUF file's own, not a
checkpoint config's) is placed under the architectures it is written for: the `if model_arch
in [...]:` around it, the `@_register_for(...)` names of its function, the names a
`if <...> not in NAME: return` at the top of its function lets through (NAME a module-level
set of strings), or those of the `if model_arch in [...]:` branches every call of its
function sits in; and whether a test around it (or around those calls) names SM100 or
Blackwell (`is_sm100_supported()`, `is_blackwell_supported()`). Also whether a test around it asks
`not ..._quantization_explicitly_unset` (`--quantization unquant`, 0.5.11+). The reading is
[{"architectures": [...], "gpu_gated": bool, "unset_guarded": bool}, ...], or None where one statement is not placed:
then no architecture is known to be left without the checkpoint's quantization.
"""

from __future__ import annotations

import ast

Sources = list[tuple[str, ast.Module, str]]


def _arch_list(test: ast.expr) -> list[str]:
    for part in test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) else [test]:
        if (
            isinstance(part, ast.Compare)
            and isinstance(part.left, ast.Name)
            and part.left.id == "model_arch"
            and isinstance(part.ops[0], ast.In)
            and isinstance(part.comparators[0], (ast.List, ast.Tuple, ast.Set))
        ):
            return [e.value for e in part.comparators[0].elts if isinstance(e, ast.Constant)]
    return []


def _gated(test: ast.expr) -> bool:
    text = ast.unparse(test).lower()
    return "sm100" in text or "blackwell" in text


def _unset(test: ast.expr) -> bool:
    return "_quantization_explicitly_unset" in ast.unparse(test)


def _sets_quantization(node: ast.AST) -> ast.expr | None:
    if isinstance(node, ast.Assign):
        for target in node.targets:
            if isinstance(target, ast.Attribute) and target.attr == "quantization":
                return node.value
            if (
                isinstance(target, ast.Subscript)
                and isinstance(target.slice, ast.Constant)
                and target.slice.value == "quantization"
            ):
                return node.value
    if isinstance(node, ast.Call):
        return next((k.value for k in node.keywords if k.arg == "quantization"), None)
    return None


Site = tuple[list[str] | None, bool, bool]
"""(architectures, gated by an SM100/Blackwell test, guarded by `not ..._quantization_explicitly_unset`)"""


def _sites(node: ast.AST, archs: list[str] | None, gated: bool, unset: bool, out: list[Site]) -> None:
    if isinstance(node, ast.If):
        listed = _arch_list(node.test) or archs
        for child in node.body:
            _sites(child, listed, gated or _gated(node.test), unset or _unset(node.test), out)
        for child in node.orelse:
            _sites(child, archs, gated, unset, out)
        return
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        return  # a nested function: placed on its own
    value = _sets_quantization(node)
    if value is not None and not (isinstance(value, ast.Constant) and value.value in (None, "gguf")):
        out.append((archs, gated, unset))
    for child in ast.iter_child_nodes(node):
        _sites(child, archs, gated, unset, out)


def _module_sets(sources: Sources) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for _, tree, _ in sources:
        for stmt in tree.body:
            if (
                isinstance(stmt, ast.Assign)
                and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name)
            ):
                strings = [
                    c.value
                    for c in ast.walk(stmt.value)
                    if isinstance(c, ast.Constant) and isinstance(c.value, str)
                ]
                if strings:
                    found[stmt.targets[0].id] = strings
    return found


def _guard(function: ast.FunctionDef, sets: dict[str, list[str]]) -> list[str] | None:
    """`if <...> not in NAME: return ...` among the function's first statements."""
    for stmt in function.body[:6]:
        if (
            isinstance(stmt, ast.If)
            and isinstance(stmt.test, ast.Compare)
            and isinstance(stmt.test.ops[0], ast.NotIn)
            and isinstance(stmt.test.comparators[0], ast.Name)
            and stmt.test.comparators[0].id in sets
            and stmt.body
            and isinstance(stmt.body[0], ast.Return)
        ):
            return sets[stmt.test.comparators[0].id]
    return None


def _callers(sources: Sources, name: str) -> list[tuple[list[str], bool]] | None:
    """The (architectures, gated) of the `if model_arch in [...]:` branch around each call of
    `name`; None where a call sits outside such a branch, or there is none."""
    found: list[tuple[list[str], bool]] = []
    unplaced = False

    def visit(node: ast.AST, archs: list[str] | None, gated: bool) -> None:
        nonlocal unplaced
        if isinstance(node, ast.If):
            listed = _arch_list(node.test) or archs
            for child in node.body:
                visit(child, listed, gated or _gated(node.test))
            for child in node.orelse:
                visit(child, archs, gated)
            return
        if isinstance(node, ast.Call):
            func = node.func
            called = (
                func.id
                if isinstance(func, ast.Name)
                else func.attr
                if isinstance(func, ast.Attribute)
                else ""
            )
            if called == name:
                if archs:
                    found.append((archs, gated))
                else:
                    unplaced = True
        for child in ast.iter_child_nodes(node):
            visit(child, archs, gated)

    for _, tree, _ in sources:
        visit(tree, None, False)
    return None if unplaced or not found else found


def read_quantization_adopters(sources: Sources) -> list[dict[str, object]] | None:
    sets = _module_sets(sources)
    placed: list[dict[str, object]] = []
    for _, tree, _ in sources:
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef):
                continue
            sites: list[Site] = []
            for stmt in node.body:
                _sites(stmt, None, False, False, sites)
            if not sites:
                continue
            registered = [
                a.value
                for d in node.decorator_list
                if isinstance(d, ast.Call) and isinstance(d.func, ast.Name) and d.func.id == "_register_for"
                for a in d.args
                if isinstance(a, ast.Constant)
            ]
            outer = registered or _guard(node, sets)
            callers = None if outer or all(a for a, _, _ in sites) else _callers(sources, node.name)
            for archs, gated, unset in sites:
                if archs or outer:
                    placed.append((tuple(sorted(set(archs or outer or ()))), gated, unset))
                elif callers is not None:
                    placed.extend(
                        (tuple(sorted(set(names))), gated or call_gated, unset)
                        for names, call_gated in callers
                    )
                else:
                    return None
    return [{"architectures": list(a), "gpu_gated": g, "unset_guarded": u} for a, g, u in sorted(set(placed))]
