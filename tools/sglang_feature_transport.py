"""What `_handle_multimodal_feature_transport` resolves --mm-feature-transport to when it is not
given, read statically (`ast`) from a release's source, for the launches speclint resolves
for a GPU: CUDA, no PD disaggregation, not encoder-only, no legacy
SGLANG_USE_CUDA_IPC_TRANSPORT in the environment.

The `if requested_transport is None:` chain is run on those facts for a text model and a
multimodal one (`....get_model_config().is_multimodal`), on one node and on several
(`--nnodes`): the constant each run assigns to `requested_transport` (0.5.17: "cuda_ipc" on
one node, 0.5.16 and 0.5.18+: "cpu"; 0.5.14-0.5.15.post1 have no such function), None where
a test or statement outside that vocabulary is met (0.5.18+: a multimodal model on several
nodes tests `is_mnnvl_fabric_device()`). A test or statement outside that vocabulary makes the reading None."""

from __future__ import annotations

import ast

FUNCTION = "handle_multimodal_feature_transport"
TARGET = "requested_transport"


class Unreadable(Exception):
    pass


def _self_attr(node: ast.expr, name: str) -> bool:
    """`self.name`, or `cfg.name` / `server_args.name` (0.5.19+: a hook's resolving view)."""
    return (
        isinstance(node, ast.Attribute)
        and node.attr == name
        and isinstance(node.value, ast.Name)
        and node.value.id in ("self", "cfg", "server_args")
    )


def _called(node: ast.expr, name: str) -> bool:
    """`name(...)` or `x.name(...)`."""
    return isinstance(node, ast.Call) and (
        (isinstance(node.func, ast.Name) and node.func.id == name)
        or (isinstance(node.func, ast.Attribute) and node.func.attr == name)
    )


def _test(node: ast.expr, multimodal: bool, nodes: int) -> bool:
    """A branch test under the facts above."""
    if isinstance(node, ast.BoolOp):
        values = [_test(v, multimodal, nodes) for v in node.values]
        return all(values) if isinstance(node.op, ast.And) else any(values)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return not _test(node.operand, multimodal, nodes)
    if isinstance(node, ast.Name) and node.id == "legacy_ipc_is_set":
        return False
    if _self_attr(node, "encoder_only"):
        return False
    if _called(node, "is_cuda") or (
        isinstance(node, ast.Attribute) and node.attr == "is_cuda" and _called(node.value, "get_platform")
    ):
        return True
    if isinstance(node, ast.Attribute) and node.attr == "is_multimodal":
        if _called(node.value, "get_model_config") or _called(node.value, "model_config_of"):
            return multimodal
    if (
        isinstance(node, ast.Compare)
        and len(node.ops) == 1
        and isinstance(node.comparators[0], ast.Constant)
        and isinstance(node.ops[0], (ast.Eq, ast.NotEq))
    ):
        facts = {"nnodes": nodes, "disaggregation_mode": "null"}
        name = next((n for n in facts if _self_attr(node.left, n)), None)
        if name is not None:
            equal = facts[name] == node.comparators[0].value
            return equal if isinstance(node.ops[0], ast.Eq) else not equal
    raise Unreadable(ast.unparse(node))


def _run(body: list[ast.stmt], multimodal: bool, nodes: int) -> str | None:
    """The constant the statements leave in `requested_transport` (None: none assigned)."""
    value: str | None = None
    for stmt in body:
        if isinstance(stmt, ast.Expr) or isinstance(stmt, (ast.Import, ast.ImportFrom, ast.Pass)):
            continue  # logging calls, local imports
        if (
            isinstance(stmt, ast.Assign)
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)
            and stmt.targets[0].id == TARGET
            and isinstance(stmt.value, ast.Constant)
            and isinstance(stmt.value.value, str)
        ):
            value = stmt.value.value
        elif isinstance(stmt, ast.If):
            chosen = _run(
                stmt.body if _test(stmt.test, multimodal, nodes) else stmt.orelse, multimodal, nodes
            )
            value = chosen if chosen is not None else value
        else:
            raise Unreadable(ast.unparse(stmt))
    return value


def _chain(function: ast.FunctionDef) -> ast.If | None:
    for node in ast.walk(function):
        if (
            isinstance(node, ast.If)
            and isinstance(node.test, ast.Compare)
            and isinstance(node.test.left, ast.Name)
            and node.test.left.id == TARGET
            and isinstance(node.test.ops[0], ast.Is)
            and isinstance(node.test.comparators[0], ast.Constant)
            and node.test.comparators[0].value is None
        ):
            return node
    return None


def _value(chain: ast.If, multimodal: bool, nodes: int) -> str | None:
    try:
        return _run(chain.body, multimodal, nodes)
    except Unreadable:
        return None


def feature_transport(function: ast.FunctionDef) -> dict[str, str | None] | None:
    """{"text", "multimodal", "text_nodes", "multimodal_nodes"}: the value on one node and
    on several (None: not read), or None where nothing is read."""
    chain = _chain(function)
    if chain is None:
        return None
    read = {
        f"{kind}{suffix}": _value(chain, kind == "multimodal", nodes)
        for suffix, nodes in (("", 1), ("_nodes", 2))
        for kind in ("text", "multimodal")
    }
    return read if any(v is not None for v in read.values()) else None
