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
- `cp_strategy_required` (0.5.14+): `if X.enable_prefill_cp and X.cp_strategy is None: raise
  ValueError("...")` in the context-parallelism handler (tools/sglang_cp_strategy.py) ->
  {"message", "where", "legacy": the older switches tested the same way elsewhere}; null where
  not so.
- `cp_asserts` (0.5.9+): the same handler's `if attn_cp_size > 1:` asserts (tp_size divisible
  by attn_cp_size, by the DP size times it, ...) -> {"where", "asserts": [[test, message]]}
  (tools/sglang_cp_strategy.py); null where not so.
- `cp_moe_dp_asserts` (0.5.9+): the same handler's `if moe_dp_size > 1:` asserts (TP divisible
  by it, ep_size times it within TP, no PP, ...) and 0.5.13+'s `if attn_cp_size != moe_dp_size:
  assert moe_dp_size == 1` -> [{"test", "asserts": [[test, message, guard]]}]
  (tools/sglang_cp_moe_dp.py); null where not so.
- `cp_before_a2a` (0.5.9+): whether the release calls the context-parallelism handler before the
  all-to-all handler, whose ep_size = tp_size its asserts then do not see (tools/sglang_cp_moe_dp.py);
  null where no function calls both.
- `cli_copies`: what `ServerArgs.from_cli_args` copies from one parsed name into a field before
  building ServerArgs (0.5.6.post2 `args.tp_size = args.tensor_parallel_size`; 0.5.10-0.5.13
  also `args.attn_cp_size = args.attention_context_parallel_size` and `args.moe_dp_size =
  args.moe_data_parallel_size`) -> {field: parsed name}; null where it copies nothing.
- `mla_prefill_cp` (0.5.13+): the DeepSeek model override's `if enable_prefill_cp and
  use_mla_backend(...):` block (0.5.13 `enable_prefill_context_parallel`), the fields it sets ->
  {"where", "switch", "sets": [[field, "constant" |
  "field" | "expression" | "unread", value]], "logged"}, with "asserts": [[test, message, helper]]
  where it calls a helper that asserts (0.5.22+ `context_parallel_attn_dp_size`)
  (tools/sglang_mla_prefill_cp.py); null where not so.
- `trtllm_mha_prefill_cp` (0.5.19+): the trtllm_mha prefill refusal off SM100 beside `attn_cp_size
  > 1` (0.5.19 also a switch) -> {"where", "switch", "message"} (tools/sglang_trtllm_mha_cp.py).
"""

from __future__ import annotations

import ast
import os
import sys
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from line_array import per_release_generator  # noqa: E402
from sglang_cp_moe_dp import read_cp_before_a2a, read_cp_moe_dp_asserts  # noqa: E402
from sglang_cp_strategy import read_cp_asserts, read_cp_strategy_required  # noqa: E402
from sglang_mla_prefill_cp import read_mla_prefill_cp  # noqa: E402
from sglang_server_readings import env_flag_compat, runner_writers, template  # noqa: E402
from sglang_trtllm_mha_cp import read_trtllm_mha_prefill_cp  # noqa: E402

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
                message = template(error.args[0], name)
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


def read_cli_copies(server_args: str | None) -> dict[str, str] | None:
    """`args.X = args.Y` statements of `ServerArgs.from_cli_args` (its own body) -> {X: Y}."""
    if server_args is None or "def from_cli_args" not in server_args:
        return None
    copies: dict[str, str] = {}
    for node in ast.walk(ast.parse(server_args)):
        if isinstance(node, ast.FunctionDef) and node.name == "from_cli_args":
            for stmt in node.body:
                if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1):
                    continue
                target, value = stmt.targets[0], stmt.value
                if (
                    isinstance(target, ast.Attribute)
                    and isinstance(target.value, ast.Name)
                    and target.value.id == "args"
                    and isinstance(value, ast.Attribute)
                    and isinstance(value.value, ast.Name)
                    and value.value.id == "args"
                ):
                    copies[target.attr] = value.attr
    return copies or None


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
        ("cp_strategy_required", read_cp_strategy_required(sources)),
        ("cp_asserts", read_cp_asserts(sources)),
        ("cp_moe_dp_asserts", read_cp_moe_dp_asserts(sources)),
        ("mla_prefill_cp", read_mla_prefill_cp(sources)),
        ("cp_before_a2a", read_cp_before_a2a(sources)),
        ("cli_copies", read_cli_copies(dict(named).get("sglang/srt/server_args.py"))),
        ("trtllm_mha_prefill_cp", read_trtllm_mha_prefill_cp(sources)),
    ]


build, dump, main = per_release_generator(__doc__, OUT, read_release)


if __name__ == "__main__":
    sys.exit(main())
