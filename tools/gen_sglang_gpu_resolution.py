#!/usr/bin/env python3
"""Generate src/speclint/sglang/data/sglang_gpu_resolution.json: for every release, the logic
behind the GPU-dependent resolution speclint models (resolve/hardware.py,
resolve/hardware_memory.py), read statically (`ast`, never imported) from its wheel.

    python tools/gen_sglang_gpu_resolution.py            # every release the flag schema stores
    python tools/gen_sglang_gpu_resolution.py --check    # regenerate and compare, write nothing

Per release:

- `shape`: {function: digest} for each function of `FUNCTIONS` (found by name, a leading
  underscore ignored, in `sglang/srt/server_args.py` and `sglang/srt/arg_groups/**`; null
  where the release has none). The digest is sha256 of `ast.dump` of the function with its
  docstrings and its logging calls (`logger.*`, `logging.*`, `warnings.warn`) dropped and the
  parts read below cut out (tools/sglang_shape_cutter.py), so two releases share a digest
  exactly when that logic is the same apart from wording and the numbers read. Releases with
  the same `shape` share one stored reading: its index is the release's group
  (`speclint.sglang.gpu_resolution`).
- `memory` (from `handle_gpu_memory_settings`), absent where a part is not in the form read:
  `tiers`, the `if gpu_mem < BOUND:` chain under `if gpu_mem is not None:` as
  [[bound in MiB or null, chunked_prefill_size, decode max_bs when tp_size < tp_bound,
  max_bs otherwise], ...] (a branch setting one max_bs repeats it), and `tp_bound`;
  `mla_prefill`, the prefill CUDA-graph max_bs of MLA models when none is given (the branch
  beside `prefill... = cfg.chunked_prefill_size` under `if not use_mla_backend(...)`):
  {"fixed": N} or {"cap": N} for `min(N, cfg.chunked_prefill_size)`, {"chunked": true} where
  MLA models get the chunked prefill size too (0.5.7: no such branch); `running_cap`, whether
  a default decode max_bs above --max-running-requests is lowered to it; `context_clamp`,
  whether a given --context-length caps the prefill max_bs (`if ....context_length is not
  None: prefill....max_bs = min(..., ....context_length)`, 0.5.15-0.5.16); and
  `pp_disables_breakable`, whether `apply_cuda_graph_compatibility` turns the breakable
  prefill CUDA graphs off for --pp-size above 1 (`if ....pp_size > 1 and ... BREAKABLE`);
  `breakable_rules`, the names of `disable_breakable_cudagraph_if_incompatible`'s
  `rules = [("name", lambda: ...), ...]`, each turning breakable prefill graphs off; and
  `multimodal_piecewise`, whether `apply_cuda_graph_compatibility` moves every model SGLang
  lists as multimodal-piecewise to tc_piecewise prefill graphs (no breakable exception);
  `tc_piecewise_rules`, the names of `disable_tc_piecewise_cudagraph_if_incompatible`'s rules;
  `decode_reserve_unguarded`, whether the decode CUDA graphs' `max_bs * 2` is reserved with
  no backend test around it (0.5.14); `prefill_default`, the prefill CUDA-graph backend on
  CUDA, and `piecewise_disabled_archs`, the tc_piecewise model blacklist
  (tools/sglang_prefill_graphs.py: 0.5.14 tc_piecewise, 0.5.15+ breakable);
  `trtllm_mla_prefill_off`, whether the release has
  `disable_prefill_cuda_graph_for_deepseek_trtllm_mla` (0.5.15+). Before `cuda_graph_config`
  (0.5.13.post1 and older, `prefill_graph_flag` "disable_piecewise_cuda_graph"), the prefill
  default, the rules (`handle_piecewise_cuda_graph`'s conditions) and `speculative_reserve`
  come from tools/sglang_piecewise_flag.py (`prefill_graph_flag` "enable_piecewise_cuda_graph"
  where that is the switch, 0.5.9 and older; "none" with `prefill_default` "disabled",
  `prefill_ranges` [] and `mla_prefill` {"none": true} where the release has no prefill CUDA
  graphs at all: no flag, size or token counts, 0.5.3.post1 and older). The digests leave out
  `ModelConfig.from_server_args(self)` for `self.get_model_config()` (and its import) and the
  `if self.piecewise_cuda_graph_tokens is None:` statement whose counts `prefill_ranges` reads
  (0.5.3-0.5.4 then share 0.5.4.post1's memory digest). From tools/sglang_graph_sizes.py:
  `prefill_clamps` ({"total_tokens": bool, "llama2": cap or null}), `decode_appends_max_bs`
  `prefill_ranges` (the prefill token counts' [[a, b or null for max + 1, c], ...]) and
  `decode_ranges` (the decode batch sizes so, {"padding", "plain", "speculative"}).
- `defaults`, where read: `mm_feature_transport`, what `handle_multimodal_feature_transport`
  resolves an unset --mm-feature-transport to on one CUDA node ({"text": ..., "multimodal":
  ...}; tools/sglang_feature_transport.py); `speculative_moe_auto`, the target's MoE runners the
  draft does not follow when --speculative-moe-runner-backend is not given (0.5.11:
  flashinfer_trtllm; tools/sglang_draft_moe.py); `prefill_fields` and `late_piecewise_rules`
  (0.5.13.post1 and older: the piecewise graphs' ServerArgs fields, and the rules that turn
  them off after the memory settings; sglang_graph_sizes.py, sglang_piecewise_flag.py);
  `allreduce_fusion` (tools/sglang_allreduce_fusion.py); `deepseek_runner_quantization`, the one
  quantization the DeepSeek-V3 SM100 branch of `handle_model_specific_adjustments` takes the
  flashinfer_trtllm MoE runner for (0.5.3.post2-0.5.4: "modelopt_fp4"; absent where its test
  names no single one).
"""

