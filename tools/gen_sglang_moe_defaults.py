#!/usr/bin/env python3
"""Generate src/speclint/sglang/data/sglang_moe_defaults.json: the facts behind the MoE refusals
speclint checks beside SGLang's own defaults, per release, read statically (`ast`, never
imported) from its wheel.

    python tools/gen_sglang_moe_defaults.py            # every release the flag schema stores
    python tools/gen_sglang_moe_defaults.py --check    # regenerate and compare, write nothing

Per release, each reading found (absent: not in that release's source):

- `chunk_defaults`: `_handle_gpu_memory_settings` (server_args.py; 0.5.19+
  arg_groups/memory_hook.py `handle_gpu_memory_settings`): the `if gpu_mem < A * B` chain
  under `if gpu_mem is not None`, as `tiers` [[bound in MiB or null, default
  chunked_prefill_size], ...] (the value a branch assigns, `self.chunked_prefill_size = N` or
  `declare_resolution(..., chunked_prefill_size=N)`; `is_npu() and ...` branches, Ascend's,
  skipped), and `no_gpu`, the outer `else`'s;
- `flashinfer_cutlass`: the assert under `if ....moe_runner_backend == "flashinfer_cutlass"`
  (the first such `if` whose body asserts `....quantization in [...]`): `quantizations` (null
  written for None), `message` (the f-string, `{...}` fields as `{quantization}`), and
  `ep_message`, the message of an assert there on `....ep_size in [1, ...tp_size]`;
- `sm100_adopts_checkpoint_quantization`: a branch under an SM100 test
  (`is_sm100_supported()`, `....is_sm100`) in a function naming `DeepseekV3ForCausalLM` sets
  the quantization from `quant_method` (the checkpoint's `quantization_config`) when none was
  given, outside any test of the MoE runner (0.5.4's form, only for the `auto` runner, does
  not count);
- `sm100_adopting_architectures`: the architectures whose branch (`if model_arch in [...]`,
  or a function `@_register_for(...)` them) holds such an SM100 branch (any function);
- `sm100_only_quantization`: --quantization values refused off SM100: under
  `if ....quantization == "V":`, an `if not <SM100 test>:` (as above) whose body raises
  `ValueError("...")` -> {V: {"message": its message, "where": module:function}} (0.5.14+:
  `nvfp4_online`, "--quantization nvfp4_online is supported only on NVIDIA Blackwell
  SM100/SM103 GPUs.", in `_handle_moe_kernel_config`, 0.5.18+
  `_moe_runner_backend_quant_constraints`);
- `flashinfer_trtllm` and `deepseek_family` (0.5.22+): the FlashInfer TRTLLM MoE runner's
  quantization assert, and which architectures get the DeepSeek-family Blackwell defaults
  with the tests those make (tools/sglang_deepseek_family.py says what is read), and
  `inline_int4_runner` (0.5.10-0.5.14), the same runner test written inline in
  `_handle_model_specific_adjustments`; `inline_trtllm_mla` (0.5.9), the architectures of that
  branch where it sets only the trtllm_mla attention backend (no int4 runner test yet);
- `quantization_adopters`: the architectures the resolution gives the checkpoint's
  quantization, each with whether an SM100/Blackwell test gates it (tools/sglang_quant_adopters.py);
- `moe_runner_quantization`: each MoE runner's quantization assert under
  `if ....moe_runner_backend == "R"` ({R: {"quantizations", "message", "alternative"}};
  tools/sglang_moe_runner_asserts.py says what is read), and `moe_runner_overrides`, the
  --quantization values under which an explicit runner not listed is replaced ({V: [runners]};
  0.5.9 mxfp8: the runner is set to cutlass after a test that only warns, read as
  ["auto", "cutlass"]), `moe_runner_replacements` the runner put in their place on CUDA and
  `moe_kernel_first` the handlers' order (tools/README.md),
  and `moe_runner_refusals`, those under which it is refused with a ValueError (0.5.14+
  nvfp4_online: {V: {"runners", "message", "unless", "unless_a2a": {"runner", "moe_a2a_backend"}
  where those terms take a runner only beside that all-to-all backend (0.5.23
  flashinfer_megamoe), with "env": {"name", "default", "true", "false"} where the other term
  is a boolean environment switch, its default and `EnvBool.parse` read from environ.py}}), `moe_runner_alias` (0.5.18+: `--moe-runner-backend megamoe` names
  another all-to-all backend and the auto runner: {"runner", "declares", "where"}), and
  `megamoe_architectures` (0.5.20+: the architectures `validate_flashinfer_megamoe_model`
  takes beside --moe-a2a-backend flashinfer_megamoe, its message and caller, and its
  "quantization" check: the values it takes, 0.5.23's nvfp4_online under an environment
  switch, the ModelConfig terms and the quantization_config keys and architectures that set
  them, read from configs/model_config.py, and "attention_dp", the caller's attention-DP
  assert in that branch: {"enabled", "size", "message"}), `megamoe_token_budget` (0.5.21+
  `validate_mega_moe_token_budget` under --moe-a2a-backend megamoe: its environment variable
  and `EnvInt` default, prefill-budget message and `mega_moe_needs_token_budget`'s
  architectures, quantizations and quant_algo substring), and
  `a2a_rewrites` (0.5.16+: --moe-a2a-backend values the resolution sets to another on every
  platform, ascend_tp -> none: {V: {"to", "where"}}, tools/sglang_a2a_rewrites.py),
  `moe_kernel_handler` (the function holding the MoE runners' quantization asserts, named in
  messages as the frame that raises), `a2a_spanning` (0.5.15.post1+: `_A2A_EP_SPANNING_BACKENDS`, the backends whose `_a2a_ep_size`
  sets ep_size = tp_size, and whether it logs that itself: {"backends", "logs", "where"};
  speclint's `ReleaseTraits.a2a_spanning` is checked against it, tests/test_release_traits.py),
  `pplx_attention_dp` (0.5.17+: --moe-a2a-backend pplx's attention-DP assert: {"enabled",
  "size", "min", "message", "where"}, same module), `pplx_runner` (0.5.17+: the MoE runners
  its next assert takes: {"runners", "message", "where"}), `pplx_dispatch_budget` (0.5.17+: its
  per-rank dispatch assert: {"variable", "default", "message", "terms", "where"}) and
  `deepep_v2` (0.5.19+: --moe-a2a-backend deepep_v2's architectures and runner:
  {"architectures", "architecture_message", "runner", "runner_message", "runner_after",
  "where"}) and `deepep_v2_budget` (0.5.19+: its per-rank prefill dispatch check: {"variable",
  "default", "message", "scatter", "growth", "where"}), all tools/sglang_a2a_budgets.py,
  `deepep_v2_decode` (0.5.19+: the same function's decode CUDA-graph check, {"variable",
  "default", "message", "attention_dp", "where"}, tools/sglang_deepep_v2_decode.py) and
  `moe_runner_lora`, the LoRA MoE runners' need of --enable-lora (0.5.23).
"""

