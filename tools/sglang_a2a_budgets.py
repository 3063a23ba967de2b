"""Read, statically (`ast`, never imported), two all-to-all backends' start-up checks from a
release's server_args.py / arg_groups/ (and configs/moe_model_registry.py, environ.py); used
by tools/gen_sglang_moe_defaults.py.

`read_pplx_dispatch_budget` (0.5.17+, `pplx_dispatch_budget`): under `if ... == "pplx":`,
`if X.chunked_prefill_size > 0 and X.disaggregation_mode != "decode": assert F() <=
envs.V.get(), "message"`, and F's body `required = X.A` then `if X.B is not None: required =
max(required, X.B)` -> {"variable": V, "default": environ.py's `V = EnvInt(N)`, "message",
"terms": [A, B...], "where": the function}.

`read_deepep_v2` (0.5.19+, `deepep_v2`): under `if a2a_backend == "deepep_v2":`, the first
statement `validate_deepep_v2_model_architecture(...)` and the runner test `if R == "auto":
<set deep_gemm> elif R != "deep_gemm": raise ValueError(f"...")` ->
{"architectures": the architectures it takes (0.5.19-0.5.20: the function's own
`validated_architectures = (...)`; 0.5.21+: the keys of moe_model_registry.py's
`_DEEPEP_V2_MODELS = {...}`, the first architecture only, as `_policy_of` reads it),
"architecture_message": its f-string (`{architecture!r}` as `{architecture}`, a
`sorted(validated_architectures)` written out), "runner": the runner it takes,
"runner_message": its f-string (the runner as `{runner}`), "runner_after": the fields of the
`if resolved_view(...).F: raise` tests between the two (0.5.19-0.5.20: deterministic
inference), "where": the branch's function}."""

from __future__ import annotations

import ast

from sglang_environ import env_int

Sources = list[tuple[str, ast.Module, str]]
REGISTRY = "sglang/srt/configs/moe_model_registry.py"


def _functions(sources: Sources):
    for _, tree, _ in sources:
        yield from (f for f in ast.walk(tree) if isinstance(f, ast.FunctionDef))


def _branches(sources: Sources, backend: str):
    """(function, `if` node) for each `if <a2a_backend> == backend:` branch."""
    tests = (f"a2a_backend == '{backend}'", f"self.moe_a2a_backend == '{backend}'")
    for function in _functions(sources):
        for branch in (n for n in ast.walk(function) if isinstance(n, ast.If)):
            if ast.unparse(branch.test) in tests:
                yield function, branch


def read_pplx_dispatch_budget(sources: Sources, environ: str | None) -> dict[str, object] | None:
    for function, branch in _branches(sources, "pplx"):
        for stmt in branch.body:
            if not (isinstance(stmt, ast.If) and stmt.body and isinstance(stmt.body[0], ast.Assert)):
                continue
            terms = stmt.test.values if isinstance(stmt.test, ast.BoolOp) else []
            if (
                [ast.unparse(t).split(".", 1)[-1] for t in terms]
                != [
                    "chunked_prefill_size > 0",
                    "disaggregation_mode != 'decode'",
                ]
                or not isinstance(stmt.test, ast.BoolOp)
                or not isinstance(stmt.test.op, ast.And)
            ):
                continue
            check = stmt.body[0]
            test, message = check.test, check.msg
            if not (
                isinstance(test, ast.Compare)
                and isinstance(test.ops[0], ast.LtE)
                and isinstance(test.left, ast.Call)
                and isinstance(message, ast.Constant)
                and isinstance(message.value, str)
            ):
                continue
            right = ast.unparse(test.comparators[0])
            if not (right.startswith("envs.") and right.endswith(".get()")):
                continue
            variable = right[len("envs.") : -len(".get()")]
            default = env_int(environ, variable)
            called = ast.unparse(test.left.func).split(".")[-1]
            required = next((f for f in _functions(sources) if f.name == called), None)
            read = _required_terms(required) if required is not None else None
            if default is None or read is None:
                return None
            return {
                "variable": variable,
                "default": default,
                "message": message.value,
                "terms": read,
                "where": function.name,
            }
    return None


