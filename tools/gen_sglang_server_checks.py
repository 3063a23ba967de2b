#!/usr/bin/env python3
"""Generate src/speclint/sglang/data/sglang_server_checks.json: asserts of `check_server_args`
speclint checks, read statically (`ast`, never imported) from each release's wheel.

    python tools/gen_sglang_server_checks.py              # every release the flag schema stores
    python tools/gen_sglang_server_checks.py --check      # regenerate and compare, write nothing

Per release, name -> index of its reading:

- `chunked_prefill_page`: the guard around `assert chunked_prefill_size % page_size == 0,
  "chunked_prefill_size must be divisible by page_size"` (server_args.py; 0.5.19+
  arg_groups/*.py): `"always"` (no `if` around it: 0.4.9.post4-0.4.10.post2 check -1 too),
  `"positive"` (`if chunked_prefill_size > 0:`), `"positive_not_decode"` (and
  `disaggregation_mode != "decode"`), `"other"` (a guard not read here), `"none"` (no such
  assert). Releases without that assert are read for its earlier form,
  `assert self.chunked_prefill_size % self.page_size == 0` with no message in
  `__post_init__` (0.4.4-0.4.9.post3, right after the chunked prefill default and before
  any page size an attention backend forces): `"post_init"` when no `if` is around it
  (`"other"` when one is).
- `decode_round_robin` (0.5.2-0.5.7: `__post_init__`, `_handle_disaggregation`, `_handle_pd_disaggregation`): under `if
  self.disaggregation_mode == "decode":`, `if self.dp_size > 1 and not is_in_ci(): assert
  self.prefill_round_robin_balance, (message)` (the `if` directly in a function's body) ->
  {"message", "where": that function, "ci_variable": the variable
  sglang/utils.py's `is_in_ci` reads (`get_bool_env_var("V")`, or `envs.V.get()` with
  environ.py's `V = EnvBool(False)`)}; null where not so.
- `ascend_fuseep_mode` (`_handle_a2a_moe`, 0.5.10-0.5.15.post1): under `if <a2a backend> ==
  "ascend_fuseep":`, `X = os.environ.get("V", None)` (the raw text, unset: None) or `X =
  envs.V.get()` (environ.py's `V = EnvInt(N)`), then `if X not in [values]: raise
  ValueError(f"...")` -> {"variable", "form": "environ" | "envint", "default": N or null,
  "allowed": [values], "message": the f-string with X as `{value!r}` / `{value}`, "where": the
  function}; null where not so.
- `env_flag_compat` (0.5.16-0.5.17 `_apply_fuseep_mode_env_compat`, called by
  `prepare_server_args` for every launch, whatever its backend): a function whose body is
  `if not envs.V.is_set() or _has_cli_arg(argv, "--flag"): return`, then `X = envs.V.get()`
  (environ.py's `V = EnvInt(N)`), then `if X not in (values): raise ValueError(f"...")` ->
  {"variable", "default": N, "flag", "allowed", "message" (X as `{value}`), "where": the
  function}; null where no such function.
- `runner_writers`: every function of the resolution code (server_args.py, arg_groups/**) with a
  statement writing the MoE runner (`declare_resolution(..., moe_runner_backend=...)`,
  `self.moe_runner_backend = ...`, `overrides["moe_runner_backend"] = ...`, a dict with that key,
  or the local `moe_runner_backend = ...` a post-process returns) -> sorted
  [{"where": "<path under sglang/srt/>::<function>", "archs": the architectures it is registered
  for (`@_register_for("A", ...)` / `@register_model_override("A")`), narrowed to those of the
  `if model_arch in (...)` / `== "A"` tests around every write, or null where not registered}].
- `fa3_e5m2_fallback`: where the release turns FA3 with an fp8_e5m2 KV cache into Triton (an
  `if` whose test has `attention_backend == "fa3"` and `kv_cache_dtype == "fp8_e5m2"` and whose
  body writes "triton"): `"resolution"` (server_args.py or arg_groups/, 0.5.4.post1+: the
  resolved value), `"model_runner"` (model_executor/model_runner.py, when the model loads:
  the resolved value stays fa3), `"none"`.
"""

from __future__ import annotations

import ast
import os
import sys
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from line_array import per_release_generator  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "src", "speclint", "sglang", "data", "sglang_server_checks.json")
CHUNKED_PAGE = "chunked_prefill_size must be divisible by page_size"


def _message(node: ast.Assert) -> str | None:
    msg = node.msg
    return msg.value if isinstance(msg, ast.Constant) and isinstance(msg.value, str) else None


def _guards(tree: ast.Module, message: str) -> list[list[str]] | None:
    """For each assert with `message`: the tests of the `if`s around it (innermost last) up
    to its function; None when there is none."""
    found: list[list[str]] = []

    def walk(node: ast.AST, tests: list[str]) -> None:
        if isinstance(node, ast.Assert) and _message(node) == message:
            found.append(tests)
            return
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            tests = []
        if isinstance(node, ast.If):
            for child in node.body:
                walk(child, [*tests, ast.unparse(node.test)])
            for child in node.orelse:
                walk(child, [*tests, f"not ({ast.unparse(node.test)})"])
            return
        for child in ast.iter_child_nodes(node):
            walk(child, tests)

    walk(tree, [])
    return found or None