from __future__ import annotations

import ast
import os
import sys
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from line_array import per_release_generator  # noqa: E402
from sglang_a2a_budgets import (  # noqa: E402
    REGISTRY,
    read_deepep_v2,
    read_deepep_v2_budget,
    read_pplx_dispatch_budget,
    read_pplx_runner,
)
from sglang_a2a_rewrites import read_a2a_rewrites, read_a2a_spanning, read_pplx_attention_dp  # noqa: E402
from sglang_chunk_defaults import _is_name, _number, read_chunk_defaults  # noqa: E402
from sglang_deepep_v2_decode import read_deepep_v2_decode  # noqa: E402
from sglang_deepseek_family import (  # noqa: E402
    read_deepseek_family,
    read_dsa,
    read_flashinfer_trtllm,
    read_inline_int4_runner,
    read_inline_trtllm_mla,
)
from sglang_handler_order import read_moe_kernel_first  # noqa: E402
from sglang_megamoe import read_megamoe_architectures, read_megamoe_token_budget  # noqa: E402
from sglang_moe_runner_asserts import (  # noqa: E402
    attribute_equals,
    read_lora_runner,
    read_moe_runner_quantization,
    read_runner_overrides,
    read_sm100_adopting_architectures,
)
from sglang_moe_runner_refusals import read_runner_alias, read_runner_refusals  # noqa: E402
from sglang_quant_adopters import read_quantization_adopters  # noqa: E402
from sglang_runner_replacements import read_runner_replacements  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "src", "speclint", "sglang", "data", "sglang_moe_defaults.json")
MODULES = ("sglang/srt/server_args.py", "sglang/srt/arg_groups/")
ENVIRON = "sglang/srt/environ.py"
MODEL_CONFIG = "sglang/srt/configs/model_config.py"
COMMON = "sglang/srt/utils/common.py"