def _required_terms(function: ast.FunctionDef) -> list[str] | None:
    """`required = X.A`, `if X.B is not None: required = max(required, X.B)`..., `return
    required` (a docstring and `cfg = ...` first) -> [A, B...]; None for another body."""
    body = [
        s
        for s in function.body
        if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))
        and not (isinstance(s, ast.Assign) and ast.unparse(s.targets[0]) == "cfg")
    ]
    if len(body) < 2 or ast.unparse(body[-1]) != "return required":
        return None
    first = body[0]
    if not (
        isinstance(first, ast.Assign)
        and ast.unparse(first.targets[0]) == "required"
        and isinstance(first.value, ast.Attribute)
    ):
        return None
    terms = [first.value.attr]
    for stmt in body[1:-1]:
        if not (isinstance(stmt, ast.If) and len(stmt.body) == 1 and not stmt.orelse):
            return None
        test, inner = stmt.test, stmt.body[0]
        if not (
            isinstance(test, ast.Compare)
            and isinstance(test.left, ast.Attribute)
            and isinstance(test.ops[0], ast.IsNot)
            and ast.unparse(test.comparators[0]) == "None"
            and isinstance(inner, ast.Assign)
            and ast.unparse(inner.value).endswith(f"max(required, {ast.unparse(test.left)})")
        ):
            return None
        terms.append(test.left.attr)
    return terms


def read_deepep_v2(sources: Sources, registry: str | None) -> dict[str, object] | None:
    for function, branch in _branches(sources, "deepep_v2"):
        first = branch.body[0] if branch.body else None
        if not (
            isinstance(first, ast.Expr)
            and isinstance(first.value, ast.Call)
            and ast.unparse(first.value.func) == "validate_deepep_v2_model_architecture"
        ):
            continue
        validator = next(
            (f for f in _functions(sources) if f.name == "validate_deepep_v2_model_architecture"), None
        )
        architectures = _architectures(validator, registry) if validator is not None else None
        runner = _runner_test(branch.body[1:])
        if architectures is None or runner is None:
            return None
        names, message = architectures
        return {
            "architectures": names,
            "architecture_message": message,
            **runner,
            "where": function.name,
        }
    return None


def _architectures(function: ast.FunctionDef, registry: str | None) -> tuple[list[str], str] | None:
    """(the architectures taken, the refusal's message) of validate_deepep_v2_model_architecture."""
    local: list[str] | None = None
    for stmt in ast.walk(function):
        if (
            isinstance(stmt, ast.Assign)
            and ast.unparse(stmt.targets[0]) == "validated_architectures"
            and isinstance(stmt.value, ast.Tuple)
        ):
            local = [
                e.value for e in stmt.value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)
            ]
    raised = [
        n
        for n in ast.walk(function)
        if isinstance(n, ast.Raise)
        and isinstance(n.exc, ast.Call)
        and ast.unparse(n.exc.func) == "ValueError"
        and n.exc.args
        and isinstance(n.exc.args[0], ast.JoinedStr)
        and "{architecture!r}" in ast.unparse(n.exc.args[0])
    ]
    if len(raised) != 1:
        return None
    assert isinstance(raised[0].exc, ast.Call)
    text = raised[0].exc.args[0]
    assert isinstance(text, ast.JoinedStr)
    if local is None:
        if "model_supports_deepep_v2" not in ast.unparse(function) or registry is None:
            return None
        local = _registered(registry)
        if local is None:
            return None
    parts: list[str] = []
    for value in text.values:
        if isinstance(value, ast.Constant):
            parts.append(str(value.value))
        elif isinstance(value, ast.FormattedValue) and ast.unparse(value) == "{architecture!r}":
            parts.append("{architecture}")
        elif (
            isinstance(value, ast.FormattedValue)
            and ast.unparse(value.value) == "sorted(validated_architectures)"
        ):
            parts.append(str(sorted(local)).replace("{", "{{").replace("}", "}}"))
        else:
            return None
    return local, "".join(parts)


