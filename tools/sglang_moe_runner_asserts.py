"""Read, statically (`ast`, never imported), each MoE runner's quantization assert in a
release's server_args.py / arg_groups/; used by tools/gen_sglang_moe_defaults.py
(`moe_runner_quantization`, `moe_runner_overrides`, `moe_runner_refusals`, `moe_runner_lora`,
`sm100_adopting_architectures`).

Per runner R: an `if ....moe_runner_backend == "R":` (or `in [..."R"...]`) whose body asserts
on the quantization, first found wins:
- `quantizations`: the values of `....quantization in [...]`, or of each
  `....quantization == "V"` of an `or` of them (0.5.2-0.5.6's form); null written for None;
- `message`: the assert's message (its f-string's `{...}` fields as `{quantization}`);
- `alternative`: the unparsed text of any other `or` term of the assert (0.5.15+
  flashinfer_cutedsl: `...nvfp4_moe_meta is not None`), null when there is none;
- `hybrid_nvfp4` (with an `alternative` naming `nvfp4_moe_meta`): the tests of the `if` in
  configs/model_config.py that sets `self.nvfp4_moe_meta = {...}`, each
  `str(CFG.get("K", "")).upper() == "V"` as {K: V} (CFG: the checkpoint's
  quantization_config); null when that `if` has another form.
`runner_overrides` (0.5.10+): {V: [runners]} for each `if ....quantization == "V":` whose
body tests `moe_runner_backend not in [runners]` (a list, or a module-level list
named there, or a local copied from one) and, in that branch, sets the MoE runner to another: a runner
not listed is overridden (`--quantization mxfp8` with flashinfer_cutlass becomes
flashinfer_trtllm, with a warning), so its assert never sees V.

`runner_refusals` (0.5.14+): the same test raising a ValueError instead
(`read_runner_refusals`). `read_sm100_adopting_architectures`: the architectures whose own
SM100 branch sets the quantization from the checkpoint's (gen_sglang_moe_defaults.py's test).

`lora_runner` (0.5.23): a function that returns unless `X.moe_runner_backend` (or a local
copy) `.startswith("P")`, then raises `ValueError(f"...")` under `if not X.enable_lora:` ->
{"prefix": P, "message": (the runner's field as `{runner}`), "where": the function}.

The deprecated `--enable-flashinfer-*-moe` switches' tests (0.4.10) are not runner tests and
are not read here.
"""

from __future__ import annotations

import ast
import zipfile
from collections.abc import Callable

Sources = list[tuple[str, ast.Module, str]]
MODEL_CONFIG = "sglang/srt/configs/model_config.py"


def _runners(test: ast.expr) -> list[str]:
    """The runner names `....moe_runner_backend == "R"` / `in [...]` tests."""
    if not (
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Attribute)
        and test.left.attr == "moe_runner_backend"
        and len(test.ops) == 1
    ):
        return []
    right = test.comparators[0]
    if isinstance(test.ops[0], ast.Eq) and isinstance(right, ast.Constant) and isinstance(right.value, str):
        return [right.value]
    if isinstance(test.ops[0], ast.In) and isinstance(right, (ast.List, ast.Tuple)):
        return [e.value for e in right.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    return []


def _quantization_values(term: ast.expr) -> list[object] | None:
    """`....quantization in [...]` -> its values; `....quantization == "V"` -> [V]."""
    if not (
        isinstance(term, ast.Compare)
        and isinstance(term.left, ast.Attribute)
        and term.left.attr == "quantization"
        and len(term.ops) == 1
    ):
        return None
    right = term.comparators[0]
    if isinstance(term.ops[0], ast.In) and isinstance(right, (ast.List, ast.Tuple)):
        if all(isinstance(e, ast.Constant) for e in right.elts):
            return [e.value for e in right.elts if isinstance(e, ast.Constant)]
        return None
    if isinstance(term.ops[0], ast.Eq) and isinstance(right, ast.Constant):
        return [right.value]
    return None


def _assert_reading(stmt: ast.Assert, message: Callable[[ast.expr | None], str | None]) -> dict | None:
    terms = (
        stmt.test.values
        if isinstance(stmt.test, ast.BoolOp) and isinstance(stmt.test.op, ast.Or)
        else [stmt.test]
    )
    values: list[object] = []
    other: list[str] = []
    for term in terms:
        read = _quantization_values(term)
        if read is None:
            other.append(ast.unparse(term))
        else:
            values.extend(read)
    if not values:
        return None
    return {
        "quantizations": values,
        "message": message(stmt.msg),
        "alternative": " or ".join(other) if other else None,
    }


def value_error_text(stmt: ast.stmt | None) -> str | None:
    """`raise ValueError("...")` (one constant string) -> its message."""
    if (
        isinstance(stmt, ast.Raise)
        and isinstance(stmt.exc, ast.Call)
        and ast.unparse(stmt.exc.func) == "ValueError"
        and len(stmt.exc.args) == 1
        and isinstance(stmt.exc.args[0], ast.Constant)
        and isinstance(stmt.exc.args[0].value, str)
    ):
        return stmt.exc.args[0].value
    return None


def attribute_equals(test: ast.expr, attr: str) -> str | None:
    """`....<attr> == "V"` -> V (`server_args.quantization == "mxfp8"`)."""
    if (
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Attribute)
        and test.left.attr == attr
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.Eq)
        and isinstance(test.comparators[0], ast.Constant)
        and isinstance(test.comparators[0].value, str)
    ):
        return test.comparators[0].value
    return None