def _sources(archive: zipfile.ZipFile) -> list[tuple[str, ast.Module, str]]:
    found = []
    for name in sorted(archive.namelist()):
        if name.endswith(".py") and (name == MODULES[0] or name.startswith(MODULES[1])):
            text = archive.read(name).decode("utf-8")
            found.append((name, ast.parse(text), text))
    return found


def _runner_test(test: ast.expr, runner: str) -> bool:
    return (
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Attribute)
        and test.left.attr == "moe_runner_backend"
        and isinstance(test.ops[0], ast.Eq)
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value == runner
    )


def _message(node: ast.expr | None) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        parts = []
        for value in node.values:
            if isinstance(value, ast.Constant):
                parts.append(str(value.value))
            else:
                parts.append("{quantization}")
        return "".join(parts)
    return None


def _in_list(test: ast.expr, attribute: str) -> list[ast.expr] | None:
    if (
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Attribute)
        and test.left.attr == attribute
        and isinstance(test.ops[0], ast.In)
        and isinstance(test.comparators[0], ast.List)
    ):
        return test.comparators[0].elts
    return None


def read_flashinfer_cutlass(sources: list[tuple[str, ast.Module, str]]) -> dict[str, object] | None:
    for _, tree, _ in sources:
        for node in ast.walk(tree):
            if not (isinstance(node, ast.If) and _runner_test(node.test, "flashinfer_cutlass")):
                continue
            reading: dict[str, object] = {}
            for stmt in node.body:
                if not isinstance(stmt, ast.Assert):
                    continue
                quantizations = _in_list(stmt.test, "quantization")
                if quantizations is not None and "quantizations" not in reading:
                    values = [e.value for e in quantizations if isinstance(e, ast.Constant)]
                    reading["quantizations"] = values
                    reading["message"] = _message(stmt.msg)
                sizes = _in_list(stmt.test, "ep_size")
                if sizes is not None and _number(sizes[0]) == 1:
                    reading["ep_message"] = _message(stmt.msg)
            if "quantizations" in reading:
                reading.setdefault("ep_message", None)
                return reading
    return None


def read_moe_kernel_handler(sources: list[tuple[str, ast.Module, str]]) -> str | None:
    """The name of the function that holds the flashinfer_cutlass MoE runner's asserts (the
    branch `read_flashinfer_cutlass` reads; 0.5.1-0.5.2 `__post_init__`, 0.5.3-0.5.18 `_handle_moe_kernel_config`,
    0.5.19+ `handle_moe_kernel_config` in arg_groups/moe_hook.py): the frame SGLang's MoE runner
    asserts raise from, named in speclint's messages; None where there is no such branch."""
    found = None
    for _, tree, _ in sources:
        for function in (f for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)):
            for node in ast.walk(function):
                if (
                    isinstance(node, ast.If)
                    and _runner_test(node.test, "flashinfer_cutlass")
                    and any(isinstance(s, ast.Assert) for s in node.body)
                ):
                    found = function.name  # the innermost function holding it comes last
    return found