from __future__ import annotations

import ast
import hashlib
import os
import sys
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from line_array import per_release_generator  # noqa: E402
from sglang_allreduce_fusion import allreduce_fusion  # noqa: E402
from sglang_digest_parts import deepseek_runner_quantization, digested  # noqa: E402
from sglang_draft_moe import draft_moe_auto  # noqa: E402
from sglang_feature_transport import FUNCTION as TRANSPORT  # noqa: E402
from sglang_feature_transport import feature_transport  # noqa: E402
from sglang_graph_sizes import (  # noqa: E402
    decode_appends_max_bs,
    decode_ranges,
    prefill_clamps,
    prefill_fields,
    prefill_ranges,
    prefill_size_field,
    server_args_int,
)
from sglang_piecewise_flag import (  # noqa: E402
    FLAG,
    late_piecewise_rules,
    piecewise_flag,
    piecewise_rules,
    speculative_reserve,
)
from sglang_prefill_graphs import (  # noqa: E402
    decode_reserve_unguarded,
    multimodal_piecewise,
    piecewise_disabled_archs,
    pp_disables_breakable,
    prefill_default,
    rule_names,
)
from sglang_shape_cutter import Cutter  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "src", "speclint", "sglang", "data", "sglang_gpu_resolution.json")
MODULES = ("sglang/srt/server_args.py", "sglang/srt/arg_groups/")
MEMORY = "handle_gpu_memory_settings"
COMPATIBILITY = "apply_cuda_graph_compatibility"
BREAKABLE_RULES = "disable_breakable_cudagraph_if_incompatible"
TC_RULES = "disable_tc_piecewise_cudagraph_if_incompatible"
TRTLLM_MLA_PREFILL = "disable_prefill_cuda_graph_for_deepseek_trtllm_mla"
PIECEWISE = "handle_piecewise_cuda_graph"
DECODE_SIZES = ("generate_decode_cuda_graph_batch_sizes", "generate_cuda_graph_batch_sizes")
PREFILL_SIZES = ("generate_prefill_cuda_graph_batch_sizes", "generate_piecewise_cuda_graph_tokens")
FUNCTIONS = (
    MEMORY,
    "reserve_for_graph_mb",
    "adjust_mem_fraction_for_vlm",
    "parse_cuda_graph_config",
    COMPATIBILITY,
    BREAKABLE_RULES,
    TC_RULES,
    TRTLLM_MLA_PREFILL,
    "generate_decode_cuda_graph_batch_sizes",
    "generate_prefill_cuda_graph_batch_sizes",
    "generate_cuda_graph_batch_sizes",
    "generate_piecewise_cuda_graph_tokens",
    PIECEWISE,
    "use_mla_backend",
    "get_default_attn_backend",
    "attention_backend_default",
    "attention_backend_fa3_fp8_fallback",
    "mla_backend_page_constraints",
    "page_size_default",
    "sampling_backend_default",
    "handle_data_parallelism",
)
"""The functions hardware.py and hardware_memory.py model (their docstrings name them)."""


def _sources(archive: zipfile.ZipFile) -> list[tuple[str, ast.Module]]:
    found = []
    for name in sorted(archive.namelist()):
        if name.endswith(".py") and (name == MODULES[0] or name.startswith(MODULES[1])):
            found.append((name, ast.parse(archive.read(name).decode("utf-8"))))
    return found


