"""Read, statically (`ast`, never imported), which architectures a release gives its
DeepSeek-family Blackwell (SM100) defaults, and the tests those defaults make; used by
tools/gen_sglang_moe_defaults.py (`deepseek_family`, `flashinfer_trtllm`).

`deepseek_family` (0.5.22+, arg_groups/):
- `attention`: the `_register_for("A", ...)` names on `_deepseek_family_overrides`
  (model_overrides/deepseek_v2.py), the function that picks trtllm_mla on SM100 when no
  attention backend is given (outside its `if is_deepseek_dsa(hf_config):` branch);
- `moe`: the names of the module-level set `_deepseek_moe_quant_resolution` tests with
  `if model_arch not in NAME: return {}` (overrides.py `_DEEPSEEK_FAMILY_ARCHS`);
- `fp8_probe`: the `model_arch in [...]` beside `quant_method is None` there: the
  architectures whose checkpoint safetensors SGLang opens for FP8 weights when the config
  states no quantization (every other family member takes `quant_method`, None included);
- `runner_quantizations`: the `quantization in [...]` of the `if` that sets the MoE runner to
  flashinfer_trtllm (`moe_a2a_backend == "none"`, `moe_runner_backend == "auto"`), with
  `runner_excluded_prefixes` (`not model_arch.startswith("P")`) and `runner_none` (whether
  `quantization is None` is also taken);
- `int4_checkpoint`: the `NAME = (quant_method == "M" and weights_cfg.get("K") == V and ...)`
  test that also picks that runner ({"quant_method": M, K: V, ...}, read from
  `quantization_config.config_groups.group_0.weights`), when that `if` names NAME;
- `dsa`: `is_deepseek_dsa` (configs/model_config.py; `is_deepseek_nsa` in 0.5.10-0.5.12.post1):
  {"architectures": the tuple it tests `_hf_arch(config) in` (`architectures[0] in` in
  0.5.10-0.5.11), "attribute": the `_hf_attr(config, "A") is not None` beside it (a local
  read from `config.get("A")`)}.

`inline_int4_runner` (0.5.10-0.5.14): the same runner test where it is written inline in
`_handle_model_specific_adjustments` (`read_inline_int4_runner`).

`flashinfer_trtllm`: the assert under `if ....moe_runner_backend in [..."flashinfer_trtllm"...]`
(or `== "flashinfer_trtllm"`) on `....quantization in [...]`: {"quantizations", "message"}.
"""

from __future__ import annotations

import ast
import zipfile

Sources = list[tuple[str, ast.Module, str]]
MODEL_CONFIG = "sglang/srt/configs/model_config.py"


def _strings(node: ast.expr) -> list[str] | None:
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        values = [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
        return values if len(values) == len(node.elts) else None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "frozenset":
        return _strings(node.args[0]) if len(node.args) == 1 else None
    return None


def _function(sources: Sources, name: str) -> tuple[ast.FunctionDef, ast.Module] | None:
    for _, tree, _ in sources:
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name == name:
                return node, tree
    return None


def _module_set(tree: ast.Module, name: str) -> list[str] | None:
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == name for t in stmt.targets
        ):
            return _strings(stmt.value)
    return None


def _registered(function: ast.FunctionDef) -> list[str] | None:
    for decorator in function.decorator_list:
        if (
            isinstance(decorator, ast.Call)
            and isinstance(decorator.func, ast.Name)
            and decorator.func.id == "_register_for"
        ):
            return _strings(ast.Tuple(elts=list(decorator.args)))
    return None


def _compare(node: ast.AST, left: str, op: type) -> ast.expr | None:
    """The right side of `left OP right` (left a name, or `self.left`), else None."""
    if (
        isinstance(node, ast.Compare)
        and (
            (isinstance(node.left, ast.Name) and node.left.id == left)
            or (ast.unparse(node.left) == f"self.{left}")
        )
        and len(node.ops) == 1
        and isinstance(node.ops[0], op)
    ):
        return node.comparators[0]
    return None