def _registered(registry: str) -> list[str] | None:
    """moe_model_registry.py's `_DEEPEP_V2_MODELS: ... = {"A": ..., ...}` keys, where
    `_policy_of` reads the first architecture only."""
    tree = ast.parse(registry)
    policy = next(
        (f for f in ast.walk(tree) if isinstance(f, ast.FunctionDef) and f.name == "_policy_of"), None
    )
    if policy is None or "_DEEPEP_V2_MODELS.get(architectures[0])" not in ast.unparse(policy):
        return None
    for stmt in tree.body:
        if (
            isinstance(stmt, ast.AnnAssign)
            and ast.unparse(stmt.target) == "_DEEPEP_V2_MODELS"
            and isinstance(stmt.value, ast.Dict)
        ):
            keys = [
                k.value for k in stmt.value.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)
            ]
            return keys if len(keys) == len(stmt.value.keys) else None
    return None


def _runner_test(body: list[ast.stmt]) -> dict[str, object] | None:
    """`if R == "auto": ... elif R != "X": raise ValueError(f"...{R!r}...")`, R a local set from
    `resolved_view(...).moe_runner_backend`; the fields of `if resolved_view(...).F: raise` before it."""
    after: list[str] = []
    local = None
    for stmt in body:
        if isinstance(stmt, ast.Assign) and ast.unparse(stmt.value).endswith(".moe_runner_backend"):
            local = ast.unparse(stmt.targets[0])
            continue
        if not isinstance(stmt, ast.If):
            continue
        test = ast.unparse(stmt.test)
        if local is None and isinstance(stmt.body[0], ast.Raise) and test.startswith("resolved_view("):
            after.append(test.rsplit(".", 1)[-1])
            continue
        if local is None or test != f"{local} == 'auto'" or len(stmt.orelse) != 1:
            continue
        other = stmt.orelse[0]
        if not (
            isinstance(other, ast.If)
            and isinstance(other.test, ast.Compare)
            and ast.unparse(other.test.left) == local
            and isinstance(other.test.ops[0], ast.NotEq)
            and isinstance(other.test.comparators[0], ast.Constant)
            and isinstance(other.body[0], ast.Raise)
            and isinstance(other.body[0].exc, ast.Call)
            and other.body[0].exc.args
            and isinstance(other.body[0].exc.args[0], ast.JoinedStr)
        ):
            return None
        parts = []
        for value in other.body[0].exc.args[0].values:
            if isinstance(value, ast.Constant):
                parts.append(str(value.value))
            elif isinstance(value, ast.FormattedValue) and ast.unparse(value) == f"{{{local}!r}}":
                parts.append("{runner}")
            else:
                return None
        return {
            "runner": other.test.comparators[0].value,
            "runner_message": "".join(parts),
            "runner_after": after,
        }
    return None


