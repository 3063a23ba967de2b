"""Per-release facts of the refusals resolve/refusals*.py check (found missing by random
launches against the real releases, session 7): FlashInfer and MoRI all-to-all MoE, the MoE
runners' quantization and ep_size asserts, Flex Attention with speculative decoding,
multi-item scoring off FlashInfer, the TP LM-head all-to-all without attention DP, switches
only some architectures take, Mamba stochastic rounding. Read in each release's
server_args.py (0.5.19+: arg_groups/moe_hook.py, attention_hook.py, overrides.py,
model_hook.py, layers/layernorm_sp.py, layers/cp/cp_decode_attn_tp.py) and confirmed with
tools/oracle on 0.4.10, 0.5.2, 0.5.3.post3, 0.5.5.post3, 0.5.6.post2, 0.5.9, 0.5.11,
0.5.13.post1, 0.5.14, 0.5.15.post1, 0.5.17, 0.5.18, 0.5.19, 0.5.21, 0.5.22, 0.5.23. The read
releases' entries spread `READ_REFUSALS`; the recorded ones copy a read release's and
change `REFUSAL_FACTS` (traits.py applies them)."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def _for(releases: tuple[str, ...], **fields: Any) -> dict[str, dict[str, Any]]:
    return {release: dict(fields) for release in releases}


_CUTLASS_CUTEDSL = ("flashinfer_cutlass", "flashinfer_cutedsl")
_RUNNERS_0_5_15 = (*_CUTLASS_CUTEDSL, "flashinfer_trtllm_routed")
_RUNNERS_0_5_19 = (*_CUTLASS_CUTEDSL, "flashinfer_trtllm", "flashinfer_trtllm_routed", "deep_gemm")
"""The MoE runners FlashInfer A2A accepts (`assert moe_runner_backend in [...]`)."""

_FP8_MXFP8 = ("fp8", "mxfp8")
_LAYERNORM_SP = ("Qwen3ForCausalLM",)
"""layers/layernorm_sp.py `SP_SUPPORTED_ARCHITECTURES` (0.5.19-0.5.22; 0.5.23 adds Muse Spark)."""
_CP_DECODE_ATTN_TP = (
    "DeepseekV4ForCausalLM",
    "DeepseekV4ForCausalLMNextN",
    "DeepseekV4ForCausalLMDSpark",
    "GlmMoeDsaForCausalLM",
    "GlmMoeDsaForCausalLMNextN",
)
"""layers/cp/cp_decode_attn_tp.py `CP_DECODE_ATTN_TP_SUPPORTED_ARCHS` (0.5.17-0.5.23)."""

_A2A_0_5_9 = {"deepep": "DeepEP", "mooncake": "Mooncake", "ascend_fuseep": "Ascend fused EP"}
"""0.5.6-0.5.8 `_handle_a2a_moe`'s `ep_size = tp_size` backends (0.5.6.post2's entry); 0.5.9
adds flashinfer and mori, 0.5.10 nixl (ReleaseTraits.a2a_spanning: which rewrite a launch
gets before the checks here read ep_size)."""

READ_REFUSALS: dict[str, dict[str, Any]] = {
    # no MoE all-to-all checks, no Flex Attention assert, no --enable-mis
    "0.4.10.post2": dict(
        layernorm_sp_architectures=(),
        cp_decode_attn_tp_architectures=(),
        encoder_swa_replay_check="",
        mamba_rounding_needs_float16=False,
        cutlass_moe_quantizations=(),
        flashinfer_moe_quantization="flags",
        flashinfer_a2a_check="",
        flashinfer_a2a_runners=(),
        mori_dispatch_check="",
        flex_refuses_speculative=False,
        trtllm_mla_refuses_speculative=True,
        mis_needs_flashinfer=False,
        tp_lm_head_a2a_check="",
    ),
    # `_handle_attention_backend_compatibility`: "Speculative decoding is currently not
    # supported with Flex Attention backend"
    "0.5.6.post2": dict(
        layernorm_sp_architectures=(),
        cp_decode_attn_tp_architectures=(),
        encoder_swa_replay_check="",
        mamba_rounding_needs_float16=False,
        cutlass_moe_quantizations=("fp8",),
        flashinfer_moe_quantization="runner_0_5_6",
        flashinfer_a2a_check="",
        flashinfer_a2a_runners=(),
        mori_dispatch_check="",
        flex_refuses_speculative=True,
        trtllm_mla_refuses_speculative=False,
        mis_needs_flashinfer=False,
        tp_lm_head_a2a_check="",
    ),
    # `_handle_a2a_moe`: FlashInfer A2A asserts DP attention with dp_size == tp_size, then a
    # flashinfer_cutlass/cutedsl runner ('auto' becomes one only on SM120); MoRI
    # asserts chunked_prefill_size <= SGLANG_MORI_NUM_MAX_DISPATCH_TOKENS_PER_RANK (unless
    # chunked prefill is off or the node decodes); `_handle_multi_item_scoring` asserts
    # flashinfer for prefill and decode
    "0.5.14": dict(
        layernorm_sp_architectures=(),
        cp_decode_attn_tp_architectures=(),
        encoder_swa_replay_check="",
        mamba_rounding_needs_float16=False,
        cutlass_moe_quantizations=_FP8_MXFP8,
        flashinfer_moe_quantization="",
        flashinfer_a2a_check="dp_attention_auto",
        flashinfer_a2a_runners=_CUTLASS_CUTEDSL,
        mori_dispatch_check="prefill",
        flex_refuses_speculative=True,
        trtllm_mla_refuses_speculative=False,
        mis_needs_flashinfer=True,
        tp_lm_head_a2a_check="",
    ),
    # moe_hook.py `_flashinfer_a2a_topology_is_supported` (attention DP across all TP ranks,
    # or Muse Spark's prefill sequence parallelism), the per-rank MoRI message;
    # overrides.py `_dp_lm_head_validation`: "--enable-tp-lm-head-all-to-all requires
    # attention DP (--attn-dp-size)."
    "0.5.23": dict(
        layernorm_sp_architectures=(*_LAYERNORM_SP, "MuseSparkForConditionalGeneration"),
        cp_decode_attn_tp_architectures=_CP_DECODE_ATTN_TP,
        encoder_swa_replay_check="any",
        mamba_rounding_needs_float16=True,
        cutlass_moe_quantizations=_FP8_MXFP8,
        flashinfer_moe_quantization="",
        flashinfer_a2a_check="attn_dp_or_muse",
        flashinfer_a2a_runners=_RUNNERS_0_5_19,
        mori_dispatch_check="per_rank",
        flex_refuses_speculative=True,
        trtllm_mla_refuses_speculative=False,
        mis_needs_flashinfer=True,
        tp_lm_head_a2a_check="attn_dp",
    ),
}
"""The read releases' facts (traits_read.py spreads them into their entries)."""