def _conjuncts(test: ast.expr) -> list[ast.expr]:
    return list(test.values) if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) else [test]


def _sets_runner(body: list[ast.stmt], runner: str) -> bool:
    """`overrides["moe_runner_backend"] = runner` (0.5.15+) or `self.moe_runner_backend = runner`."""
    for stmt in body:
        if (
            isinstance(stmt, ast.Assign)
            and isinstance(stmt.value, ast.Constant)
            and stmt.value.value == runner
            and any(
                (isinstance(t, ast.Subscript) and ast.unparse(t.slice) == "'moe_runner_backend'")
                or (isinstance(t, ast.Attribute) and t.attr == "moe_runner_backend")
                for t in stmt.targets
            )
        ):
            return True
    return False


def _int4_test(function: ast.FunctionDef) -> dict[str, tuple[str, dict[str, object]]]:
    """NAME -> (NAME, {"quant_method": M, K: V}) for `NAME = (quant_method == M and X.get(K) == V ...)`."""
    found: dict[str, tuple[str, dict[str, object]]] = {}
    for node in ast.walk(function):
        if not (
            isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
        ):
            continue
        parts = _conjuncts(node.value)
        test: dict[str, object] = {}
        for part in parts:
            method = _compare(part, "quant_method", ast.Eq)
            if isinstance(method, ast.Constant):
                test["quant_method"] = method.value
                continue
            if (
                isinstance(part, ast.Compare)
                and len(part.ops) == 1
                and isinstance(part.ops[0], ast.Eq)
                and isinstance(part.left, ast.Call)
                and isinstance(part.left.func, ast.Attribute)
                and part.left.func.attr == "get"
                and len(part.left.args) == 1
                and isinstance(part.left.args[0], ast.Constant)
                and isinstance(part.comparators[0], ast.Constant)
            ):
                test[str(part.left.args[0].value)] = part.comparators[0].value
                continue
            test = {}
            break
        if "quant_method" in test and len(test) > 1:
            found[node.targets[0].id] = (node.targets[0].id, test)
    return found


def _moe_readings(function: ast.FunctionDef, tree: ast.Module) -> dict[str, object] | None:
    reading: dict[str, object] = {}
    int4 = _int4_test(function)
    for node in ast.walk(function):
        if not isinstance(node, ast.If):
            continue
        family = _compare(node.test, "model_arch", ast.NotIn)
        if isinstance(family, ast.Name) and "moe" not in reading:
            reading["moe"] = sorted(_module_set(tree, family.id) or [])
        parts = _conjuncts(node.test)
        if any(
            isinstance(_compare(p, "quant_method", ast.Is), ast.Constant) for p in parts
        ):  # `quant_method is None and model_arch in [...]`
            for part in parts:
                probe = _compare(part, "model_arch", ast.In)
                if probe is not None and _strings(probe) is not None:
                    reading["fp8_probe"] = _strings(probe)
        if _sets_runner(node.body, "flashinfer_trtllm"):
            _runner_test(parts, int4, reading)
    return reading if reading.get("moe") and "runner_quantizations" in reading else None


def _runner_test(parts: list[ast.expr], int4: dict, reading: dict[str, object]) -> None:
    prefixes: list[str] = []
    for part in parts:
        if (
            isinstance(part, ast.UnaryOp)
            and isinstance(part.op, ast.Not)
            and isinstance(part.operand, ast.Call)
            and isinstance(part.operand.func, ast.Attribute)
            and part.operand.func.attr == "startswith"
            and isinstance(part.operand.args[0], ast.Constant)
        ):
            prefixes.append(part.operand.args[0].value)
        if isinstance(part, ast.BoolOp) and isinstance(part.op, ast.Or):
            for option in part.values:
                listed = _compare(option, "quantization", ast.In)
                if listed is not None and _strings(listed) is not None:
                    reading["runner_quantizations"] = _strings(listed)
                none = _compare(option, "quantization", ast.Is)
                if isinstance(none, ast.Constant) and none.value is None:
                    reading["runner_none"] = True
                if isinstance(option, ast.Name) and option.id in int4:
                    reading["int4_checkpoint"] = int4[option.id][1]
    reading["runner_excluded_prefixes"] = prefixes
    reading.setdefault("runner_none", False)
    reading.setdefault("int4_checkpoint", None)


