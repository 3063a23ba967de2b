"""SGLang 0.5.23's DeepSeek-V3 defaults on Blackwell (SM100): `_deepseek_family_overrides`
(model_overrides/deepseek_v2.py) picks trtllm_mla, `_deepseek_moe_quant_resolution`
(overrides.py) takes the checkpoint's quantization and the flashinfer_trtllm MoE runner,
`_moe_runner_fusion_disable` then keeps shared experts apart, and
`disable_prefill_cuda_graph_for_deepseek_trtllm_mla` (cuda_graph_hook.py) turns prefill CUDA
graphs off under trtllm_mla. Checked by tests/test_oracle_wide.py on a fake B200."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.resolve.gpu_profiles import GpuProfile
    from speclint.sglang.resolve.state import ResolutionState

ARCH = "DeepseekV3ForCausalLM"
_FLASHINFER_TRTLLM_QUANT = ("fp8", "modelopt_fp8", "modelopt_fp4", "modelopt_mixed", None)

DEEPSEEK_BLACKWELL = (
    "the DeepSeek-family (MLA) Blackwell overrides (_deepseek_family_overrides, "
    "_deepseek_moe_quant_resolution) are not modelled"
)
"""Why the Blackwell DeepSeek fields stay unknown where these overrides are not modelled."""


def applies(state: ResolutionState, gpu: GpuProfile) -> bool:
    return state.target_architecture == ARCH and (gpu.sm or 0) // 10 == 10


def checkpoint_quantization(state: ResolutionState) -> str | None:
    """`quantization_config.quant_method` of the target's config.json (None: not stated)."""
    config = state.target_config
    quant = config.raw.get("quantization_config") if config is not None else None
    method = quant.get("quant_method") if isinstance(quant, dict) else None
    return method.lower() if isinstance(method, str) else None


def blackwell_problem(state: ResolutionState) -> str | None:
    """Why these defaults cannot be predicted for this launch (None: they can)."""
    quantization = state.config.value("quantization")
    if quantization == "unquant":
        return "--quantization unquant on DeepSeek-V3 on Blackwell is not modelled"
    if quantization is None and checkpoint_quantization(state) is None:
        return (
            "SGLang looks for FP8 expert weights in the checkpoint's safetensors "
            "(has_fp8_weights_in_checkpoint)"
        )
    return None


def attention_override(state: ResolutionState) -> None:
    """`_deepseek_family_overrides`: no backend given -> trtllm_mla."""
    if all(
        state.get(n) is None
        for n in ("attention_backend", "prefill_attention_backend", "decode_attention_backend")
    ):
        state.set(
            "attention_backend",
            "trtllm_mla",
            "SGLang's default for DeepSeek-V3 on Blackwell (SM100)",
            "_deepseek_family_overrides",
            "Use trtllm_mla as attention backend on sm100 for DeepseekV3ForCausalLM",
            "info",
        )


def moe_overrides(state: ResolutionState) -> None:
    """`_deepseek_moe_quant_resolution` and `_moe_runner_fusion_disable`."""
    quantization = state.config.value("quantization")
    if quantization is None:
        quantization = checkpoint_quantization(state)
        state.values.setdefault("quantization", None)
        state.set(
            "quantization",
            quantization,
            "taken from the checkpoint's quantization_config on Blackwell",
            "_deepseek_moe_quant_resolution",
        )
    runner = state.config.value("moe_runner_backend", "auto")
    if (
        state.get("moe_a2a_backend") == "none"
        and runner == "auto"
        and quantization in _FLASHINFER_TRTLLM_QUANT
    ):
        state.values.setdefault("moe_runner_backend", runner)
        state.set(
            "moe_runner_backend",
            "flashinfer_trtllm",
            "FlashInfer TRTLLM MoE on Blackwell for DeepSeek-V3",
            "_deepseek_moe_quant_resolution",
            "Use flashinfer_trtllm as MoE runner backend on sm100 for DeepseekV3ForCausalLM",
            "info",
        )
        runner = "flashinfer_trtllm"
    if runner == "flashinfer_trtllm":
        state.values.setdefault(
            "disable_shared_experts_fusion", state.config.value("disable_shared_experts_fusion")
        )
        state.set(
            "disable_shared_experts_fusion",
            True,
            "FlashInfer TRTLLM MoE keeps shared experts separate",
            "_moe_runner_fusion_disable",
            "FlashInfer TRTLLM MoE is enabled. --disable-shared-experts-fusion is automatically set.",
        )
    if (
        state.get("speculative_moe_runner_backend") in (None, "auto")
        and state.config.value("speculative_moe_runner_backend") is None
    ):
        state.set(
            "speculative_moe_runner_backend",
            runner,
            "the draft's MoE runner follows the target's",
            "_speculative_moe_runner_default",
        )


def prefill_graph_override(state: ResolutionState) -> None:
    """trtllm_mla prefill with a captured prefill graph falls back to FlashAttention: for
    DeepSeek-V3 on any GPU (trtllm_mla picked on Blackwell, or given), unless the launch sets
    the prefill graph backend itself (`_cuda_graph_config_locked`; found by session 10's
    random launches: --prefill-attention-backend trtllm_mla on an H100)."""
    if state.config.given("cuda_graph_backend_prefill"):
        return
    prefill = state.get("prefill_attention_backend") or state.get("attention_backend")
    if prefill == "trtllm_mla" and state.get("cuda_graph_backend_prefill") != "disabled":
        state.set(
            "cuda_graph_backend_prefill",
            "disabled",
            "DeepSeek-V3 on trtllm_mla runs prefill without CUDA graphs",
            "_disable_prefill_cuda_graph_for_deepseek_trtllm_mla",
            "Disabling prefill CUDA graph by default for the DeepSeek-V3 "
            "arch on the trtllm_mla attention backend",
        )
