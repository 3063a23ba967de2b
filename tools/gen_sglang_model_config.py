#!/usr/bin/env python3
"""Generate src/speclint/sglang/data/sglang_model_config.json: when an SGLang release checks
--quantization while its arguments resolve, which methods it knows on a CUDA machine and which
checkpoint/--quantization pairs it takes, read
statically (`ast`, never imported) from each release's wheel.

    python tools/gen_sglang_model_config.py              # every release the flag schema stores
    python tools/gen_sglang_model_config.py --check      # regenerate and compare, write nothing

`ModelConfig._verify_quantization` (--quantization against the checkpoint's
`quantization_config`, then against `QUANTIZATION_METHODS`) runs when resolution builds the
target's `ModelConfig`. Per release, name -> index of its reading:

- `model_config`: where `ServerArgs` (sglang/srt/server_args.py) builds it:
  `"default_mem_fraction"` when every `ModelConfig.from_server_args(self)` /
  `self.get_model_config()` call of the class (outside `get_model_config` itself) sits under
  `if self.mem_fraction_static is None:` (0.4.9-0.5.4: a given --mem-fraction-static skips the
  check), `"unguarded"` when one does not, `"none"` when server_args.py has no such call;
- `cuda_quantization_methods`: the keys of `QUANTIZATION_METHODS`
  (sglang/srt/layers/quantization/__init__.py) with the platform tests evaluated for CUDA
  (`is_cuda()` true; `is_npu`, `is_cpu`, `is_xpu`, `is_mps`, `is_hip`, `is_musa` false), sorted;
  null when a statement that builds the registry is not one of the forms read here (a dict
  literal, `{**A, **B}`, `A.update({...})`, `A["k"] = ...`) or sits under a test this reading
  cannot decide;
- `quantization_compared`: the values resolution compares --quantization with
  (`<x>.quantization == "unquant"` in server_args.py or arg_groups/*.py): resolution may rewrite
  them before the registry check (0.5.11+ turn `unquant` into None), so they are not refused
  for lack of a registry entry;
- `unquant_unset`: whether the resolution turns `--quantization unquant` into None and records
  the opt-out (`_quantization_explicitly_unset = True`, 0.5.11+: no quantization is taken from
  the checkpoint afterwards), before the MoE runners' asserts (0.5.11-0.5.14 at the start of
  `__post_init__`, then `_handle_missing_default_values`);
- `quantization_compatible`, `requantization_methods`: `_verify_quantization`'s
  `compatible_quantization_methods` (--quantization -> checkpoint methods it takes) and
  configs/model_config.py's `REQUANTIZATION_METHODS` (taken on any checkpoint);
- `quantization_mismatch`: the message it raises for a mismatch (`{method}`, `{asked}`);
- `quantization_overrides`: the pairs the `override_quantization_method` hooks rewrite or may
  rewrite (with the helpers they call, imported ones included: 0.5.23's ModelOpt hooks call
  `canonicalize_modelopt_quant_algo` of sglang/srt/layers/modelopt_utils.py), and
  `quantization_parsed`: checkpoint methods `_parse_quant_hf_config` rewrites from other keys
  (tools/sglang_quant_hooks.py);
- `quantization_in_text_config`: model types whose SGLang config class lifts
  `text_config.quantization_config` (Kimi-K2.5's `kimi_k25`);
- `text_config_copied`: whether `get_config` copies the text config's attributes the loaded
  config lacks onto it (0.4.6.post3-0.5.10), so a `text_config.quantization_config` is read
  for any model type, and the architectures excepted (tools/sglang_verify_quant.py);
- `mla_architectures`: the architectures `ModelConfig` gives MLA attention (`use_mla_backend()`),
  {"mla": named alone, "mla_if": named beside another test} (tools/sglang_attention_arch.py);
- `generic_attention_pick`: the strings the resolution (server_args.py, arg_groups/*.py) tests
  in a comparison or `startswith`/`endswith`, {"tested": [...]}, where its attention backend
  pick consults no architecture list (no `is_fa3_default_architecture`; 0.5.8+); else null
  (tools/sglang_attention_arch.py `read_generic_pick`);
- `fa3_default_architectures`: where the pick calls `is_fa3_default_architecture`
  (0.5.4.post3-0.5.7: fa3 on Hopper only for an MHA architecture it lists), the architectures
  it lists (sglang/srt/utils/common.py); else null (`read_fa3_default`).
"""

from __future__ import annotations