DSA_TESTS = ("is_deepseek_dsa", "is_deepseek_nsa")
"""The DSA test's names: `is_deepseek_nsa` in 0.5.10-0.5.12.post1 (what
`_handle_model_specific_adjustments` calls there), `is_deepseek_dsa` from 0.5.13."""


def read_dsa(archive: zipfile.ZipFile) -> dict[str, object] | None:
    """The DSA test of configs/model_config.py: the architectures it tests the config's first
    one `in` (`_hf_arch(config) in (...)`, 0.5.10-0.5.11's `architectures[0] in [...]`, 0.5.9's
    `config.architectures[0] in [...]`) and the attribute it wants not None (`_hf_attr(config,
    "A") is not None`, 0.5.9's `getattr(config, "A", None) is not None`, or a local assigned from
    `config.get("A")` / `getattr(config, "A", None)` then tested `is not None`)."""
    try:
        tree = ast.parse(archive.read(MODEL_CONFIG).decode("utf-8"))
    except KeyError:
        return None
    found = next((f for name in DSA_TESTS if (f := _function([("", tree, "")], name)) is not None), None)
    if found is None:
        return None
    locals_read: dict[str, set[str]] = {}  # a local name -> the string constants of its value
    for node in ast.walk(found[0]):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            strings = {
                c.value
                for c in ast.walk(node.value)
                if isinstance(c, ast.Constant) and isinstance(c.value, str)
            }
            locals_read[node.targets[0].id] = strings
    reading: dict[str, object] = {}
    attributes: set[str] = set()
    for node in ast.walk(found[0]):
        if not (isinstance(node, ast.Compare) and len(node.ops) == 1):
            continue
        left, op = node.left, node.ops[0]
        first_arch = (
            isinstance(left, ast.Call) and isinstance(left.func, ast.Name) and left.func.id == "_hf_arch"
        ) or (
            isinstance(left, ast.Subscript)
            and (
                (isinstance(left.value, ast.Name) and left.value.id == "architectures")
                or (isinstance(left.value, ast.Attribute) and left.value.attr == "architectures")
            )
            and isinstance(left.slice, ast.Constant)
            and left.slice.value == 0
        )
        if first_arch and isinstance(op, ast.In):
            reading["architectures"] = sorted(_strings(node.comparators[0]) or [])
        if not (isinstance(op, ast.IsNot) and isinstance(node.comparators[0], ast.Constant)):
            continue
        if (
            isinstance(left, ast.Call)
            and isinstance(left.func, ast.Name)
            and left.func.id in ("_hf_attr", "getattr")
            and len(left.args) >= 2
            and isinstance(left.args[1], ast.Constant)
        ):
            attributes.add(str(left.args[1].value))
        elif (
            isinstance(left, ast.Name)
            and left.id != "architectures"
            and len(locals_read.get(left.id, ())) == 1
        ):
            attributes.update(locals_read[left.id])
    if len(attributes) == 1:
        reading["attribute"] = attributes.pop()
    return reading if reading.get("architectures") and "attribute" in reading else None


def read_deepseek_family(archive: zipfile.ZipFile, sources: Sources) -> dict[str, object] | None:
    overrides = _function(sources, "_deepseek_family_overrides")
    resolution = _function(sources, "_deepseek_moe_quant_resolution")
    if overrides is None or resolution is None:
        return None
    attention = _registered(overrides[0])
    moe = _moe_readings(*resolution)
    dsa = read_dsa(archive)
    if not attention or moe is None or dsa is None:
        return None
    return {"attention": sorted(attention), **moe, "dsa": dsa}