POST_INIT_TEST = "self.chunked_prefill_size % self.page_size == 0"


def _post_init_asserts(tree: ast.Module) -> list[list[str]]:
    """The tests of the `if`s around each message-less POST_INIT_TEST assert directly in a
    `__post_init__` (innermost last)."""
    found: list[list[str]] = []

    def walk(node: ast.AST, tests: list[str]) -> None:
        if isinstance(node, ast.Assert) and node.msg is None and ast.unparse(node.test) == POST_INIT_TEST:
            found.append(tests)
        elif isinstance(node, ast.If):
            for child in node.body:
                walk(child, [*tests, ast.unparse(node.test)])
            for child in node.orelse:
                walk(child, [*tests, f"not ({ast.unparse(node.test)})"])
        elif not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for child in ast.iter_child_nodes(node):
                walk(child, tests)

    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == "__post_init__":
            for child in node.body:
                walk(child, [])
    return found


def chunked_page_reading(sources: list[str]) -> str:
    guards = [g for source in sources for g in (_guards(ast.parse(source), CHUNKED_PAGE) or [])]
    if not guards:
        early = [g for source in sources for g in _post_init_asserts(ast.parse(source))]
        if not early:
            return "none"
        return "post_init" if early == [[]] else "other"
    if len(guards) > 1:
        return "other"
    tests = guards[0]
    if not tests:
        return "always"
    if len(tests) == 1:
        test = tests[0].replace("self.", "").replace("cfg.", "")
        if test == "chunked_prefill_size > 0":
            return "positive"
        if test in (
            "chunked_prefill_size > 0 and disaggregation_mode != 'decode'",
            'chunked_prefill_size > 0 and disaggregation_mode != "decode"',
        ):
            return "positive_not_decode"
    return "other"


def _resolution_file(name: str) -> bool:
    return name == "sglang/srt/server_args.py" or (
        name.startswith("sglang/srt/arg_groups/") and name.endswith(".py")
    )


def _read(archive: zipfile.ZipFile, name: str) -> str | None:
    return archive.read(name).decode("utf-8") if name in archive.namelist() else None