def _upper_equals(term: ast.expr) -> tuple[str, str] | None:
    """`str(X.get("K", "")).upper() == "V"` -> (K, V)."""
    if not (
        isinstance(term, ast.Compare)
        and len(term.ops) == 1
        and isinstance(term.ops[0], ast.Eq)
        and isinstance(term.comparators[0], ast.Constant)
        and isinstance(term.left, ast.Call)
        and isinstance(term.left.func, ast.Attribute)
        and term.left.func.attr == "upper"
    ):
        return None
    inner = term.left.func.value
    if not (isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name) and inner.func.id == "str"):
        return None
    got = inner.args[0] if len(inner.args) == 1 else None
    if not (
        isinstance(got, ast.Call)
        and isinstance(got.func, ast.Attribute)
        and got.func.attr == "get"
        and got.args
        and isinstance(got.args[0], ast.Constant)
    ):
        return None
    return str(got.args[0].value), str(term.comparators[0].value)


def read_hybrid_nvfp4(archive: zipfile.ZipFile) -> dict[str, str] | None:
    try:
        tree = ast.parse(archive.read(MODEL_CONFIG).decode("utf-8"))
    except KeyError:
        return None
    for node in ast.walk(tree):
        if not isinstance(node, ast.If) or not any(
            isinstance(s, ast.Assign)
            and any(isinstance(t, ast.Attribute) and t.attr == "nvfp4_moe_meta" for t in s.targets)
            for s in node.body
        ):
            continue
        terms = node.test.values if isinstance(node.test, ast.BoolOp) else [node.test]
        tests = dict(t for t in map(_upper_equals, terms) if t is not None)
        return tests or None
    return None


def _module_lists(sources: Sources) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for _, tree, _ in sources:
        for stmt in tree.body:
            if (
                isinstance(stmt, ast.Assign)
                and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name)
                and isinstance(stmt.value, ast.List)
                and all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in stmt.value.elts)
            ):
                found[stmt.targets[0].id] = [e.value for e in stmt.value.elts if isinstance(e, ast.Constant)]
    return found


def _sets_runner(body: list[ast.stmt]) -> bool:
    for node in (n for stmt in body for n in ast.walk(stmt)):
        if isinstance(node, ast.Assign) and any(
            (isinstance(t, ast.Attribute) and t.attr == "moe_runner_backend")
            or (isinstance(t, ast.Name) and t.id == "moe_runner_backend")
            for t in node.targets
        ):
            return True
    return False


def _next(body: list[ast.stmt], stmt: ast.stmt) -> list[ast.stmt]:
    """The statement after `stmt` in `body` (where it is one of them), as a body."""
    at = next((i for i, s in enumerate(body) if s is stmt), None)
    return body[at + 1 : at + 2] if at is not None else []


def _local(body: list[ast.stmt], right: ast.expr) -> ast.expr:
    """A local name's value (`allowed = list(NAME)`; later `allowed.append(...)`s are the
    ROCm ones, not read)."""
    if not isinstance(right, ast.Name):
        return right
    for node in (n for stmt in body for n in ast.walk(stmt)):
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and node.targets[0].id == right.id
        ):
            return node.value
    return right


def read_runner_overrides(sources: Sources) -> dict[str, list[str]] | None:
    """Under `if ....quantization == "V":`, an `if`/`elif ....moe_runner_backend not in [...]:`
    that sets the runner, or (0.5.9 mxfp8) that only warns, the branch's next statement setting
    the runner whatever it was -> {V: the runners listed}."""
    lists = _module_lists(sources)
    found: dict[str, list[str]] = {}
    for value, node, _ in _quantization_branches(sources):
        for inner in (n for stmt in node.body for n in ast.walk(stmt)):
            t = inner.test if isinstance(inner, ast.If) else None
            if not (
                isinstance(inner, ast.If)
                and isinstance(t, ast.Compare)
                and len(t.ops) == 1
                and isinstance(t.ops[0], ast.NotIn)
                and "moe_runner_backend" in ast.unparse(t.left)
                and (_sets_runner(inner.body) or _sets_runner(_next(node.body, inner)))
            ):
                continue
            right = _local(node.body, t.comparators[0])
            if isinstance(right, ast.Call) and isinstance(right.func, ast.Name) and right.args:
                right = right.args[0]  # `list(NAME)`
            if isinstance(right, ast.Name) and right.id in lists:
                runners = lists[right.id]
            elif isinstance(right, ast.List):
                runners = [e.value for e in right.elts if isinstance(e, ast.Constant)]
            else:
                runners = [ast.unparse(right)]
            found.setdefault(value, runners)
    return found or None


