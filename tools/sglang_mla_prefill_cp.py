"""Read, statically (`ast`, never imported), the DeepSeek model override's MLA prefill
context-parallelism block of a release (0.5.14 `ServerArgs._handle_model_specific_adjustments`,
0.5.15-0.5.18 `arg_groups/overrides.py`, 0.5.19+ `arg_groups/model_overrides/deepseek_v2.py`):

    if P.enable_prefill_cp and P.use_mla_backend():      # or use_mla_backend(server_args)
        self.X = <value>                                   # or overrides["X"] = <value>

(P: `self`, `cfg` or `server_args`) -> {"where": the enclosing function, "sets": [[field, kind,
value], ...] in the block's order, "logged"}, where kind is "constant" (value: the literal),
"field" (value: the one ServerArgs field it copies, `P.tp_size` -> "tp_size") or "unread"
(anything else: a call, an expression on locals; value null), and "logged" the block's first
`logger.warning` with a literal message, else null. Assignments to anything but a plain field
(`self.a.b = ...`, a local) are not listed. None where no such block is found, or where the
block holds a statement that could skip the rest (`return`, `raise`, a nested `if`); a block
that sets no field is passed over. Used by tools/gen_sglang_server_checks.py (`mla_prefill_cp`)."""

from __future__ import annotations

import ast

_OWNERS = ("self", "cfg", "server_args")


def _is_test(test: ast.expr) -> bool:
    if not (isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) and len(test.values) == 2):
        return False
    switch, mla = test.values
    if not (
        isinstance(switch, ast.Attribute)
        and switch.attr == "enable_prefill_cp"
        and isinstance(switch.value, ast.Name)
        and switch.value.id in _OWNERS
    ):
        return False
    if not isinstance(mla, ast.Call):
        return False
    func = mla.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    return name == "use_mla_backend"


def _field(target: ast.expr) -> str | None:
    """`self.X` -> X; `overrides["X"]` -> X; else None."""
    if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self":
        return target.attr
    if (
        isinstance(target, ast.Subscript)
        and isinstance(target.value, ast.Name)
        and target.value.id == "overrides"
        and isinstance(target.slice, ast.Constant)
        and isinstance(target.slice.value, str)
    ):
        return target.slice.value
    return None


def _value(node: ast.expr) -> list[object]:
    if isinstance(node, ast.Constant) and isinstance(node.value, (bool, int, str)):
        return ["constant", node.value]
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in _OWNERS:
        return ["field", node.attr]
    return ["unread", None]


def _logged(body: list[ast.stmt]) -> str | None:
    """The block's first `logger.warning("...")` with a literal message (what it logs first)."""
    for stmt in body:
        call = stmt.value if isinstance(stmt, ast.Expr) else None
        if (
            isinstance(call, ast.Call)
            and ast.unparse(call.func) == "logger.warning"
            and call.args
            and isinstance(call.args[0], ast.Constant)
            and isinstance(call.args[0].value, str)
        ):
            return call.args[0].value
    return None


def _sets(body: list[ast.stmt]) -> list[list[object]] | None:
    out: list[list[object]] = []
    for stmt in body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            field = _field(stmt.targets[0])
            if field is not None:
                out.append([field, *_value(stmt.value)])
        elif isinstance(stmt, (ast.Expr, ast.Assign, ast.AnnAssign, ast.AugAssign)):
            continue  # a log call, a local, a nested attribute (`self.cuda_graph_config.prefill...`)
        else:
            return None
    return out


def read_mla_prefill_cp(sources: list[str]) -> dict[str, object] | None:
    for source in (s for s in sources if "enable_prefill_cp" in s and "use_mla_backend" in s):
        tree = ast.parse(source)
        for function in (f for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)):
            for node in ast.walk(function):
                if isinstance(node, ast.If) and _is_test(node.test) and not node.orelse:
                    sets = _sets(node.body)
                    if sets is None:
                        return None
                    if sets:  # (0.5.22+ model_hook.py's block only declares the CUDA-graph phase)
                        return {"where": function.name, "sets": sets, "logged": _logged(node.body)}
    return None