import ast
import os
import re
import sys
import zipfile
from collections.abc import Callable

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from line_array import per_release_generator  # noqa: E402
from sglang_attention_arch import read_fa3_default, read_generic_pick, read_mla_architectures  # noqa: E402
from sglang_quant_hooks import Hooks  # noqa: E402
from sglang_quant_pairs import overrides_reading  # noqa: E402
from sglang_verify_quant import (  # noqa: E402
    HF_UTILS,
    lifted_model_types,
    mismatch_message,
    parsed_methods,
    text_config_copied,
    unquant_unset_reading,
    verify_constants,
)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "src", "speclint", "sglang", "data", "sglang_model_config.json")
SERVER_ARGS = "sglang/srt/server_args.py"
REGISTRY = "sglang/srt/layers/quantization/__init__.py"
MODEL_CONFIG = "sglang/srt/configs/model_config.py"
UTILS = ("sglang/srt/utils/common.py", "sglang/srt/utils.py")
PLATFORM = {"is_cuda": True, "is_npu": False, "is_cpu": False, "is_xpu": False, "is_mps": False}
PLATFORM.update({"is_hip": False, "is_musa": False, "TYPE_CHECKING": False})
"""What the platform probes answer on an NVIDIA GPU (and `if TYPE_CHECKING:`, false at run time)."""
_REGISTRY_NAME = re.compile(r"^[A-Z_]*QUANTIZATION_METHODS$")


# --- where ServerArgs builds the ModelConfig -------------------------------------------------


def _builds_model_config(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
        return False
    func = node.func
    owner = func.value.id if isinstance(func.value, ast.Name) else None
    return (owner == "ModelConfig" and func.attr == "from_server_args") or (
        owner == "self" and func.attr == "get_model_config"
    )


def _guards_default_mem_fraction(test: ast.expr) -> bool:
    """`self.mem_fraction_static is None`."""
    return (
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Attribute)
        and test.left.attr == "mem_fraction_static"
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.Is)
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value is None
    )


def _calls(node: ast.AST, guarded: bool, out: list[bool]) -> None:
    """Appends, for each ModelConfig build under `node`, whether a default-memory guard holds it."""
    if _builds_model_config(node):
        out.append(guarded)
    if isinstance(node, ast.If):
        _calls(node.test, guarded, out)
        inner = guarded or _guards_default_mem_fraction(node.test)
        for child in node.body:
            _calls(child, inner, out)
        for child in node.orelse:
            _calls(child, guarded, out)
        return
    for child in ast.iter_child_nodes(node):
        _calls(child, guarded, out)


def model_config_reading(source: str) -> str:
    tree = ast.parse(source)
    sites: list[bool] = []
    for cls in tree.body:
        if isinstance(cls, ast.ClassDef) and cls.name == "ServerArgs":
            for method in cls.body:
                if isinstance(method, ast.FunctionDef) and method.name != "get_model_config":
                    _calls(method, False, sites)
    if not sites:
        return "none"
    return "default_mem_fraction" if all(sites) else "unguarded"


# --- QUANTIZATION_METHODS on CUDA ------------------------------------------------------------


class Unread(Exception):
    """A registry statement this reading does not decide."""


def _truth(test: ast.expr, flags: dict[str, bool]) -> bool | None:
    if isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and not test.args:
        return PLATFORM.get(test.func.id)
    if isinstance(test, ast.Name):
        return flags.get(test.id, PLATFORM.get(test.id))
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        value = _truth(test.operand, flags)
        return None if value is None else not value
    if isinstance(test, ast.BoolOp):
        values = [_truth(v, flags) for v in test.values]
        decisive = isinstance(test.op, ast.Or)  # any True decides an `or`, any False an `and`
        if decisive in values:
            return decisive
        return None if None in values else not decisive
    return None


def _keys(value: ast.expr, registries: dict[str, set[str]]) -> set[str]:
    if not isinstance(value, ast.Dict):
        raise Unread(ast.dump(value)[:80])
    keys: set[str] = set()
    for key, item in zip(value.keys, value.values):
        if key is None and isinstance(item, ast.Name) and item.id in registries:
            keys |= registries[item.id]
        elif isinstance(key, ast.Constant) and isinstance(key.value, str):
            keys.add(key.value)
        else:
            raise Unread(ast.dump(value)[:80])
    return keys


def _mentions_registry(node: ast.AST) -> bool:
    return any(isinstance(n, ast.Name) and _REGISTRY_NAME.match(n.id) for n in ast.walk(node))


