"""Read, statically (`ast`, never imported), the --quantization values under which a release
refuses any explicit MoE runner but the ones it lists (0.5.14+ `nvfp4_online`); used by
tools/gen_sglang_moe_defaults.py (`moe_runner_refusals`). The branches and names are found as
tools/sglang_moe_runner_asserts.py finds them for the runners' asserts."""

from __future__ import annotations

import ast

from sglang_environ import declared
from sglang_moe_runner_asserts import Sources, _local, _module_lists, _quantization_branches


def read_runner_refusals(sources: Sources, environ: str | None = None) -> dict[str, dict] | None:
    """`runner_refusals` (0.5.14+ `nvfp4_online`): under `if ....quantization == "V":`, an
    `if`/`elif moe_runner_backend not in [runners] [and not (...)]:` that raises
    `ValueError("...")` -> {V: {"runners", "message", "unless": the other terms as written, or
    null, "where": the function raising it}} (`environ`: the release's sglang/srt/environ.py,
    for the environment switch of `unless_a2a`)."""
    lists = _module_lists(sources)
    found: dict[str, dict] = {}
    for value, node, function in _quantization_branches(sources):
        for inner in (n for stmt in node.body for n in ast.walk(stmt)):
            if not isinstance(inner, ast.If):
                continue
            terms = (
                inner.test.values
                if isinstance(inner.test, ast.BoolOp) and isinstance(inner.test.op, ast.And)
                else [inner.test]
            )
            first = terms[0]
            if not (
                isinstance(first, ast.Compare)
                and len(first.ops) == 1
                and isinstance(first.ops[0], ast.NotIn)
                and "moe_runner_backend" in ast.unparse(first.left)
            ):
                continue
            raised = next((st.exc for st in inner.body if isinstance(st, ast.Raise)), None)
            if not (
                isinstance(raised, ast.Call)
                and isinstance(raised.func, ast.Name)
                and raised.func.id == "ValueError"
                and len(raised.args) == 1
                and isinstance(raised.args[0], ast.Constant)
            ):
                continue
            right = _local(node.body, first.comparators[0])
            if isinstance(right, ast.Name) and right.id in lists:
                runners = lists[right.id]
            elif isinstance(right, (ast.List, ast.Tuple)):
                runners = [e.value for e in right.elts if isinstance(e, ast.Constant)]
            else:
                continue
            unless = " and ".join(ast.unparse(t) for t in terms[1:]) or None
            reading = {
                "runners": runners,
                "message": raised.args[0].value,
                "unless": unless,
                "unless_a2a": _unless_a2a(node.body, terms[1:], environ),
                "where": function,
            }
            found.setdefault(value, reading)
    return found or None


def _unless_a2a(body: list[ast.stmt], terms: list[ast.expr], environ: str | None) -> dict[str, object] | None:
    """`not (moe_runner_backend == "R" and NAME)` with `NAME = (....moe_a2a_backend == "A" and
    ...)` assigned in the branch (0.5.23 `use_megamoe_w4a16`) -> {"runner": R,
    "moe_a2a_backend": A}: runner R is taken only beside that all-to-all backend; with "env"
    where the one other term is `envs.X.get()` of a boolean variable (`env_switch`)."""
    both = terms[0].operand if len(terms) == 1 and isinstance(terms[0], ast.UnaryOp) else None
    if not (isinstance(both, ast.BoolOp) and isinstance(both.op, ast.And) and len(both.values) == 2):
        return None
    runner, name = both.values
    value = _local(body, name)
    first = value.values[0] if isinstance(value, ast.BoolOp) and isinstance(value.op, ast.And) else None
    pairs = []
    for test, field in ((runner, "moe_runner_backend"), (first, "moe_a2a_backend")):
        if not (
            isinstance(test, ast.Compare)
            and isinstance(test.ops[0], ast.Eq)
            and field in ast.unparse(test.left)
            and isinstance(test.comparators[0], ast.Constant)
        ):
            return None
        pairs.append(str(test.comparators[0].value))
    found: dict[str, object] = {"runner": pairs[0], "moe_a2a_backend": pairs[1]}
    assert isinstance(value, ast.BoolOp)
    switch = env_switch(value.values[1], environ) if len(value.values) == 2 else None
    if switch is not None:
        found["env"] = switch
    return found