def _quantization_branches(sources: Sources):
    """(V, the `if` node, the function holding it) of each `if ....quantization == "V"` (or
    `... and ...` after it)."""
    for _, tree, _ in sources:
        functions = [f for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)]
        for function, node in ((f, n) for f in functions for n in ast.walk(f)):
            test = node.test if isinstance(node, ast.If) else None
            if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
                test = test.values[0]
            if (
                isinstance(node, ast.If)
                and isinstance(test, ast.Compare)
                and isinstance(test.left, ast.Attribute)
                and test.left.attr == "quantization"
                and len(test.ops) == 1
                and isinstance(test.ops[0], ast.Eq)
                and isinstance(test.comparators[0], ast.Constant)
                and isinstance(test.comparators[0].value, str)
            ):
                yield test.comparators[0].value, node, function.name


def read_moe_runner_quantization(
    sources: Sources, message: Callable[[ast.expr | None], str | None], archive: zipfile.ZipFile
) -> dict[str, dict] | None:
    """`message`: tools/gen_sglang_moe_defaults.py's f-string reader."""
    found: dict[str, dict] = {}
    for _, tree, _ in sources:
        for node in ast.walk(tree):
            runners = _runners(node.test) if isinstance(node, ast.If) else []
            if not runners or not isinstance(node, ast.If):
                continue
            for stmt in node.body:
                reading = _assert_reading(stmt, message) if isinstance(stmt, ast.Assert) else None
                if reading is not None:
                    for runner in runners:
                        found.setdefault(runner, reading)
                    break
    for reading in found.values():
        if "nvfp4_moe_meta" in (reading["alternative"] or ""):
            reading["hybrid_nvfp4"] = read_hybrid_nvfp4(archive)
    return dict(sorted(found.items())) or None


def _joined(node: ast.expr) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(str(v.value) if isinstance(v, ast.Constant) else "{runner}" for v in node.values)
    return None


def read_lora_runner(sources: Sources) -> dict[str, str] | None:
    for _, tree, _ in sources:
        for function in (f for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)):
            prefix = None
            for node in ast.walk(function):
                call = (
                    node.test.operand
                    if isinstance(node, ast.If) and isinstance(node.test, ast.UnaryOp)
                    else None
                )
                if (
                    isinstance(call, ast.Call)
                    and isinstance(call.func, ast.Attribute)
                    and call.func.attr == "startswith"
                    and call.args
                    and isinstance(call.args[0], ast.Constant)
                    and any(isinstance(st, ast.Return) for st in node.body)
                ):
                    prefix = str(call.args[0].value)
                if (
                    prefix is not None
                    and isinstance(node, ast.If)
                    and ast.unparse(node.test).endswith(".enable_lora")
                    and ast.unparse(node.test).startswith("not ")
                ):
                    raised = next((st.exc for st in node.body if isinstance(st, ast.Raise)), None)
                    if isinstance(raised, ast.Call) and _is_value_error(raised) and raised.args:
                        message = _joined(raised.args[0])
                        if message is not None:
                            return {"prefix": prefix, "message": message, "where": function.name}
    return None


def _is_value_error(call: ast.Call) -> bool:
    return isinstance(call.func, ast.Name) and call.func.id == "ValueError"


def _arch_list(test: ast.expr) -> list[str]:
    """The names of a `model_arch in [...]` test (or of such a conjunct)."""
    for part in test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) else [test]:
        if (
            isinstance(part, ast.Compare)
            and isinstance(part.left, ast.Name)
            and part.left.id == "model_arch"
            and isinstance(part.ops[0], ast.In)
            and isinstance(part.comparators[0], (ast.List, ast.Tuple))
        ):
            return [e.value for e in part.comparators[0].elts if isinstance(e, ast.Constant)]
    return []


def read_sm100_adopting_architectures(
    sources: Sources, adopts: Callable[[list[ast.stmt]], bool]
) -> list[str] | None:
    """The architectures whose branch (`if model_arch in [...]:`, or a function registered
    for them with `@_register_for(...)`) holds an SM100 branch that sets the quantization from
    the checkpoint's `quant_method` (`adopts`: tools/gen_sglang_moe_defaults.py's test, as
    `sm100_adopts_checkpoint_quantization` reads it)."""
    found: set[str] = set()
    for _, tree, _ in sources:
        for node in ast.walk(tree):
            if isinstance(node, ast.If) and _arch_list(node.test) and adopts(node.body):
                found.update(_arch_list(node.test))
            if isinstance(node, ast.FunctionDef) and adopts(node.body):
                for decorator in node.decorator_list:
                    call = decorator if isinstance(decorator, ast.Call) else None
                    if (
                        call is not None
                        and isinstance(call.func, ast.Name)
                        and call.func.id == "_register_for"
                    ):
                        found.update(a.value for a in call.args if isinstance(a, ast.Constant))
    return sorted(found) or None
