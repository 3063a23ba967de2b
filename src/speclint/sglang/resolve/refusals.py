"""Refusals of SGLang's handlers that speclint checks once the launch is resolved
(`check_server_args` calls `check_refusals`): the all-to-all MoE backends (`_handle_a2a_moe`),
Flex Attention with speculative decoding, multi-item scoring, the TP LM-head all-to-all,
switches only some models take; refusals_moe.py the MoE runners' own. Each release's facts
are `ReleaseTraits` fields (traits_refusals.py), read in its source and confirmed with
tools/oracle. A check whose inputs speclint cannot read (a dynamic flag, a size that depends
on the GPU, a model whose config.json is not on disk) says nothing."""

from __future__ import annotations

from speclint.sglang.resolve.ep_join import ep_scale_joiner
from speclint.sglang.resolve.refusals_features import check_feature_refusals
from speclint.sglang.resolve.refusals_moe import check_moe_kernel, deterministic_inference
from speclint.sglang.resolve.result import is_known
from speclint.sglang.resolve.state import Stop, given
from speclint.sglang.server_checks import cli_copies

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.resolve.state import ResolutionState


_DEFAULT_CHECKED_RUNNERS = ("flashinfer_cutlass", "cutlass")
"""The MoE runners whose asserts `refusals_moe_defaults` checks."""


def check_refusals(state: ResolutionState) -> None:
    _model_switches(state)
    if deterministic_inference(state):  # (imported only then)
        from speclint.sglang.resolve.refusals_deterministic import check_deterministic_refusals

        check_deterministic_refusals(state)  # before the attention backend's own checks
        if state.gpu is None:
            from speclint.sglang.resolve.deterministic import multi_item_scoring_by_gpu

            multi_item_scoring_by_gpu(state)
    _flex_attention_speculative(state)
    _trtllm_mla_speculative(state)
    _mamba_stochastic_rounding(state)
    _multi_item_scoring(state)
    check_moe_kernel(state)
    if state.get("moe_a2a_backend") == "flashinfer_megamoe":  # (its module imported only then)
        from speclint.sglang.resolve.refusals_megamoe import check_megamoe_model

        check_megamoe_model(state)
    moe_kernel_defaults(state)
    if state.get("moe_a2a_backend") == "flashinfer":  # (its module imported only then)
        from speclint.sglang.resolve.refusals_flashinfer_a2a import check_flashinfer_a2a

        check_flashinfer_a2a(state)
    backend = state.get("moe_a2a_backend")
    if backend == "ascend_fuseep" or given(state, "disaggregation_mode") == "decode":  # (only then)
        from speclint.sglang.resolve.refusals_startup_env import check_startup_env

        check_startup_env(state)
    if backend == "pplx":  # (their modules imported only then)
        from speclint.sglang.resolve.refusals_pplx import check_pplx_attention_dp

        check_pplx_attention_dp(state)
    if backend in ("pplx", "deepep_v2", "mori"):
        from speclint.sglang.resolve.refusals_a2a_budget import check_a2a_budgets

        check_a2a_budgets(state)
    _dp_lm_head_replicas(state)
    _tp_lm_head_all_to_all(state)
    if given(state, "enable_prefill_cp") is True or any(
        state.config.given(cli_copies(state.checked_version).get(n, n))
        for n in ("attn_cp_size", "moe_dp_size")
    ):  # (imported only then; 0.5.10-0.5.13 parse --attn-cp-size into another name)
        from speclint.sglang.resolve import refusals_prefill_cp

        refusals_prefill_cp.check_cp_strategy(state)
        refusals_prefill_cp.check_cp_asserts(state)
        refusals_prefill_cp.check_cp_moe_dp(state)
    check_feature_refusals(state)
    if state.get("moe_a2a_backend") == "megamoe":  # 0.5.21+'s late token budget (imported only then)
        from speclint.sglang.resolve.refusals_megamoe_budget import check_megamoe_budget

        check_megamoe_budget(state)


def moe_kernel_defaults(state: ResolutionState) -> None:
    """The MoE-kernel handler's runner checks that read the GPU's defaults (refusals_moe_defaults)."""
    if given(state, "moe_runner_backend") in _DEFAULT_CHECKED_RUNNERS or (
        state.gpu is not None and given(state, "quantization") is not None
    ):
        from speclint.sglang.resolve.refusals_moe_defaults import check_moe_defaults  # (only then)

        check_moe_defaults(state)


