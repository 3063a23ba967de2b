"""Read, statically (`ast`, never imported), where the functions that pick the attention backend
and its page size touch the flags speclint lets stand beside that pick
(`speclint.sglang.resolve.hardware_flags.BESIDE`), per release.

The pickers are the functions of the resolution code (server_args.py, arg_groups/**) named in
PICKERS, and every function of that code they call, transitively: `f(...)`, `self.f(...)`, a
function handed on by name (`run_post_process_pass(server_args, f)`). A function touches a field
where it names it: an attribute (`cfg.ep_size`, `self.moe_a2a_backend`), a keyword
(`declare_resolution(..., moe_a2a_backend=...)`) or a string (`getattr(x, "ep_size")`, a dict
key). Per release -> {field: sorted "<path under sglang/srt/>::<function>" touching it} for the
fields of FIELDS; {} where no picker is defined (the release leaves the backend to the model
runner). Used by tools/gen_sglang_backend_reads.py.

`read_writers(named, field)`: every function writing `field` -> the fields it names (`writers`
of the same data file: the sampling backend beside flags speclint does not model)."""

from __future__ import annotations

import ast
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src"))

from speclint.sglang.resolve.hardware_flags import BESIDE  # noqa: E402

PICKERS = (
    "_get_default_attn_backend",
    "get_default_attn_backend",
    "_attention_backend_default",
    "_handle_attention_backend_compatibility",
    "handle_attention_backend_compatibility",
    "_deepseek_family_overrides",
    "_handle_page_size",
    "_page_size_default",
    "_mla_backend_page_constraints",
    "_handle_model_specific_adjustments",
    "handle_model_specific_adjustments",
)
"""The functions that pick the attention backend and its page size, 0.5.4-0.5.23 (hardware.py's
model of them: `_attention_backend`, `gpu_page_size`), and the model-specific adjustments that
hold the DeepSeek Blackwell trtllm_mla fill (`deepseek_blackwell.py`)."""

FIELDS = BESIDE
"""The dests read beside the pickers: hardware_flags.BESIDE itself (one list, not a copy)."""


def _functions(named: list[tuple[str, str]]) -> dict[str, list[tuple[str, ast.FunctionDef]]]:
    """Every function (methods included) of the sources, by name -> [(path::name, node)]."""
    found: dict[str, list[tuple[str, ast.FunctionDef]]] = {}
    for path, source in named:
        short = path.removeprefix("sglang/srt/")
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.FunctionDef):
                found.setdefault(node.name, []).append((f"{short}::{node.name}", node))
    return found


def _called(function: ast.FunctionDef, known: dict[str, object]) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(function):
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name):
                names.add(func.id)
            elif (
                isinstance(func, ast.Attribute)
                and isinstance(func.value, ast.Name)
                and func.value.id == "self"
            ):
                names.add(func.attr)
            names.update(a.id for a in node.args if isinstance(a, ast.Name))
    return {n for n in names if n in known}


def _touched(function: ast.FunctionDef) -> set[str]:
    fields = set(FIELDS)
    touched: set[str] = set()
    for node in ast.walk(function):
        if isinstance(node, ast.Attribute) and node.attr in fields:
            touched.add(node.attr)
        elif isinstance(node, ast.keyword) and node.arg in fields:
            touched.add(node.arg)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in fields:
            touched.add(node.value)
    return touched


def read_backend_reads(named: list[tuple[str, str]]) -> dict[str, list[str]]:
    functions = _functions(named)
    queue = [name for name in PICKERS if name in functions]
    seen = set(queue)
    reads: dict[str, set[str]] = {}
    while queue:
        name = queue.pop()
        for where, node in functions[name]:
            for field in _touched(node):
                reads.setdefault(field, set()).add(where)
            for callee in _called(node, functions) - seen:
                seen.add(callee)
                queue.append(callee)
    return {field: sorted(reads[field]) for field in sorted(reads)}


def _writes(function: ast.FunctionDef, field: str) -> bool:
    for node in ast.walk(function):
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Attribute) and t.attr == field for t in targets):
                return True
        elif isinstance(node, ast.keyword) and node.arg == field:
            return True
        elif isinstance(node, ast.Dict) and any(
            isinstance(k, ast.Constant) and k.value == field for k in node.keys
        ):
            return True
    return False


_OWNERS = ("self", "cfg", "view", "server_args", "args", "sa")


def _named_fields(function: ast.FunctionDef) -> set[str]:
    """The fields a function names: `<owner>.field` (self, cfg, view, server_args, ...), and
    `resolved_view(x).field` / `resolving_view(x).field`."""
    names: set[str] = set()
    for node in ast.walk(function):
        if not isinstance(node, ast.Attribute):
            continue
        base = node.value
        if (isinstance(base, ast.Name) and base.id in _OWNERS) or (
            isinstance(base, ast.Call) and isinstance(base.func, ast.Name) and base.func.id.endswith("_view")
        ):
            names.add(node.attr)
    return names


WRITTEN = ("sampling_backend", "enable_deterministic_inference")
"""The fields whose writers are read (`read_writers`): the sampling backend, and the switch its
deterministic override reads."""


def read_writers(named: list[tuple[str, str]], field: str) -> dict[str, list[str]]:
    """Every function of the resolution code writing `field` (`x.field = ...`, `field=...` as a
    keyword, a dict with the key "field") -> the fields it names, sorted; "<path>::<function>"."""
    out: dict[str, list[str]] = {}
    for name, nodes in _functions(named).items():
        for where, node in nodes:
            if name != "__init__" and _writes(node, field):
                out[where] = sorted(_named_fields(node) - {field})
    return dict(sorted(out.items()))
