"""Which flags of `hardware_flags.BESIDE` stand beside a release's attention backend and page-size
pick: read per release by tools/gen_sglang_backend_reads.py (data/sglang_backend_reads.json:
every function of the pickers' call tree that names the flag's field) and allowed where each of
those functions is one `BESIDE_READS` names for that field, with why it leaves the pick as it
is. A release whose pickers touch a flag anywhere else (a new release, a moved check) keeps the
backend and page size unknown beside that flag until someone reads the new place."""

from __future__ import annotations

import os
from functools import lru_cache

from speclint.sglang.resolve.hardware_flags import BESIDE

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.linedata import LineData
    from speclint.sglang.resolve.gpu_profiles import GpuProfile
    from speclint.sglang.resolve.state import ResolutionState

_V4_AND_OTHERS = (
    "validate_deepseek_v4_cp",
    "validate_deepseek_v41_features",
    "validate_deepseek_v4_mega_moe_token_budget",
    "apply_deepseek_v4_defaults",
    "_default_dsv4_attention_backend",
    "_dsa_dcp_overrides",
    "_deepseek_v4_sm120_moe",
    "_check_xpu_dcp",
    "apply_nemotron_h_defaults",
    "_validate_mamba_extra_buffer",
    "validate_mamba_extra_buffer",
    "_probe_wo_a_weight_dtype",
)
"""Functions for architectures outside hardware_flags.MODELLED_ARCHITECTURES (DeepSeek V4 / DSA,
Nemotron-H, Mamba hybrids) or devices speclint does not model (XPU): with a modelled target they
do not run, or return before the field matters."""
_ADJUSTMENTS = ("_handle_model_specific_adjustments", "handle_model_specific_adjustments")
"""The per-architecture dispatcher (0.5.3-0.5.18 one function with a branch per architecture):
its DeepSeek branch holds the MLA prefill-CP block (prefill_cp_mla.py) and the Blackwell
trtllm_mla fill (deepseek_blackwell.py), which tests none of these fields; the other branches
are other architectures'."""

BESIDE_READS: dict[str, tuple[str, ...]] = {
    "enable_mis": (),
    # the deterministic fallback (deterministic.py) in the dispatcher
    "enable_deterministic_inference": _ADJUSTMENTS,
    # HYV4's MoE runner (0.5.20+), the DeepSeek MoE quantization's runner (refusals_moe_defaults.py)
    "moe_runner_backend": (
        *_ADJUSTMENTS,
        *_V4_AND_OTHERS,
        "_deepseek_family_overrides",
        "_deepseek_moe_quant_resolution",
    ),
    # the weight dtype of other branches; 0.5.23's all-reduce fusion (allreduce_flag.py)
    "dtype": (*_ADJUSTMENTS, *_V4_AND_OTHERS, "_flashinfer_allreduce_fusion_auto_enable"),
    # the MoE runner pick, the MLA prefill-CP rewrite, the all-reduce fusion
    "moe_a2a_backend": (
        *_ADJUSTMENTS,
        *_V4_AND_OTHERS,
        "_deepseek_family_overrides",
        "_deepseek_moe_quant_resolution",
        "_flashinfer_allreduce_fusion_auto_enable",
    ),
    # the MLA prefill-CP block; 0.5.19+ the trtllm_mha prefill CP refusal (backend_gpu.py); 0.5.23
    # attention TP for the all-reduce fusion
    "enable_prefill_cp": (
        *_ADJUSTMENTS,
        *_V4_AND_OTHERS,
        "_deepseek_family_overrides",
        "_attention_is_tensor_parallel",
    ),
    "enable_prefill_context_parallel": (
        *_ADJUSTMENTS,
        *_V4_AND_OTHERS,
        "handle_attention_backend_compatibility",
    ),
    "cp_strategy": (*_ADJUSTMENTS, *_V4_AND_OTHERS, "_deepseek_family_overrides"),
    "attn_cp_size": (
        *_ADJUSTMENTS,
        *_V4_AND_OTHERS,
        "_deepseek_family_overrides",
        "handle_attention_backend_compatibility",
        "_attention_is_tensor_parallel",
        "_flashinfer_allreduce_fusion_auto_enable",
    ),
    "attention_context_parallel_size": (),
    # the MLA prefill-CP block's ep_size, DeepSeek's speculative MoE (the draft's runner)
    "ep_size": (
        *_ADJUSTMENTS,
        *_V4_AND_OTHERS,
        "_deepseek_family_overrides",
        "_deepseek_spec_moe_resolution",
    ),
    "disaggregation_mode": (*_ADJUSTMENTS, *_V4_AND_OTHERS),
}
"""Per BESIDE field, the functions of the pickers' call tree allowed to name it (read in
0.5.3-0.5.23; tools/oracle draws in hardware_flags.BESIDE's docstring)."""