def _flex_attention_speculative(state: ResolutionState) -> None:
    """`_handle_attention_backend_compatibility` (0.5.3+; 0.5.19+ attention_hook.py):
    `assert speculative_algorithm is None` once the attention backend is flex_attention."""
    algorithm = given(state, "speculative_algorithm")
    if (
        not state.traits.flex_refuses_speculative
        or state.get("attention_backend") != "flex_attention"
        or algorithm is None
        or not is_known(algorithm)
    ):
        return
    raise Stop(
        "AssertionError",
        "Speculative decoding is currently not supported with Flex Attention backend "
        f"(--attention-backend flex_attention with --speculative-algorithm {algorithm}; "
        "pick another attention backend or drop speculative decoding)",
        "_handle_attention_backend_compatibility",
        ("attention_backend", "speculative_algorithm"),
    )


def _trtllm_mla_speculative(state: ResolutionState) -> None:
    """`__post_init__` (ReleaseTraits.trtllm_mla_refuses_speculative): --attention-backend
    trtllm_mla with any speculative algorithm raises."""
    algorithm = given(state, "speculative_algorithm")
    if (
        not state.traits.trtllm_mla_refuses_speculative
        or state.get("attention_backend") != "trtllm_mla"
        or algorithm is None
        or not is_known(algorithm)
    ):
        return
    raise Stop(
        "ValueError",
        "trtllm_mla backend does not support speculative decoding yet. (--attention-backend "
        f"trtllm_mla with --speculative-algorithm {algorithm}; pick another attention backend or "
        "drop speculative decoding)",
        "__post_init__",
        ("attention_backend", "speculative_algorithm"),
    )


def _multi_item_scoring(state: ResolutionState) -> None:
    """`_handle_multi_item_scoring` (0.5.11+): --enable-mis asserts that the prefill and the
    decode backends (`--prefill/--decode-attention-backend`, else the attention backend,
    picked for the GPU when not given) are both flashinfer."""
    if not state.traits.mis_needs_flashinfer or given(state, "enable_mis") is not True:
        return
    backend = state.get("attention_backend")
    prefill = state.get("prefill_attention_backend") or backend
    decode = state.get("decode_attention_backend") or backend
    if not all(isinstance(b, str) for b in (prefill, decode)):
        return  # not picked yet (no GPU given), or dynamic
    if prefill == "flashinfer" and decode == "flashinfer":
        return
    raise Stop(
        "AssertionError",
        "Multi-item scoring requires flashinfer attention backend for custom attention mask "
        "support. Please set --attention-backend flashinfer when using --enable-mis. "
        f"Current backends: prefill={prefill}, decode={decode}",
        "_handle_multi_item_scoring",
        ("enable_mis", "attention_backend", "prefill_attention_backend", "decode_attention_backend"),
    )


_TP_LM_HEAD = {
    "dp_attention": "Please enable dp attention when setting enable_tp_lm_head_all_to_all.",
    "attn_dp": "--enable-tp-lm-head-all-to-all requires attention DP (--attn-dp-size).",
}


def _dp_lm_head_replicas(state: ResolutionState) -> None:
    """0.5.23 overrides.py `_dp_lm_head_validation`: --enable-dp-lm-head asserts attention DP;
    with data-parallel replicas (--dp-size > 1) `_data_parallelism_defaults` keeps the flag,
    so --attn-dp-size 1 is refused (read where dp_size and attn_dp_size are apart)."""
    if not state.traits.separate_attn_dp_size or given(state, "enable_dp_lm_head") is not True:
        return
    attn, dp = state.get("attn_dp_size"), state.get("dp_size")
    if attn != 1 or not isinstance(dp, int) or dp <= 1 or ep_scale_joiner(state) is not False:
        return
    raise Stop(
        "AssertionError",
        "--enable-dp-lm-head requires attention DP (--attn-dp-size). (--dp-size counts "
        "replicas here; set --attn-dp-size > 1 or drop --enable-dp-lm-head)",
        "_dp_lm_head_validation",
        ("enable_dp_lm_head", "attn_dp_size"),
    )


def _tp_lm_head_all_to_all(state: ResolutionState) -> None:
    """overrides.py `_dp_lm_head_validation` (0.5.18+, `ReleaseTraits.tp_lm_head_a2a_check`):
    --enable-tp-lm-head-all-to-all asserts attention DP."""
    check = state.traits.tp_lm_head_a2a_check
    if not check or given(state, "enable_tp_lm_head_all_to_all") is not True:
        return
    if check == "dp_attention":
        if state.get("enable_dp_attention") is not False:
            return
        detail = "DP attention is off; add --enable-dp-attention with --dp-size > 1"
        fields: tuple[str, ...] = ("enable_tp_lm_head_all_to_all", "enable_dp_attention")
    else:
        attn = state.get("attn_dp_size")
        if not isinstance(attn, int) or attn > 1 or ep_scale_joiner(state) is not False:
            return
        detail = f"--attn-dp-size is {attn}; set --attn-dp-size > 1"
        fields = ("enable_tp_lm_head_all_to_all", "attn_dp_size")
    raise Stop("AssertionError", f"{_TP_LM_HEAD[check]} ({detail})", "_dp_lm_head_validation", fields)