REFUSAL_FACTS: dict[str, dict[str, Any]] = {
    # no FlashInfer MoE flags before 0.4.8
    **_for(
        ("0.4.0", "0.4.1", "0.4.6", "0.4.6.post5", "0.4.7"),
        flashinfer_moe_quantization="",
        trtllm_mla_refuses_speculative=False,
    ),
    # --enable-flashinfer-trtllm-moe asserts --enable-ep-moe ("EP MoE is required for
    # Flashinfer TRTLLM MOE")
    # no "trtllm_mla backend does not support speculative decoding yet" (0.4.10.post1 adds it)
    **_for(
        ("0.4.9.post6", "0.4.10"),
        flashinfer_moe_quantization="flags_ep",
        trtllm_mla_refuses_speculative=False,
    ),
    # the runners' asserts as worded in each release (refusals.py `_MOE_QUANTIZATION`)
    "0.5.1.post3": dict(flashinfer_moe_quantization="runner_0_5_1", trtllm_mla_refuses_speculative=False),
    "0.5.3.post3": dict(flashinfer_moe_quantization="runner_0_5_3", cutlass_moe_quantizations=()),
    "0.5.4.post3": dict(flashinfer_moe_quantization="runner_0_5_4"),
    "0.5.5.post3": dict(flashinfer_moe_quantization="runner_0_5_5"),
    # 0.5.7+: both runners take bfloat16 (None)
    **_for(("0.5.7", "0.5.8.post1"), flashinfer_moe_quantization=""),
    # 0.5.2 has no Flex Attention assert yet (0.5.3 adds it)
    # no cutlass MoE runner before 0.5.4
    "0.5.2": dict(
        flex_refuses_speculative=False,
        flashinfer_moe_quantization="runner_0_5_2",
        cutlass_moe_quantizations=(),
    ),
    # "Flashinfer MoE A2A is only supported with flashinfer_cutlass moe runner backend";
    # MoRI: `assert chunked_prefill_size <= get_int_env_var(..., 4096)`, no exceptions
    "0.5.9": dict(
        a2a_spanning={**_A2A_0_5_9, "flashinfer": "Flashinfer MoE A2A", "mori": "MoRI"},
        flashinfer_moe_quantization="",
        cutlass_moe_quantizations=_FP8_MXFP8,
        flashinfer_a2a_check="cutlass_runner",
        flashinfer_a2a_runners=("flashinfer_cutlass",),
        mori_dispatch_check="any",
    ),
    # and MoRI skips a chunked prefill size <= 0 and decode nodes; no DP-attention assert
    # before 0.5.13 (0.5.11-0.5.12 copy 0.5.14's entry)
    "0.5.10.post1": dict(
        a2a_spanning={**_A2A_0_5_9, "nixl": "Nixl", "flashinfer": "Flashinfer MoE A2A", "mori": "MoRI"},
        flashinfer_moe_quantization="",
        flashinfer_a2a_needs_dp_attention=False,
        flashinfer_a2a_check="cutlass_runner",
        flashinfer_a2a_runners=("flashinfer_cutlass",),
        cutlass_moe_quantizations=_FP8_MXFP8,
        mori_dispatch_check="prefill",
    ),
    **_for(
        ("0.5.11", "0.5.12.post1"),
        flashinfer_moe_quantization="",
        cutlass_moe_quantizations=_FP8_MXFP8,
        flashinfer_a2a_needs_dp_attention=False,
        flashinfer_a2a_check="cutlass_runner",
        flashinfer_a2a_runners=("flashinfer_cutlass",),
        mori_dispatch_check="prefill",
    ),
    # "... must be >= the per-rank MoRI dispatch tokens (chunked_prefill_size by default)"
    # and flashinfer_trtllm_routed joins the runners; `_handle_mamba_backend`'s stochastic
    # rounding needs --mamba-ssm-dtype float16
    **_for(
        ("0.5.15.post1", "0.5.16"),
        flashinfer_a2a_check="dp_attention",
        mori_dispatch_check="per_rank",
        flashinfer_a2a_runners=_RUNNERS_0_5_15,
        mamba_rounding_needs_float16=True,
    ),
    # and --enable-cp-decode-attn-tp only for the architectures listed
    "0.5.17": dict(
        flashinfer_a2a_check="dp_attention",
        mori_dispatch_check="per_rank",
        flashinfer_a2a_runners=_RUNNERS_0_5_15,
        mamba_rounding_needs_float16=True,
        cp_decode_attn_tp_architectures=_CP_DECODE_ATTN_TP,
    ),
    # still `enable_dp_attention and dp_size == tp_size` (parallel.py, as 0.5.14; 0.5.23's
    # entry has attn_dp_size instead); "Please enable dp attention when setting
    # enable_tp_lm_head_all_to_all."
    "0.5.18": dict(
        layernorm_sp_architectures=(),
        encoder_swa_replay_check="",
        flashinfer_a2a_needs_dp_attention=True,
        flashinfer_a2a_check="dp_attention",
        flashinfer_a2a_runners=_RUNNERS_0_5_15,
        tp_lm_head_a2a_check="dp_attention",
    ),
    # moe_hook.py: "FlashInfer MoE A2A is supported with flashinfer_cutlass, ..., or deep_gemm."
    # layernorm_sp_hook.py `validate_layernorm_sp`: Qwen3 only
    **_for(
        ("0.5.19", "0.5.20"),
        layernorm_sp_architectures=_LAYERNORM_SP,
        encoder_swa_replay_check="",
        flashinfer_a2a_needs_dp_attention=True,
        flashinfer_a2a_check="dp_attention",
        tp_lm_head_a2a_check="dp_attention",
    ),
    # deepseek_v4_hook.py `validate_deepseek_v41_features`: for DeepseekV4ForCausalLM only
    "0.5.21": dict(
        layernorm_sp_architectures=_LAYERNORM_SP,
        encoder_swa_replay_check="dsv4",
        flashinfer_a2a_needs_dp_attention=True,
        flashinfer_a2a_check="dp_attention",
        tp_lm_head_a2a_check="dp_attention",
    ),
    # "Flashinfer MoE A2A is only supported with --attn-dp-size equal to --tp-size"
    "0.5.22": dict(
        flashinfer_a2a_check="attn_dp",
        layernorm_sp_architectures=_LAYERNORM_SP,
        encoder_swa_replay_check="dsv4",
    ),
}
"""{release: {trait: value}}, applied after the entries are built (traits.py)."""