def _run(body: list[ast.stmt], registries: dict[str, set[str]], flags: dict[str, bool]) -> None:
    for stmt in body:
        if isinstance(stmt, (ast.FunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom)):
            continue
        if isinstance(stmt, ast.If):
            if not _mentions_registry(stmt):
                continue
            truth = _truth(stmt.test, flags)
            if truth is None:
                raise Unread(ast.unparse(stmt.test))
            _run(stmt.body if truth else stmt.orelse, registries, flags)
            continue
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            if len(targets) == 1 and isinstance(targets[0], ast.Name) and stmt.value is not None:
                name = targets[0].id
                if _REGISTRY_NAME.match(name):
                    registries[name] = _keys(stmt.value, registries)
                elif isinstance(stmt.value, ast.Call):  # `_is_cuda = is_cuda()`
                    truth = _truth(stmt.value, flags)
                    if truth is not None:
                        flags[name] = truth
                continue
            if (
                len(targets) == 1
                and isinstance(targets[0], ast.Subscript)
                and isinstance(targets[0].value, ast.Name)
                and targets[0].value.id in registries
                and isinstance(targets[0].slice, ast.Constant)
            ):
                registries[targets[0].value.id].add(str(targets[0].slice.value))
                continue
        if (
            isinstance(stmt, ast.Expr)
            and isinstance(stmt.value, ast.Call)
            and isinstance(stmt.value.func, ast.Attribute)
            and stmt.value.func.attr == "update"
            and isinstance(stmt.value.func.value, ast.Name)
            and stmt.value.func.value.id in registries
            and len(stmt.value.args) == 1
        ):
            registries[stmt.value.func.value.id] |= _keys(stmt.value.args[0], registries)
            continue
        if _mentions_registry(stmt):
            raise Unread(ast.unparse(stmt)[:80])


def cuda_methods_reading(source: str) -> list[str] | None:
    registries: dict[str, set[str]] = {}
    try:
        _run(ast.parse(source).body, registries, {})
    except Unread:
        return None
    methods = registries.get("QUANTIZATION_METHODS")
    return None if methods is None else sorted(methods)


def compared_reading(sources: list[str]) -> list[str]:
    found: set[str] = set()
    for source in sources:
        for node in ast.walk(ast.parse(source)):
            if (
                isinstance(node, ast.Compare)
                and isinstance(node.left, ast.Attribute)
                and node.left.attr == "quantization"
            ):
                found |= {
                    c.value
                    for c in node.comparators
                    if isinstance(c, ast.Constant) and isinstance(c.value, str)
                }
    return sorted(found)


def read_release(path: str) -> list[tuple[str, object]]:
    with zipfile.ZipFile(path) as archive:
        files = set(archive.namelist())

        def text(name: str) -> str | None:
            return archive.read(name).decode("utf-8") if name in files else None

        server_args, registry, model_config = text(SERVER_ARGS), text(REGISTRY), text(MODEL_CONFIG)
        resolution = [archive.read(n).decode("utf-8") for n in sorted(files) if _resolution_file(n)]
        quantization = {n: archive.read(n).decode("utf-8") for n in sorted(files) if _quantization_file(n)}
        configs = {n: archive.read(n).decode("utf-8") for n in sorted(files) if _config_file(n)}
        copied = text_config_copied(next((t for t in map(text, HF_UTILS) if t is not None), None))
        methods = None if registry is None else cuda_methods_reading(registry)
        verify = _verify_readings(model_config, quantization, methods, text)
        fa3_default = read_fa3_default(resolution, next(filter(None, map(text, UTILS)), None))
    return [
        *verify,
        ("quantization_in_text_config", lifted_model_types(configs)),
        ("text_config_copied", copied),
        ("cuda_quantization_methods", methods),
        ("model_config", "none" if server_args is None else model_config_reading(server_args)),
        ("quantization_compared", compared_reading(resolution)),
        ("unquant_unset", unquant_unset_reading(resolution)),
        ("mla_architectures", read_mla_architectures(model_config)),
        ("generic_attention_pick", read_generic_pick(resolution)),
        ("fa3_default_architectures", fa3_default),
    ]


def _config_file(name: str) -> bool:
    return name.startswith("sglang/srt/configs/") and name.endswith(".py")


def _quantization_file(name: str) -> bool:
    return name.startswith("sglang/srt/layers/quantization/") and name.endswith(".py")


def _verify_readings(
    model_config: str | None,
    quantization: dict[str, str],
    methods: list[str] | None,
    text: Callable[[str], str | None],
) -> list[tuple[str, object]]:
    """`_verify_quantization`'s accepted pairs and the override hooks (tools/sglang_quant_hooks.py;
    `text`: the wheel's other modules, for the helpers the hooks import)."""
    if model_config is None or "_verify_quantization" not in model_config:
        return [(name, None) for name in _VERIFY_READINGS]
    compatible, requant = verify_constants(model_config)
    users = sorted(set(methods or ()) | set(compatible or ()) | set(requant or ()))
    overrides = overrides_reading(Hooks(quantization, PLATFORM, tuple(requant or ()), text), users)
    message = mismatch_message(model_config)
    return list(
        zip(_VERIFY_READINGS, (compatible, message, overrides, parsed_methods(model_config), requant))
    )


_VERIFY_READINGS = (
    "quantization_compatible",
    "quantization_mismatch",
    "quantization_overrides",
    "quantization_parsed",
    "requantization_methods",
)


def _resolution_file(name: str) -> bool:
    return name == SERVER_ARGS or (name.startswith("sglang/srt/arg_groups/") and name.endswith(".py"))


build, dump, main = per_release_generator(__doc__, OUT, read_release)


if __name__ == "__main__":
    sys.exit(main())