def read_release(path: str) -> list[tuple[str, object]]:
    with zipfile.ZipFile(path) as archive:
        sources = _sources(archive)
    shape: dict[str, str | None] = {}
    memory: dict[str, object] = {}
    pp_breakable = piecewise = False
    breakable_rules: list[str] = []
    tc_rules: list[str] = []
    unguarded = False
    spec_reserve = fields = None
    transport = None
    clamps: dict[str, object] = {}
    appends = False
    ranges = size_field = memory_node = decode = None
    flag = piecewise_flag([tree for _, tree in sources])
    for _, tree in sources:
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name.lstrip("_") == TRANSPORT:
                transport = feature_transport(node)
    for function in FUNCTIONS:
        dumps = []
        for _, tree in sources:
            for node in ast.walk(tree):
                if isinstance(node, ast.FunctionDef) and node.name.lstrip("_") == function:
                    if function == COMPATIBILITY:
                        pp_breakable = pp_breakable or pp_disables_breakable(node)
                        piecewise = piecewise or multimodal_piecewise(node)
                    if function == BREAKABLE_RULES:
                        breakable_rules = rule_names(node)
                    if function == TC_RULES:
                        tc_rules = rule_names(node)
                    if function == PIECEWISE:
                        tc_rules = piecewise_rules(node)
                    if function == MEMORY:
                        unguarded = decode_reserve_unguarded(node)
                        spec_reserve = speculative_reserve(node)
                        clamps, memory_node = prefill_clamps(node), node
                    if function in DECODE_SIZES:
                        appends = appends or decode_appends_max_bs(node)
                        decode = decode_ranges(node)
                    if function in PREFILL_SIZES:
                        ranges, size_field = prefill_ranges(node), prefill_size_field(node)
                    cutter = Cutter()
                    dumps.append(digested(cutter.visit(node)))
                    if function == MEMORY:
                        memory = cutter.memory
        shape[function] = hashlib.sha256("\n".join(dumps).encode()).hexdigest()[:16] if dumps else None
    out: list[tuple[str, object]] = [("shape", shape)]
    trees = [tree for _, tree in sources]
    if memory_node is not None:
        fields = prefill_fields(memory_node, flag and flag[0], size_field)
    if "tiers" in memory and "mla_prefill" not in memory and fields and fields["max_bs"] == size_field:
        size = server_args_int(trees, size_field)  # 0.5.6.x: a constant, not set by the memory settings
        if size is not None:
            memory["mla_prefill"] = {"constant": size}
    no_prefill_graphs = (  # 0.5.3.post1 and older: no prefill CUDA graphs at all
        flag is None
        and size_field is None
        and ranges is None
        and "mla_prefill" not in memory
        and not memory.pop("piecewise_tokens", False)
    )
    if "tiers" in memory and no_prefill_graphs:
        memory["mla_prefill"] = {"none": True}
    if "tiers" in memory and "mla_prefill" in memory:
        memory.setdefault("running_cap", False)
        memory.setdefault("context_clamp", False)
        memory["pp_disables_breakable"] = pp_breakable
        memory["breakable_rules"] = breakable_rules
        memory["multimodal_piecewise"] = piecewise
        memory["tc_piecewise_rules"] = tc_rules
        memory["decode_reserve_unguarded"] = unguarded
        memory["trtllm_mla_prefill_off"] = shape[TRTLLM_MLA_PREFILL] is not None
        memory["speculative_reserve"] = spec_reserve
        memory["prefill_clamps"] = clamps
        memory["decode_appends_max_bs"] = appends
        memory["prefill_ranges"] = ranges
        memory["decode_ranges"] = decode
        with zipfile.ZipFile(path) as archive:
            default = prefill_default(archive)
            memory["prefill_graph_flag"] = (
                "cuda_graph_config" if default else flag[0] if flag else "none" if no_prefill_graphs else FLAG
            )
            memory["prefill_default"] = default or (
                flag[1] if flag else "disabled" if no_prefill_graphs else None
            )
            if no_prefill_graphs:
                memory["prefill_ranges"] = []
            memory["piecewise_disabled_archs"] = piecewise_disabled_archs(archive)
        out.append(("memory", memory))
    defaults: dict[str, object] = {} if transport is None else {"mm_feature_transport": transport}
    avoided = draft_moe_auto([tree for _, tree in sources])
    if avoided:
        defaults["speculative_moe_auto"] = avoided
    if fields:
        defaults["prefill_fields"] = fields
        defaults["late_piecewise_rules"] = late_piecewise_rules([tree for _, tree in sources])
    fusion = allreduce_fusion([tree for _, tree in sources])
    if fusion:
        defaults["allreduce_fusion"] = fusion
    runner_quantization = deepseek_runner_quantization(trees)
    if runner_quantization:
        defaults["deepseek_runner_quantization"] = runner_quantization
    if defaults:
        out.append(("defaults", defaults))
    return out


build, dump, main = per_release_generator(__doc__, OUT, read_release)


if __name__ == "__main__":
    sys.exit(main())