def read_inline_int4_runner(sources: Sources) -> dict[str, object] | None:
    """0.5.10-0.5.14, before `_deepseek_moe_quant_resolution`: in `ServerArgs.
    _handle_model_specific_adjustments`, the `if model_arch in [...]:` branch whose SM100 part
    sets `self.moe_runner_backend = "flashinfer_trtllm"` under a test naming an int4
    checkpoint test (`is_kimi_k2_k25_thinking_int4`) -> {"moe": its names, and the runner
    test's readings as `deepseek_family` has them} (the generator adds `read_dsa`'s "dsa").
    None where no such branch is read."""
    found = _function(sources, "_handle_model_specific_adjustments")
    if found is None:
        return None
    for node in ast.walk(found[0]):
        listed = _compare(node.test, "model_arch", ast.In) if isinstance(node, ast.If) else None
        names = _strings(listed) if listed is not None else None
        if not names:
            continue
        int4 = _int4_test(node)  # type: ignore[arg-type]
        for inner in ast.walk(node):
            if not (isinstance(inner, ast.If) and _sets_runner(inner.body, "flashinfer_trtllm")):
                continue
            reading: dict[str, object] = {}
            _runner_test(_conjuncts(inner.test), int4, reading)
            if reading.get("int4_checkpoint") and "runner_quantizations" in reading:
                return {"moe": sorted(names), **reading}
    return None


def _trtllm_runner_test(test: ast.expr) -> bool:
    if not (isinstance(test, ast.Compare) and isinstance(test.left, ast.Attribute)):
        return False
    if test.left.attr != "moe_runner_backend" or len(test.ops) != 1:
        return False
    right = test.comparators[0]
    if isinstance(test.ops[0], ast.Eq):
        return isinstance(right, ast.Constant) and right.value == "flashinfer_trtllm"
    return isinstance(test.ops[0], ast.In) and "flashinfer_trtllm" in (_strings(right) or [])


def read_flashinfer_trtllm(sources: Sources, message: object) -> dict[str, object] | None:
    """`message`: tools/gen_sglang_moe_defaults.py's f-string reader."""
    for _, tree, _ in sources:
        for node in ast.walk(tree):
            if not (isinstance(node, ast.If) and _trtllm_runner_test(node.test)):
                continue
            for stmt in node.body:
                test = stmt.test if isinstance(stmt, ast.Assert) else None
                if (
                    isinstance(stmt, ast.Assert)
                    and isinstance(test, ast.Compare)
                    and isinstance(test.left, ast.Attribute)
                    and test.left.attr == "quantization"
                    and isinstance(test.ops[0], ast.In)
                    and isinstance(test.comparators[0], ast.List)
                ):
                    values = [e.value for e in test.comparators[0].elts if isinstance(e, ast.Constant)]
                    return {"quantizations": values, "message": message(stmt.msg)}  # type: ignore[operator]
    return None


def read_inline_trtllm_mla(sources: Sources) -> dict[str, object] | None:
    """0.5.9 (before the int4 runner test `read_inline_int4_runner` reads): the `if model_arch in
    [...]:` branch of `_handle_model_specific_adjustments` naming DeepseekV3ForCausalLM whose
    SM100 part sets `self.attention_backend = "trtllm_mla"` -> {"attention": its names}; None
    where none is read, or where the backend pick consults `is_fa3_default_architecture`
    (0.5.6-0.5.7: the Hopper pick of a listed architecture is then not DeepSeek-V3's)."""
    found = _function(sources, "_handle_model_specific_adjustments")
    if found is None or any("is_fa3_default_architecture" in text for _, _, text in sources):
        return None
    for node in ast.walk(found[0]):
        listed = _compare(node.test, "model_arch", ast.In) if isinstance(node, ast.If) else None
        names = _strings(listed) if listed is not None else None
        if not names or "DeepseekV3ForCausalLM" not in names:
            continue
        for inner in ast.walk(node):
            if (
                isinstance(inner, ast.Assign)
                and isinstance(inner.value, ast.Constant)
                and inner.value.value == "trtllm_mla"
                and any(isinstance(t, ast.Attribute) and t.attr == "attention_backend" for t in inner.targets)
            ):
                return {"attention": sorted(names)}
    return None