def _model_switches(state: ResolutionState) -> None:
    """Switches only some models take, refused by the architecture (or `model_type`) in the
    target's config.json; a target whose config is not on disk says nothing."""
    traits, architecture = state.traits, state.target_architecture
    if architecture is None:
        return
    supported = traits.layernorm_sp_architectures
    if supported and given(state, "enable_layernorm_sp") is True and architecture not in supported:
        listed = sorted(supported)
        raise Stop(
            "ValueError",
            f"--enable-layernorm-sp is only supported for {listed}; got {architecture}. "
            "(drop --enable-layernorm-sp for this model)",
            "validate_layernorm_sp",
            ("enable_layernorm_sp",),
        )
    supported = traits.cp_decode_attn_tp_architectures
    if supported and given(state, "enable_cp_decode_attn_tp") is True and architecture not in supported:
        raise Stop(
            "ValueError",
            "--enable-cp-decode-attn-tp is only supported for models whose attention linears are "
            f"replicated across CP ranks (attn_tp_size=1). Got {architecture}; supported: "
            f"{sorted(supported)}. (drop --enable-cp-decode-attn-tp for this model)",
            "_handle_model_specific_adjustments",
            ("enable_cp_decode_attn_tp",),
        )
    check = traits.encoder_swa_replay_check
    if check and given(state, "enable_encoder_swa_bounded_replay") is True:
        config = state.target_config
        model_type = config.raw.get("model_type") if config is not None else None
        if (
            isinstance(model_type, str)
            and model_type != "deepseek_v41"
            and (check == "any" or architecture == "DeepseekV4ForCausalLM")
        ):
            raise Stop(
                "ValueError",
                f"--enable-encoder-swa-bounded-replay requires DeepSeek-V4.1 (the model_type is "
                f"{model_type}; drop the flag for this model)",
                "_handle_model_capability_adjustments"
                if check == "any"
                else "_handle_model_specific_adjustments",
                ("enable_encoder_swa_bounded_replay",),
            )


def _mamba_stochastic_rounding(state: ResolutionState) -> None:
    """`_handle_mamba_backend` (0.5.15+, `ReleaseTraits.mamba_rounding_needs_float16`):
    --enable-mamba-cache-stochastic-rounding needs --mamba-ssm-dtype float16 (no handler
    before it sets float16; --enable-linear-replayssm-spec sets float32), a CUDA GPU, and
    with the triton Mamba backend (the default) an SM100 one."""
    if not state.traits.mamba_rounding_needs_float16:
        return
    if given(state, "enable_mamba_cache_stochastic_rounding") is not True:
        return
    dtype = given(state, "mamba_ssm_dtype")
    if not is_known(dtype):
        return
    fields = ("enable_mamba_cache_stochastic_rounding", "mamba_ssm_dtype", "mamba_backend")
    if dtype != "float16":
        raise Stop(
            "ValueError",
            "Stochastic rounding for the Mamba SSM cache requires --mamba-ssm-dtype float16, got "
            f"{dtype!r}. Run with --mamba-ssm-dtype float16 or disable "
            "--enable-mamba-cache-stochastic-rounding.",
            "_handle_mamba_backend",
            fields,
        )
    gpu = state.gpu  # then the platform: read only with --gpu
    if gpu is None:
        return
    if gpu.vendor != "nvidia":
        raise Stop(
            "ValueError",
            "Stochastic rounding for the Mamba SSM cache is only supported on NVIDIA CUDA "
            "platforms. Disable --enable-mamba-cache-stochastic-rounding on this platform.",
            "_handle_mamba_backend",
            fields,
        )
    if given(state, "mamba_backend") == "triton" and (gpu.sm or 0) // 10 != 10:
        raise Stop(
            "ValueError",
            "Stochastic rounding for the Mamba SSM cache with --mamba-backend triton requires "
            "SM100 with CUDA >= 12.8 because it uses the cvt.rs.f16x2.f32 PTX instruction. On "
            "H100/SM90, run with --mamba-backend flashinfer --mamba-ssm-dtype float16, or disable "
            f"--enable-mamba-cache-stochastic-rounding. (the {gpu.name} is SM{gpu.sm})",
            "_handle_mamba_backend",
            fields,
        )
