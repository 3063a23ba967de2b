"""SGLang 0.5.22-0.5.23's DeepSeek-family defaults on Blackwell (SM100): `_deepseek_family_overrides`
(model_overrides/deepseek_v2.py) picks trtllm_mla, `_deepseek_moe_quant_resolution`
(overrides.py) takes the checkpoint's quantization and the flashinfer_trtllm MoE runner,
`_moe_runner_fusion_disable` then keeps shared experts apart, and
`disable_prefill_cuda_graph_for_deepseek_trtllm_mla` (cuda_graph_hook.py) turns prefill CUDA
graphs off under trtllm_mla (DeepSeek-V3 only). Which architectures get them, and the tests
they make, are read per release (`speclint.sglang.moe_defaults.deepseek_family`); a release
without that reading keeps them to DeepSeek-V3. Checked by tests/test_oracle_wide.py and
tests/test_deepseek_family.py on a fake B200."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.moe_defaults import DeepseekFamily
    from speclint.sglang.resolve.gpu_profiles import GpuProfile
    from speclint.sglang.resolve.state import ResolutionState, Stop

ARCH = "DeepseekV3ForCausalLM"
_FLASHINFER_TRTLLM_QUANT = ("fp8", "modelopt_fp8", "modelopt_fp4", "modelopt_mixed", None)
"""The runner's quantizations where the release's family reading is absent (DeepSeek-V3 only)."""

DEEPSEEK_BLACKWELL = (
    "the DeepSeek-family (MLA) Blackwell overrides (_deepseek_family_overrides, "
    "_deepseek_moe_quant_resolution) are not modelled"
)
"""Why the Blackwell DeepSeek fields stay unknown where these overrides are not modelled."""


def not_modelled(state: ResolutionState) -> str:
    """Why `applies` is false for an MLA target on Blackwell."""
    from speclint.sglang.gpu_resolution import deepseek_runner_quantization

    only = deepseek_runner_quantization(state.checked_version)
    if only is None:
        return DEEPSEEK_BLACKWELL
    return (
        f"SGLang {state.checked_version}'s DeepSeek-V3 defaults on Blackwell "
        f"(_handle_model_specific_adjustments: the flashinfer_trtllm MoE runner for {only} only) "
        "are not modelled"
    )


def _family(state: ResolutionState) -> DeepseekFamily | None:
    from speclint.sglang.moe_defaults import deepseek_family

    return deepseek_family(state.checked_version)


def _dsa(state: ResolutionState, family: DeepseekFamily) -> bool:
    """`is_deepseek_dsa(hf_config)`: the DSA branch, not modelled here (the key looked for in
    the config's top level or its text_config, to say nothing where either has it)."""
    if state.target_architecture not in family.dsa_architectures:
        return False
    raw = state.target_config.raw if state.target_config is not None else {}
    text = raw.get("text_config")
    return raw.get(family.dsa_attribute) is not None or (
        isinstance(text, dict) and text.get(family.dsa_attribute) is not None
    )


def is_dsa(state: ResolutionState) -> bool:
    """`is_deepseek_dsa(hf_config)` with the release's reading (0.5.15+); no reading: False."""
    family = _family(state)
    return family is not None and _dsa(state, family)


def applies(state: ResolutionState, gpu: GpuProfile) -> bool:
    if (gpu.sm or 0) // 10 != 10 or not state.traits.deepseek_blackwell_mla:
        return False  # 0.5.3.post1 and older make no DeepSeek adjustment on SM100 (recorded)
    from speclint.sglang.gpu_resolution import deepseek_runner_quantization

    if deepseek_runner_quantization(state.checked_version) is not None:
        return False  # 0.5.4: the runner for modelopt_fp4 only, no FP8 default (not modelled)
    family = _family(state)
    if family is None:
        return state.target_architecture == ARCH
    arch = state.target_architecture
    return arch in family.attention and arch in family.moe and not _dsa(state, family)


def _quantization_config(state: ResolutionState) -> dict[str, object] | None:
    from speclint.sglang.resolve.quantization import _quantization_config

    quant = _quantization_config(state)  # kimi_k25 lifts it from text_config
    return quant if isinstance(quant, dict) else None


def checkpoint_quantization(state: ResolutionState) -> str | None:
    """`quantization_config.quant_method` of the target's config.json (None: not stated)."""
    quant = _quantization_config(state)
    method = quant.get("quant_method") if quant is not None else None
    return method.lower() if isinstance(method, str) else None


def int4_checkpoint(state: ResolutionState, test: dict[str, object] | None = None) -> bool:
    """The release's Kimi K2 / K2.5 thinking int4 test (`test`, else the family reading's) on
    the checkpoint's quantization_config (`quant_method` and `config_groups.group_0.weights`)."""
    if test is None:
        family = _family(state)
        test = family.int4_checkpoint if family is not None else None
    quant = _quantization_config(state)
    if not test or quant is None:
        return False
    groups = quant.get("config_groups")
    group = groups.get("group_0") if isinstance(groups, dict) else None
    weights = group.get("weights") if isinstance(group, dict) else None
    weights = weights if isinstance(weights, dict) else {}
    return all(
        (quant.get(k) if k == "quant_method" else weights.get(k)) == value for k, value in test.items()
    )


def blackwell_problem(state: ResolutionState) -> str | None:
    """Why these defaults cannot be predicted for this launch (None: they can)."""
    quantization = state.config.value("quantization")
    if quantization == "unquant":
        name = "DeepSeek-V3" if state.target_architecture == ARCH else state.target_architecture
        return f"--quantization unquant on {name} on Blackwell is not modelled"
    family = _family(state)
    probed = family.fp8_probe if family is not None else (ARCH,)
    if (
        quantization is None
        and checkpoint_quantization(state) is None
        and state.target_architecture in probed
    ):
        return (
            "SGLang looks for FP8 expert weights in the checkpoint's safetensors "
            "(has_fp8_weights_in_checkpoint)"
        )
    return None


def unquant_attention(state: ResolutionState, gpu: GpuProfile, reason: str) -> None:
    """--quantization unquant leaves the family's MoE and quantization defaults unmodelled
    (`blackwell_problem`), not its attention backend: `_deepseek_family_overrides` sets
    trtllm_mla whatever the quantization, so the backend's own refusals stand (oracle, moe seed
    15004: 0.5.21-0.5.23 refuse --kv-cache-dtype fp8_e5m2 on DeepSeek-V3 on a B200 in
    `_mla_kv_cache_dtype_checks`)."""
    if (
        state.config.value("quantization") == "unquant"
        and applies(state, gpu)
        and reason == blackwell_problem(state)
    ):
        attention_override(state)


def attention_override(state: ResolutionState) -> None:
    """`_deepseek_family_overrides`: no backend given -> trtllm_mla."""
    if all(
        state.get(n) is None
        for n in ("attention_backend", "prefill_attention_backend", "decode_attention_backend")
    ):
        state.set(
            "attention_backend",
            "trtllm_mla",
            f"SGLang's default for {state.target_architecture} on Blackwell (SM100)",
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
    if state.get("moe_a2a_backend") == "none" and runner == "auto" and _takes_trtllm(state, quantization):
        state.values.setdefault("moe_runner_backend", runner)
        state.set(
            "moe_runner_backend",
            "flashinfer_trtllm",
            f"FlashInfer TRTLLM MoE on Blackwell for {state.target_architecture}",
            "_deepseek_moe_quant_resolution",
            "Use flashinfer_trtllm as MoE runner backend on Blackwell for Kimi K2 / K2.5 thinking int4"
            if int4_checkpoint(state)
            else "Use flashinfer_trtllm as MoE runner backend on sm100 for DeepseekV3ForCausalLM",
            "info",
        )
        runner = "flashinfer_trtllm"
        _trtllm_assert(state, quantization)
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
        logic = state.gpu_logic
        if logic is not None and runner in logic.draft_moe_auto:  # 0.5.11
            state.set(
                "speculative_moe_runner_backend",
                "auto",
                f"the draft does not take the target's {runner} MoE runner",
                "_handle_speculative_decoding",
            )
            return
        from speclint.sglang.resolve.draft_moe_runner import runner_picked_for_quantization

        why = runner_picked_for_quantization(state, runner)
        if why is not None:
            state.set_unknown("speculative_moe_runner_backend", why)
            return
        state.set(
            "speculative_moe_runner_backend",
            runner,
            "the draft's MoE runner follows the target's",
            "_speculative_moe_runner_default",
        )


def _takes_trtllm(state: ResolutionState, quantization: object) -> bool:
    """`_deepseek_moe_quant_resolution`'s test for the flashinfer_trtllm runner (the a2a and
    auto-runner parts aside)."""
    family = _family(state)
    if family is None:
        return quantization in _FLASHINFER_TRTLLM_QUANT
    arch = state.target_architecture or ""
    if any(arch.startswith(p) for p in family.runner_excluded_prefixes):
        return False
    return (
        quantization in family.runner_quantizations
        or int4_checkpoint(state)
        or (quantization is None and family.runner_none)
    )


def _trtllm_assert(state: ResolutionState, quantization: object) -> None:
    """`_handle_moe_kernel_config`'s assert on the runner picked above (read per release):
    a --quantization the runner does not take, picked for an int4 checkpoint, is refused."""
    from speclint.sglang.moe_defaults import flashinfer_trtllm

    facts = flashinfer_trtllm(state.checked_version)
    if facts is None or not isinstance(quantization, str) or quantization in facts[0]:
        return
    raise trtllm_quantization_stop(
        facts,
        quantization,
        f"{state.target_architecture}, whose checkpoint",
        ("quantization", "moe_runner_backend"),
        state.checked_version,
    )


def trtllm_quantization_stop(
    facts: tuple[tuple[str | None, ...], str],
    quantization: str,
    whose: str,
    fields: tuple[str, ...],
    version: str,
) -> Stop:
    """`_handle_moe_kernel_config`'s refusal of a --quantization the flashinfer_trtllm MoE
    runner does not take (`facts`: the runner's quantizations and SGLang's message, read per
    release), saying why that runner was picked (`whose`: the model and its checkpoint)."""
    from speclint.sglang.resolve.moe_refusal import moe_kernel_stop

    listed = ", ".join(q for q in facts[0] if q)
    return moe_kernel_stop(
        facts[1],
        quantization,
        f"--quantization {quantization} on {whose} SGLang gives the flashinfer_trtllm MoE "
        f"runner on Blackwell (SM100); drop --quantization, name one of {listed}, or pass "
        "another --moe-runner-backend",
        fields,
        version,
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