@lru_cache(maxsize=16)
def beside_for(version: str) -> frozenset[str]:
    """The BESIDE flags that stand beside `version`'s backend pick (all of them for a release
    the data does not store: speclint's newest reading stands, as elsewhere)."""
    from speclint.sglang.linedata import LineData

    data = LineData(
        os.path.join(
            os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "sglang_backend_reads.json"
        )
    )
    row = data.row(version)
    if not isinstance(row, dict):
        return BESIDE
    reads = data.shared(row["reads"])
    assert isinstance(reads, dict)
    return beside_from_reads(reads)


def beside_from_reads(reads: dict[str, list[str]]) -> frozenset[str]:
    """The BESIDE flags whose every reading function (`path::function`) BESIDE_READS allows."""
    return frozenset(
        field
        for field in BESIDE
        if all(where.split("::")[-1] in BESIDE_READS.get(field, ()) for where in reads.get(field, ()))
    )


SAMPLING_SAFE = frozenset(
    (
        "device",
        "attention_backend",
        "enable_deterministic_inference",
        "cuda_graph_config",
        "_cuda_graph_config_locked",
        "enable_fused_qk_norm_rope",
    )
)
"""What a writer of the sampling backend may name for speclint to state it beside flags it does
not model: the device (the CPU/HPU/XPU writers: speclint assumes CUDA, where they do nothing;
the XPU one's CUDA-graph and fused-norm fields are under its device test) and the deterministic
switch (`_deterministic_sampling_backend`, 0.5.15+). Before 0.5.15 the deterministic handler
writes it beside the TP size, the model and the radix cache: unknown there."""


def sampling_beside(state: ResolutionState, gpu: GpuProfile | None) -> None:
    """The sampling backend beside flags speclint does not model (--moe-a2a-backend, LoRA, ...):
    `_sampling_backend_default`'s FlashInfer on a CUDA GPU, where every function the release
    has writing it (`writers` of data/sglang_backend_reads.json) names only SAMPLING_SAFE fields
    and none of those flags, no writer of the deterministic switch names one of them, and the
    switch is off; or, where they name more, the release's influencers of it (read:
    constants_beside.clear_beside) name none of those flags."""
    if (
        gpu is None
        or gpu.vendor != "nvidia"
        or state.get("sampling_backend") is not None
        or state.get("enable_deterministic_inference") not in (False, None)
        or state.config.given("enable_deterministic_inference")
        or state.get("device") != "cuda"
    ):
        return
    from speclint.sglang.resolve.hardware_flags import outside_dests

    outside = set(outside_dests(state.config))
    writers = _writers(state.checked_version)
    if not outside or writers is None:
        return
    sampling, switch = writers.get("sampling_backend", {}), writers.get("enable_deterministic_inference", {})
    if any(not set(names) <= SAMPLING_SAFE or outside & set(names) for names in sampling.values()) or any(
        outside & set(names) for names in switch.values()
    ):
        from speclint.sglang.resolve.constants_beside import clear_beside

        if not clear_beside(state, "sampling_backend"):  # (its influencers, read: none given outside)
            return
    state.set(
        "sampling_backend", "flashinfer", "FlashInfer is available on CUDA GPUs", "_sampling_backend_default"
    )


@lru_cache(maxsize=16)
def _writers(version: str) -> dict[str, dict[str, list[str]]] | None:
    data = _data()
    row = data.row(version)
    if not isinstance(row, dict) or "writers" not in row:
        return None
    found: dict[str, dict[str, list[str]]] = data.shared(row["writers"])
    return found


@lru_cache(maxsize=1)
def _data() -> LineData:
    from speclint.sglang.linedata import LineData

    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return LineData(os.path.join(here, "data", "sglang_backend_reads.json"))