def read_deepep_v2_budget(
    sources: Sources, environ: str | None, registry: str | None
) -> dict[str, object] | None:
    """`validate_deepep_v2_dispatch_token_budget`'s prefill check (0.5.19+): `capacity =
    envs.V.get()`, under `if view.disaggregation_mode != "decode":` the ValueError's f-string
    (`{prefill_tokens}` as `{required}`, `{capacity}`), whether the per-rank tokens divide the
    ceiling by `tp_size // attn_dp_size` (0.5.22+ `scatter`), and `max_prefill_buffer_tokens`'
    dynamic-chunking growth factor (`math.ceil(chunked * F)` with PP) -> {"variable", "default",
    "message", "scatter", "growth", "where"}; None where a model of the registry (0.5.21+) sizes
    its own prefill dispatch, or any part has another form."""
    functions = {f.name: f for f in _functions(sources)}
    check, ceiling = (
        functions.get("validate_deepep_v2_dispatch_token_budget"),
        functions.get("max_prefill_buffer_tokens"),
    )
    if check is None or ceiling is None:
        return None
    variable = next(
        (
            ast.unparse(s.value)[len("envs.") : -len(".get()")]
            for s in ast.walk(check)
            if isinstance(s, ast.Assign)
            and ast.unparse(s.targets[0]) == "capacity"
            and ast.unparse(s.value).startswith("envs.")
            and ast.unparse(s.value).endswith(".get()")
        ),
        None,
    )
    branch = next(
        (
            s
            for s in check.body
            if isinstance(s, ast.If) and ast.unparse(s.test) == "view.disaggregation_mode != 'decode'"
        ),
        None,
    )
    raised = next((n for n in ast.walk(branch) if isinstance(n, ast.Raise)), None) if branch else None
    if variable is None or raised is None or not isinstance(raised.exc, ast.Call) or not raised.exc.args:
        return None
    text = raised.exc.args[0]
    if not isinstance(text, ast.JoinedStr):
        return None
    parts = []
    for value in text.values:
        if isinstance(value, ast.Constant):
            parts.append(str(value.value))
        elif isinstance(value, ast.FormattedValue) and ast.unparse(value.value) in (
            "prefill_tokens",
            "capacity",
        ):
            parts.append("{required}" if ast.unparse(value.value) == "prefill_tokens" else "{capacity}")
        else:
            return None
    growth = [
        n.args[0].right.value
        for n in ast.walk(ceiling)
        if isinstance(n, ast.Call)
        and ast.unparse(n.func) == "math.ceil"
        and isinstance(n.args[0], ast.BinOp)
        and ast.unparse(n.args[0].left) == "chunked"
        and isinstance(n.args[0].right, ast.Constant)
    ]
    required = functions.get("required_deepep_v2_prefill_tokens_per_rank")
    scatter = required is not None and "view.tp_size // view.attn_dp_size" in ast.unparse(required)
    if required is not None and "model_deepep_v2_prefill_dispatch_tokens" in ast.unparse(required):
        if registry is None or not _default_policies(registry):
            return None
    default = env_int(environ, variable)
    if default is None or len(growth) != 1:
        return None
    return {
        "variable": variable,
        "default": default,
        "message": "".join(parts),
        "scatter": scatter,
        "growth": growth[0],
        "where": check.name,
    }


def _default_policies(registry: str) -> bool:
    """Every `_DEEPEP_V2_MODELS` entry is `_DeepEPv2ModelPolicy(...)` without a
    `prefill_dispatch_tokens` (the default sizing), and no module registers one."""
    for stmt in ast.parse(registry).body:
        if isinstance(stmt, ast.AnnAssign) and ast.unparse(stmt.target) == "_DEEPEP_V2_MODELS":
            values = stmt.value.values if isinstance(stmt.value, ast.Dict) else []
            return bool(values) and all(
                isinstance(v, ast.Call)
                and ast.unparse(v.func) == "_DeepEPv2ModelPolicy"
                and all(k.arg != "prefill_dispatch_tokens" for k in v.keywords)
                for v in values
            )
    return False


def read_pplx_runner(sources: Sources) -> dict[str, object] | None:
    """Under `if ... == "pplx":` (0.5.17+), `assert <...>.moe_runner_backend in ("R", ...), "message"`
    -> {"runners": [R...], "message", "where": the function}; None where not found."""
    for function, branch in _branches(sources, "pplx"):
        for stmt in branch.body:
            test = stmt.test if isinstance(stmt, ast.Assert) else None
            if (
                isinstance(stmt, ast.Assert)
                and isinstance(test, ast.Compare)
                and ast.unparse(test.left).endswith(".moe_runner_backend")
                and isinstance(test.ops[0], ast.In)
                and isinstance(test.comparators[0], (ast.Tuple, ast.List))
                and isinstance(stmt.msg, ast.Constant)
                and isinstance(stmt.msg.value, str)
            ):
                runners = [e.value for e in test.comparators[0].elts if isinstance(e, ast.Constant)]
                return {"runners": runners, "message": stmt.msg.value, "where": function.name}
    return None