def _ci_variable(utils: str | None, environ: str | None, test_utils: str | None = None) -> str | None:
    """The variable sglang/utils.py's `is_in_ci` reads: `return get_bool_env_var("V")`, or
    `return envs.V.get()` with environ.py's `V = EnvBool(False)`, or (0.5.2-0.5.6) what
    sglang/test/test_utils.py's reads where it imports that one and returns its call."""
    for node in ast.walk(ast.parse(utils or "")):
        if not (isinstance(node, ast.FunctionDef) and node.name == "is_in_ci"):
            continue
        body = [s for s in node.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
        if (
            test_utils is not None
            and len(body) == 2
            and ast.unparse(body[0]) == "from sglang.test.test_utils import is_in_ci"
            and ast.unparse(body[1]) == "return is_in_ci()"
        ):
            return _ci_variable(test_utils, environ)
        if len(body) != 1 or not isinstance(body[0], ast.Return) or not isinstance(body[0].value, ast.Call):
            return None
        call = body[0].value
        func = ast.unparse(call.func)
        if func == "get_bool_env_var" and len(call.args) == 1:
            arg = call.args[0]
            return arg.value if isinstance(arg, ast.Constant) and isinstance(arg.value, str) else None
        if func.startswith("envs.") and func.endswith(".get") and not call.args:
            variable = func[len("envs.") : -len(".get")]
            for stmt in ast.walk(ast.parse(environ or "")):
                if (
                    isinstance(stmt, ast.Assign)
                    and [ast.unparse(t) for t in stmt.targets] == [variable]
                    and ast.unparse(stmt.value) == "EnvBool(False)"
                ):
                    return variable
        return None
    return None


def decode_round_robin(
    sources: list[str], utils: str | None, environ: str | None, test_utils: str | None
) -> dict[str, str] | None:
    variable = _ci_variable(utils, environ, test_utils)
    found = []
    for source in sources:
        functions = [f for f in ast.walk(ast.parse(source)) if isinstance(f, ast.FunctionDef)]
        for function in functions:
            for branch in (n for n in function.body if isinstance(n, ast.If)):
                if ast.unparse(branch.test) not in (
                    "self.disaggregation_mode == 'decode'",
                    'self.disaggregation_mode == "decode"',
                ):
                    continue
                for inner in (n for n in branch.body if isinstance(n, ast.If)):
                    body = inner.body
                    if (
                        ast.unparse(inner.test) == "self.dp_size > 1 and (not is_in_ci())"
                        and len(body) == 1
                        and isinstance(body[0], ast.Assert)
                        and ast.unparse(body[0].test) == "self.prefill_round_robin_balance"
                        and isinstance(body[0].msg, ast.Constant)
                    ):
                        found.append((body[0].msg.value, function.name))
    if len(found) != 1 or variable is None:
        return None
    return {"message": found[0][0], "ci_variable": variable, "where": found[0][1]}


def _template(node: ast.expr, name: str) -> str | None:
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


def ascend_fuseep_mode(sources: list[str], environ: str | None) -> dict[str, object] | None:
    from sglang_environ import env_int

    found = []
    tests = ("self.moe_a2a_backend == 'ascend_fuseep'", "a2a_backend == 'ascend_fuseep'")
    for source in sources:
        functions = [f for f in ast.walk(ast.parse(source)) if isinstance(f, ast.FunctionDef)]
        branches = [(f, n) for f in functions for n in ast.walk(f) if isinstance(n, ast.If)]
        for function, branch in branches:
            if ast.unparse(branch.test) not in tests:
                continue
            for first, second in zip(branch.body, branch.body[1:]):
                if not (
                    isinstance(first, ast.Assign)
                    and len(first.targets) == 1
                    and isinstance(first.targets[0], ast.Name)
                    and isinstance(first.value, ast.Call)
                    and isinstance(second, ast.If)
                    and isinstance(second.test, ast.Compare)
                    and len(second.test.ops) == 1
                    and isinstance(second.test.ops[0], ast.NotIn)
                    and isinstance(second.test.comparators[0], ast.List)
                    and len(second.body) == 1
                    and isinstance(second.body[0], ast.Raise)
                ):
                    continue
                name, call = first.targets[0].id, first.value
                if ast.unparse(second.test.left) != name:
                    continue
                func = ast.unparse(call.func)
                args = [a.value for a in call.args if isinstance(a, ast.Constant)]
                if func == "os.environ.get" and len(args) == 2 == len(call.args) and args[1] is None:
                    variable, form, default = args[0], "environ", None
                elif func.startswith("envs.") and func.endswith(".get") and not call.args:
                    variable, form = func[len("envs.") : -len(".get")], "envint"
                    default = env_int(environ, variable)
                    if default is None:
                        continue
                else:
                    continue
                allowed = [e.value for e in second.test.comparators[0].elts if isinstance(e, ast.Constant)]
                error = second.body[0].exc
                if (
                    len(allowed) != len(second.test.comparators[0].elts)
                    or not isinstance(error, ast.Call)
                    or ast.unparse(error.func) != "ValueError"
                    or len(error.args) != 1
                ):
                    continue
                message = _template(error.args[0], name)
                if message is None:
                    continue
                found.append(
                    {
                        "variable": variable,
                        "form": form,
                        "default": default,
                        "allowed": allowed,
                        "message": message,
                        "where": function.name,
                    }
                )
    return found[0] if len(found) == 1 else None


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
            message = _template(test.body[0].exc.args[0], name)
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


RUNNER = "sglang/srt/model_executor/model_runner.py"


def _fa3_e5m2(source: str) -> bool:
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.If):
            test = ast.unparse(node.test).replace('"', "'")
            body = "\n".join(ast.unparse(n) for n in node.body).replace('"', "'")
            if (
                "attention_backend == 'fa3'" in test
                and "kv_cache_dtype == 'fp8_e5m2'" in test
                and "'triton'" in body
            ):
                return True
    return False


def fa3_e5m2_fallback(sources: list[str], runner: str | None) -> str:
    if any(_fa3_e5m2(s) for s in sources if "fp8_e5m2" in s):
        return "resolution"
    return "model_runner" if runner is not None and _fa3_e5m2(runner) else "none"


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


def read_release(path: str) -> list[tuple[str, object]]:
    with zipfile.ZipFile(path) as archive:
        named = [
            (n, archive.read(n).decode("utf-8")) for n in sorted(archive.namelist()) if _resolution_file(n)
        ]
        sources = [source for _, source in named]
        utils, environ = _read(archive, "sglang/utils.py"), _read(archive, "sglang/srt/environ.py")
        test_utils = _read(archive, "sglang/test/test_utils.py")
        runner = _read(archive, RUNNER)
    chunked = [s for s in sources if CHUNKED_PAGE in s or POST_INIT_TEST in s]
    fuseep = [s for s in sources if "ascend_fuseep" in s]
    return [
        ("chunked_prefill_page", chunked_page_reading(chunked)),
        (
            "decode_round_robin",
            decode_round_robin([s for s in sources if "is_in_ci()" in s], utils, environ, test_utils),
        ),
        ("ascend_fuseep_mode", ascend_fuseep_mode(fuseep, environ)),
        ("fa3_e5m2_fallback", fa3_e5m2_fallback(sources, runner)),
        ("env_flag_compat", env_flag_compat([s for s in sources if "_has_cli_arg(" in s], environ)),
        ("runner_writers", runner_writers([(n, s) for n, s in named if "moe_runner_backend" in s])),
    ]


build, dump, main = per_release_generator(__doc__, OUT, read_release)


if __name__ == "__main__":
    sys.exit(main())