def _sm100_test(test: ast.expr) -> bool:
    for node in ast.walk(test):
        if isinstance(node, ast.Name) and node.id == "is_sm100_supported":
            return True
        if isinstance(node, ast.Attribute) and node.attr == "is_sm100":
            return True
    return False


def _sets_from_quant_method(body: list[ast.stmt]) -> bool:
    """An assignment of `quant_method` to the quantization, not under a MoE-runner test."""
    for stmt in body:
        if isinstance(stmt, ast.Assign) and _is_name(stmt.value, "quant_method"):
            names = [ast.unparse(t) for t in stmt.targets]
            if any("quantization" in n for n in names):
                return True
        if isinstance(stmt, ast.If):
            if any(
                isinstance(n, ast.Attribute) and n.attr == "moe_runner_backend" for n in ast.walk(stmt.test)
            ):
                continue
            if _sets_from_quant_method(stmt.body) or _sets_from_quant_method(stmt.orelse):
                return True
    return False


def read_sm100_adoption(sources: list[tuple[str, ast.Module, str]]) -> bool:
    for _, tree, text in sources:
        for function in ast.walk(tree):
            if not isinstance(function, ast.FunctionDef):
                continue
            if "DeepseekV3ForCausalLM" not in (ast.get_source_segment(text, function) or ""):
                continue
            for node in ast.walk(function):
                if isinstance(node, ast.If) and _sm100_test(node.test) and _sets_from_quant_method(node.body):
                    return True
    return False


def _adopts(body: list[ast.stmt]) -> bool:
    """An SM100 branch in `body` sets the quantization from `quant_method`."""
    return any(
        isinstance(n, ast.If) and _sm100_test(n.test) and _sets_from_quant_method(n.body)
        for stmt in body
        for n in ast.walk(stmt)
    )


def read_sm100_only_quantization(sources: list[tuple[str, ast.Module, str]]) -> dict[str, dict] | None:
    found: dict[str, dict] = {}
    for name, tree, _ in sources:
        for function in ast.walk(tree):
            if not isinstance(function, ast.FunctionDef):
                continue
            for node in ast.walk(function):
                value = attribute_equals(node.test, "quantization") if isinstance(node, ast.If) else None
                if value is None or not isinstance(node, ast.If):
                    continue
                for inner in (n for stmt in node.body for n in ast.walk(stmt)):
                    if (
                        isinstance(inner, ast.If)
                        and isinstance(inner.test, ast.UnaryOp)
                        and isinstance(inner.test.op, ast.Not)
                        and _sm100_test(inner.test.operand)
                    ):
                        message = _raised_value_error(inner.body)
                        if message is not None:
                            found.setdefault(value, {"message": message, "where": f"{name}:{function.name}"})
    return found or None


def _raised_value_error(body: list[ast.stmt]) -> str | None:
    for stmt in body:
        exc = stmt.exc if isinstance(stmt, ast.Raise) else None
        if (
            isinstance(exc, ast.Call)
            and isinstance(exc.func, ast.Name)
            and exc.func.id == "ValueError"
            and len(exc.args) == 1
            and isinstance(exc.args[0], ast.Constant)
            and isinstance(exc.args[0].value, str)
        ):
            return exc.args[0].value
    return None


