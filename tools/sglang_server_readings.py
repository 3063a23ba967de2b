"""Two readings of tools/gen_sglang_server_checks.py (see its docstring): `env_flag_compat`
(0.5.16-0.5.17 `_apply_fuseep_mode_env_compat`) and `runner_writers` (every function of the
resolution code writing the MoE runner, with the architectures a model override is registered
for). Read statically (`ast`), never imported."""

from __future__ import annotations

import ast


def template(node: ast.expr, name: str) -> str | None:
    """An f-string (or a plain string) with `name` as `{value!r}` / `{value}`."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.replace("{", "{{").replace("}", "}}")
    if not isinstance(node, ast.JoinedStr):
        return None
    parts = []
    for value in node.values:
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            parts.append(value.value.replace("{", "{{").replace("}", "}}"))
        elif (
            isinstance(value, ast.FormattedValue)
            and ast.unparse(value.value) == name
            and value.format_spec is None
        ):
            parts.append({-1: "{value}", 114: "{value!r}", 115: "{value}"}.get(value.conversion, "?"))
        else:
            return None
    text = "".join(parts)
    return None if "?" in parts else text


def env_flag_compat(sources: list[str], environ: str | None) -> dict[str, object] | None:
    from sglang_environ import env_int

    found = []
    for source in sources:
        for function in ast.walk(ast.parse(source)):
            if not isinstance(function, ast.FunctionDef) or len(function.body) < 3:
                continue
            guard, read, test = function.body[:3]
            if not (
                isinstance(guard, ast.If)
                and isinstance(guard.test, ast.BoolOp)
                and isinstance(guard.test.op, ast.Or)
                and len(guard.test.values) == 2
                and [ast.unparse(n) for n in guard.body] == ["return"]
                and isinstance(read, ast.Assign)
                and len(read.targets) == 1
                and isinstance(read.targets[0], ast.Name)
                and isinstance(test, ast.If)
                and isinstance(test.test, ast.Compare)
                and [type(o) for o in test.test.ops] == [ast.NotIn]
                and isinstance(test.test.comparators[0], (ast.Tuple, ast.List))
                and len(test.body) == 1
                and isinstance(test.body[0], ast.Raise)
                and isinstance(test.body[0].exc, ast.Call)
                and ast.unparse(test.body[0].exc.func) == "ValueError"
                and len(test.body[0].exc.args) == 1
            ):
                continue
            unset, flag_test = (ast.unparse(v) for v in guard.test.values)
            read_call = ast.unparse(read.value)
            name = read.targets[0].id
            if not (
                unset.startswith("not envs.")
                and unset.endswith(".is_set()")
                and read_call == unset[len("not ") : -len(".is_set()")] + ".get()"
                and flag_test.startswith("_has_cli_arg(argv, '--")
                and flag_test.endswith("')")
                and ast.unparse(test.test.left) == name
            ):
                continue
            variable = unset[len("not envs.") : -len(".is_set()")]
            default = env_int(environ, variable)
            values = test.test.comparators[0].elts
            allowed = [e.value for e in values if isinstance(e, ast.Constant)]
            message = template(test.body[0].exc.args[0], name)
            if default is None or message is None or len(allowed) != len(values):
                continue
            found.append(
                {
                    "variable": variable,
                    "default": default,
                    "flag": flag_test[len("_has_cli_arg(argv, '") : -len("')")],
                    "allowed": allowed,
                    "message": message,
                    "where": function.name,
                }
            )
    return found[0] if len(found) == 1 else None


_REGISTERS = ("_register_for", "register_model_override")


def _writes_runner(node: ast.AST) -> bool:
    if isinstance(node, ast.Call):
        return "declare" in ast.unparse(node.func) and any(
            k.arg == "moe_runner_backend" for k in node.keywords
        )
    if isinstance(node, ast.Assign):
        return any(
            ast.unparse(t).replace('"', "'")
            in ("self.moe_runner_backend", "overrides['moe_runner_backend']", "moe_runner_backend")
            for t in node.targets
        )
    if isinstance(node, ast.Dict):
        return any(isinstance(k, ast.Constant) and k.value == "moe_runner_backend" for k in node.keys)
    return False


def _arch_test(test: ast.expr) -> set[str] | None:
    """`model_arch in ("A", ...)` / `model_arch == "A"` -> the names; None for another test."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and ast.unparse(test.left) == "model_arch"):
        return None
    right = test.comparators[0]
    if isinstance(test.ops[0], ast.Eq) and isinstance(right, ast.Constant) and isinstance(right.value, str):
        return {right.value}
    if isinstance(test.ops[0], ast.In) and isinstance(right, (ast.Tuple, ast.List, ast.Set)):
        names = {e.value for e in right.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)}
        return names if len(names) == len(right.elts) else None
    return None


def _write_archs(function: ast.FunctionDef) -> set[str] | None:
    """The architectures under whose `model_arch` tests every runner write sits; None where a
    write sits under none."""
    found: set[str] = set()

    def walk(body: list[ast.stmt], archs: set[str] | None) -> bool:
        for stmt in body:
            if isinstance(stmt, ast.If):
                narrowed = _arch_test(stmt.test)
                inner = archs if narrowed is None else (narrowed if archs is None else archs & narrowed)
                if not walk(stmt.body, inner) or not walk(stmt.orelse, archs):
                    return False
                continue
            if any(_writes_runner(n) for n in ast.walk(stmt)):
                if archs is None:
                    return False
                found.update(archs)
        return True

    return found if walk(function.body, None) else None


def runner_writers(named: list[tuple[str, str]]) -> list[dict[str, object]]:
    out = []
    for name, source in named:
        for function in ast.walk(ast.parse(source)):
            if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            if not any(_writes_runner(n) for n in ast.walk(function)):
                continue
            registered: set[str] = set()
            for decorator in function.decorator_list:
                if isinstance(decorator, ast.Call) and ast.unparse(decorator.func) in _REGISTERS:
                    registered.update(a.value for a in decorator.args if isinstance(a, ast.Constant))
            archs: list[str] | None = None
            if registered:
                narrowed = _write_archs(function) if isinstance(function, ast.FunctionDef) else None
                archs = sorted(registered & narrowed if narrowed is not None else registered)
            where = name.removeprefix("sglang/srt/") + "::" + function.name
            out.append({"where": where, "archs": archs})
    return sorted(out, key=lambda w: str(w["where"]))