def env_switch(node: ast.expr, environ: str | None) -> dict[str, object] | None:
    """`envs.X.get()` where environ.py declares `X = EnvBool(<constant>)` -> {"name": X,
    "default": the constant, "true" / "false": the lowered values `EnvBool.parse` turns into
    True / False (any other value: the default, with a warning)}; None where not read."""
    if not (
        isinstance(node, ast.Call)
        and not node.args
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "get"
        and isinstance(node.func.value, ast.Attribute)
        and isinstance(node.func.value.value, ast.Name)
        and node.func.value.value.id == "envs"
        and environ is not None
    ):
        return None
    name = node.func.value.attr
    default = declared(environ, name, "EnvBool", bool)
    parse = next(
        (
            _bool_parse(c)
            for c in ast.walk(ast.parse(environ))
            if isinstance(c, ast.ClassDef) and c.name == "EnvBool"
        ),
        None,
    )
    if default is None or parse is None:
        return None
    return {"name": name, "default": default, "true": parse[0], "false": parse[1]}


def _bool_parse(cls: ast.ClassDef) -> tuple[list[str], list[str]] | None:
    """`def parse(self, value): value = value.lower(); if value in [...]: return True; if value
    in [...]: return False; raise ValueError(...)` -> (the true values, the false values)."""
    method = next((f for f in cls.body if isinstance(f, ast.FunctionDef) and f.name == "parse"), None)
    if method is None or not method.body or ast.unparse(method.body[0]) != "value = value.lower()":
        return None
    found: dict[bool, list[str]] = {}
    for stmt in method.body[1:]:
        if isinstance(stmt, ast.Raise):
            break
        test = stmt.test if isinstance(stmt, ast.If) else None
        returned = stmt.body[0] if isinstance(stmt, ast.If) and len(stmt.body) == 1 else None
        if not (
            isinstance(test, ast.Compare)
            and ast.unparse(test.left) == "value"
            and isinstance(test.ops[0], ast.In)
            and isinstance(test.comparators[0], (ast.List, ast.Tuple))
            and isinstance(returned, ast.Return)
            and isinstance(returned.value, ast.Constant)
            and isinstance(returned.value.value, bool)
        ):
            return None
        items = [e.value for e in test.comparators[0].elts if isinstance(e, ast.Constant)]
        found[returned.value.value] = [str(v) for v in items]
    if set(found) != {True, False}:
        return None
    return found[True], found[False]


def read_runner_alias(sources: Sources) -> dict[str, object] | None:
    """0.5.18+ `handle_moe_runner_backend_alias`: a function that returns unless
    `X.moe_runner_backend != "V"` is false, then declares fields with keyword constants
    (`declare_resolution(server_args, "name", moe_runner_backend="auto",
    moe_a2a_backend="megamoe")`) -> {"runner": V, "declares": {field: value}, "where": name}."""
    for _, tree, _ in sources:
        for function in (f for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)):
            first = next((s for s in function.body if isinstance(s, ast.If)), None)
            test = first.test if first is not None else None
            if not (
                isinstance(test, ast.Compare)
                and isinstance(test.ops[0], ast.NotEq)
                and ast.unparse(test.left).endswith(".moe_runner_backend")
                and isinstance(test.comparators[0], ast.Constant)
                and first is not None
                and isinstance(first.body[0], ast.Return)
            ):
                continue
            declares = {  # 0.5.18: `self.F = constant` statements instead
                t.attr: s.value.value
                for s in function.body
                if isinstance(s, ast.Assign) and isinstance(s.value, ast.Constant)
                for t in s.targets
                if isinstance(t, ast.Attribute)
            }
            for call in (n for n in ast.walk(function) if isinstance(n, ast.Call)):
                if isinstance(call.func, ast.Name) and call.func.id == "declare_resolution":
                    declares.update(
                        (str(k.arg), k.value.value)
                        for k in call.keywords
                        if isinstance(k.value, ast.Constant)
                    )
            if "moe_runner_backend" in declares:
                return {"runner": test.comparators[0].value, "declares": declares, "where": function.name}
    return None