def read_release(path: str) -> list[tuple[str, object]]:
    with zipfile.ZipFile(path) as archive:
        sources = _sources(archive)
        family = read_deepseek_family(archive, sources)
        inline = read_inline_int4_runner(sources) if family is None else None
        mla = read_inline_trtllm_mla(sources) if family is None and inline is None else None
        for branch in (b for b in (inline, mla) if b is not None):
            branch["dsa"] = read_dsa(archive)
        runners = read_moe_runner_quantization(sources, _message, archive)
        names = archive.namelist()
        environ = archive.read(ENVIRON).decode("utf-8") if ENVIRON in names else None
        model_config = archive.read(MODEL_CONFIG).decode("utf-8") if MODEL_CONFIG in names else None
        registry = archive.read(REGISTRY).decode("utf-8") if REGISTRY in names else None
        common = archive.read(COMMON).decode("utf-8") if COMMON in names else None
    out: list[tuple[str, object]] = []
    chunk = read_chunk_defaults(sources)
    if chunk is not None:
        out.append(("chunk_defaults", chunk))
    cutlass = read_flashinfer_cutlass(sources)
    if cutlass is not None:
        out.append(("flashinfer_cutlass", cutlass))
    handler = read_moe_kernel_handler(sources)
    if handler is not None:
        out.append(("moe_kernel_handler", handler))
    out.extend(("moe_kernel_first", first) for first in [read_moe_kernel_first(sources)] if first is not None)
    out.append(("sm100_adopts_checkpoint_quantization", read_sm100_adoption(sources)))
    adopting = read_sm100_adopting_architectures(sources, _adopts)
    if adopting is not None:
        out.append(("sm100_adopting_architectures", adopting))
    sm100_only = read_sm100_only_quantization(sources)
    if sm100_only is not None:
        out.append(("sm100_only_quantization", sm100_only))
    trtllm = read_flashinfer_trtllm(sources, _message)
    if trtllm is not None:
        out.append(("flashinfer_trtllm", trtllm))
    if family is not None:
        out.append(("deepseek_family", family))
    out.extend(
        (key, b) for key, b in (("inline_int4_runner", inline), ("inline_trtllm_mla", mla)) if b is not None
    )
    if runners is not None:
        out.append(("moe_runner_quantization", runners))
    overrides = read_runner_overrides(sources)
    if overrides is not None:
        out.append(("moe_runner_overrides", overrides))
    out.extend(("moe_runner_replacements", r) for r in [read_runner_replacements(sources)] if r is not None)
    refusals = read_runner_refusals(sources, environ)
    if refusals is not None:
        out.append(("moe_runner_refusals", refusals))
    megamoe = read_megamoe_architectures(sources, environ, model_config)
    if megamoe is not None:
        out.append(("megamoe_architectures", megamoe))
    budget = read_megamoe_token_budget(sources, environ, common)
    if budget is not None:
        out.append(("megamoe_token_budget", budget))
    rewrites = read_a2a_rewrites(sources)
    if rewrites is not None:
        out.append(("a2a_rewrites", rewrites))
    spanning = read_a2a_spanning(sources)
    if spanning is not None:
        out.append(("a2a_spanning", spanning))
    pplx = read_pplx_attention_dp(sources)
    if pplx is not None:
        out.append(("pplx_attention_dp", pplx))
    pplx_runner = read_pplx_runner(sources)
    if pplx_runner is not None:
        out.append(("pplx_runner", pplx_runner))
    pplx_budget = read_pplx_dispatch_budget(sources, environ)
    if pplx_budget is not None:
        out.append(("pplx_dispatch_budget", pplx_budget))
    deepep_v2 = read_deepep_v2(sources, registry)
    if deepep_v2 is not None:
        out.append(("deepep_v2", deepep_v2))
    out.extend(("deepep_v2_budget", b) for b in [read_deepep_v2_budget(sources, environ, registry)] if b)
    out.extend(("deepep_v2_decode", d) for d in [read_deepep_v2_decode(sources, environ)] if d is not None)
    alias = read_runner_alias(sources)
    if alias is not None:
        out.append(("moe_runner_alias", alias))
    out.extend(("quantization_adopters", a) for a in [read_quantization_adopters(sources)] if a is not None)
    lora = read_lora_runner(sources)
    if lora is not None:
        out.append(("moe_runner_lora", lora))
    return out


build, dump, main = per_release_generator(__doc__, OUT, read_release)


if __name__ == "__main__":
    sys.exit(main())
