"""SGLang 0.5.23's resolution fills fields nobody wrote: tokenizer path, served name, the
grammar backend, the LM-head layout, ... each from the handler named beside it
(`arg_groups/serving_hook.py`, `overrides.py`, `hicache_hook.py`, `boundary_reduction.py`,
`kv_cache_hook.py`), checked against the real resolution by tests/test_oracle_wide.py.

`explain` shows them so that its `effective` is the whole configuration SGLang runs with;
a field that depends on something speclint does not model is `Unknown` with why.
"""

from __future__ import annotations

from functools import lru_cache

from speclint.sglang.resolve.draft_moe_runner import runner_picked_for_quantization
from speclint.sglang.resolve.result import Adjustment, Unknown

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from speclint.sglang.resolve.gpu_profiles import GpuProfile
    from speclint.sglang.resolve.state import ResolutionState

# field -> (value when nobody set it, SGLang handler). The value is the same for every
# launch in the modelled envelope (hardware_flags.MODELLED_FLAGS).
CONSTANTS: dict[str, tuple[object, str]] = {
    "prefill_decode_interval": (0, "default_unset_prefill_decode_interval"),
    "mm_enable_dp_encoder": (False, "_handle_multimodal"),
    "mm_feature_transport": ("cpu", "_handle_multimodal_feature_transport"),
    "mm_process_config": ({}, "_handle_missing_default_values"),
    "dcp_comm_backend": ("ag_rs", "_dcp_comm_backend_default"),
    "expert_distribution_recorder_buffer_size": (1000, "_handle_expert_distribution_metrics"),
    "load_balance_method": ("round_robin", "_handle_load_balance_method"),
    "grammar_backend": ("xgrammar", "_handle_grammar_backend"),
    "grpc_worker_threads": (4, "_handle_deprecated_args"),
    "enable_flashinfer_allreduce_fusion": (False, "_handle_deprecated_args"),
    "uses_mamba_radix_cache": (False, "_handle_model_specific_adjustments"),
    "enable_tf32_matmul": (False, "resolved_dict"),
    "allowed_media_domains": ([], "_handle_media_url_security"),
    "mamba_full_memory_ratio": (0.9, "resolved_dict"),
    "custom_weight_loader": ([], "_handle_load_format"),
    "enable_tp_lm_head_all_to_all": (False, "_tp_lm_head_all_to_all_default"),
    "swa_full_tokens_ratio": (0.8, "resolved_dict"),
    "hicache_ratio": (2.0, "_handle_hicache_ratio_default"),
    "encoder_transfer_backend": ("zmq_to_scheduler", "_handle_encoder_disaggregation"),
}
_RESOLVED = "SGLang's resolved default"
_FILLED = {
    name: Adjustment(name, None, value, _RESOLVED, handler)
    for name, (value, handler) in CONSTANTS.items()
    if value is not None
}
"""The adjustment `state.set` records when it fills a CONSTANTS field that had no value:
one object for every launch (its value is the constant itself, the object `values` gets)."""
BOUNDARY_REDUCTION = {
    "LlamaForCausalLM": "rs+rsv",
    "DeepseekV3ForCausalLM": "rs+rsv",
    "Qwen3ForCausalLM": "ar",
    "KimiK25ForConditionalGeneration": "rs+rsv",
}
"""`model_boundary_reduction` (boundary_reduction.py): Qwen3 is in `_AR_ARCHITECTURES`."""
FUSION_ARCHITECTURES = ("DeepseekV3ForCausalLM", "KimiK25ForConditionalGeneration")
"""The modelled architectures in 0.5.23's `_FLASHINFER_ALLREDUCE_FUSION_ARCHS` (overrides.py)."""
DEFAULT_FIELDS = tuple(CONSTANTS) + (
    "boundary_reduction",
    "speculative_boundary_reduction",
    "speculative_draft_model_quantization",
    "tokenizer_path",
    "served_model_name",
    "random_seed",
    "enable_dp_lm_head",
    "speculative_moe_runner_backend",
    "flashinfer_allreduce_fusion_backend",
)


@lru_cache(maxsize=32)
def _lacking(version: str) -> frozenset[str]:
    """DEFAULT_FIELDS that are flags of the newest release but not of `version` (0.5.17 has no
    --boundary-reduction, nor a speculative_boundary_reduction beside it): the release has no
    such field, so none is stated. The fields no release has as a flag
    (`uses_mamba_radix_cache`, ...) are kept."""
    from speclint.sglang.flags.schema import newest_version, options_of

    def dests(release: str) -> set[str]:
        return {spec.dest for spec in options_of(release).values()}

    newest = newest_version()
    if version == newest:
        return frozenset()
    lacking = dests(newest).intersection(DEFAULT_FIELDS) - dests(version)
    if "boundary_reduction" in lacking:  # the draft's follows it
        lacking.add("speculative_boundary_reduction")
    return frozenset(lacking)


_STATED = ("tokenizer_path", "served_model_name", "speculative_draft_model_quantization")


@lru_cache(maxsize=32)
def _plan(version: str) -> tuple[tuple[str, ...], tuple[str, ...], tuple[tuple[Any, ...], ...]]:
    """`resolve_defaults`' fields for `version` (less `_lacking`): filled, left Unknown by an
    unmodelled launch (all but _STATED), CONSTANTS (name, value, handler, adjustment)."""
    lacking = _lacking(version)
    filled = tuple(n for n in DEFAULT_FIELDS if n not in lacking) if lacking else DEFAULT_FIELDS
    constants = tuple((n, v, h, _FILLED.get(n)) for n, (v, h) in CONSTANTS.items() if n not in lacking)
    return filled, tuple(n for n in filled if n not in _STATED), constants


def resolve_defaults(state: ResolutionState, gpu: GpuProfile | None, problem: str | None) -> None:
    """Fill DEFAULT_FIELDS (0.5.23) the release has; `problem` is why the launch is outside
    the modelled flags (hardware_flags), then what those flags might change is Unknown."""
    if not state.traits.gpu_resolution:
        return
    values, asked = state.values, state.asked
    lacking = _lacking(state.checked_version)
    filled, unmodelled, constants = _plan(state.checked_version)
    for name, value in state.config.values_of(filled).items():
        if name not in values:
            values[name] = asked[name] = value
    state.set_unknown(
        "random_seed", "SGLang draws a random seed at each start unless --random-seed is given"
    ) if state.get("random_seed") is None else None
    draft_quant = state.get("speculative_draft_model_quantization")
    if draft_quant is None or draft_quant == "unquant":
        quant = state.config.value("quantization")
        quant = None if quant == "unquant" or draft_quant == "unquant" else quant
        if state.config.known("quantization") and draft_quant is None:
            state.set(
                "speculative_draft_model_quantization",
                quant,
                "the draft is quantized like the target unless --speculative-draft-model-quantization says",
                "_handle_missing_default_values",
            )
        elif draft_quant == "unquant":
            state.set(
                "speculative_draft_model_quantization",
                None,
                "unquant means no quantization",
                "_handle_missing_default_values",
            )
    model = state.get("model_path")
    for name in ("tokenizer_path", "served_model_name"):
        if state.get(name) is None:
            state.set(name, model, "defaults to --model-path", "_handle_missing_default_values")
    if (
        gpu is not None
        and (gpu.sm or 0) // 10 == 10
        and state.target_architecture in FUSION_ARCHITECTURES
        and state.traits.deepseek_blackwell_mla  # 0.5.3.post1 and older: no such adjustments
    ):
        from speclint.sglang.resolve import deepseek_blackwell

        why = (
            deepseek_blackwell.not_modelled(state)
            if not deepseek_blackwell.applies(state, gpu)
            else problem or deepseek_blackwell.blackwell_problem(state)
        )
        for name in ("quantization", "moe_runner_backend", "disable_shared_experts_fusion"):
            if why is not None:
                state.set_unknown(name, why)
    if problem is None and state.target_architecture not in BOUNDARY_REDUCTION:
        problem = (
            "depends on the target model, whose config.json is not on disk"
            if state.target_architecture is None
            else f"SGLang {state.checked_version}'s defaults for {state.target_architecture} are not modelled"
        )
    if problem is not None:
        # `state.set_unknown(name, problem)`'s value, one for every field (an Unknown is never
        # changed once made: hardware.py's `_gpu_free_parts` shares one the same way)
        unknown = Unknown(problem)
        given = (
            state.config.given_fields()
        )  # (`config.given`, a set test: every given field is the release's)
        from speclint.sglang.resolve.constants_beside import clear_beside, constant_beside

        beside, causes = constant_beside(state, CONSTANTS, BOUNDARY_REDUCTION, lacking)
        worked = (
            "enable_dp_lm_head" in filled
            and state.target_architecture in BOUNDARY_REDUCTION
            and clear_beside(state, "enable_dp_lm_head")
        )
        if worked:  # (its influencers, read from the release, are modelled fields)
            _dp_lm_head(state)
        for name in unmodelled:
            if name in beside or (worked if name == "enable_dp_lm_head" else name in given):
                continue
            values[name] = Unknown(causes[name]) if name in causes else unknown
        for name, value, handler, _filling in constants:
            if name in beside and (values.get(name) is None or values.get(name) == "auto"):
                state.set(name, value, f"{_RESOLVED}: {beside[name]}", handler)
        return
    _feature_transport(state)
    if "flashinfer_allreduce_fusion_backend" in lacking:
        import speclint.sglang.resolve.allreduce_flag as allreduce_flag

        allreduce_flag.fusion_flag(state, gpu)
    adjustments = state.adjustments
    for name, value, handler, filling in constants:
        current = values.get(name)
        if current is None and filling is not None:  # what `state.set` does, not worked out again
            values[name] = value
            adjustments.append(filling)
        elif current is None or (
            current == "auto"
            and name in ("load_balance_method", "encoder_transfer_backend", "boundary_reduction")
        ):
            state.set(name, value, _RESOLVED, handler)
    _dp_lm_head(state)
    _moe_runner(state, gpu)
    if "flashinfer_allreduce_fusion_backend" not in lacking:
        _allreduce_fusion(state, gpu)
    if "boundary_reduction" not in lacking:
        _boundary_reduction(state)


def _feature_transport(state: ResolutionState) -> None:
    """An unset --mm-feature-transport: the release's own value where it is read and differs
    from CONSTANTS' (0.5.17 picks cuda_ipc on one CUDA node; gpu_resolution.py)."""
    logic = state.gpu_logic
    if logic is None or not logic.mm_feature_transport or state.get("mm_feature_transport") is not None:
        return
    import speclint.sglang.resolve.hardware_flags as hardware_flags

    nodes = state.get("nnodes")
    if not isinstance(nodes, int):
        return
    kind = "multimodal" if state.target_architecture in hardware_flags.VLM_ARCHITECTURES else "text"
    key = kind + ("_nodes" if nodes > 1 else "")
    value = dict(logic.mm_feature_transport).get(key)
    if value is not None and value != CONSTANTS["mm_feature_transport"][0]:
        where = "one CUDA node" if nodes == 1 else "several CUDA nodes"
        state.set(
            "mm_feature_transport",
            value,
            f"SGLang {state.checked_version}'s default on {where}",
            "_handle_multimodal_feature_transport",
        )


def _boundary_reduction(state: ResolutionState) -> None:
    """`resolve_boundary_reduction`: auto is the target's default; a separate draft's own."""
    handler = "resolve_boundary_reduction"
    if state.get("boundary_reduction") not in (None, "auto"):
        value = state.get("boundary_reduction")
        state.set("speculative_boundary_reduction", value, "follows --boundary-reduction", handler)
        return
    architecture = state.target_architecture
    assert architecture is not None  # resolve_defaults stopped for an unmodelled target
    value = BOUNDARY_REDUCTION[architecture]
    state.set("boundary_reduction", value, f"the default for {state.target_architecture}", handler)
    draft = state.asked.get("speculative_draft_model_path")
    if (
        state.asked.get("speculative_algorithm") is not None
        and draft is not None
        and draft != state.get("model_path")
    ):
        # `model_boundary_reduction` of the draft's own config (`get_config(draft_path)`)
        config = state.draft_config
        arch = None if config is None else config.architecture
        own = None if arch is None else BOUNDARY_REDUCTION.get(arch)
        if own is None:
            state.set_unknown(
                "speculative_boundary_reduction",
                "the draft model's own default (read from its config.json) is not modelled"
                if config is not None
                else "the draft model's own default: its config.json is not on disk",
            )
        else:
            state.set(
                "speculative_boundary_reduction",
                own,
                f"the default for the draft's {arch}",
                handler,
            )
    else:
        state.set("speculative_boundary_reduction", value, "the target's", handler)


def _dp_lm_head(state: ResolutionState) -> None:
    """`_data_parallelism_defaults` (0.5.4's `_handle_data_parallelism`: `if self.dp_size == 1:
    ... self.enable_dp_lm_head = False`): one DP rank (replicas × attention-DP groups) means no
    DP LM head; otherwise the value as given. Oracle (record.py --generator wide, seeds 22002
    and 22003 on 0.5.4-0.5.13, 0.5.16, 0.5.22 and 0.5.23): False on every accepted launch
    without the flag, with --dp-size 1 or 2."""
    attn, dp = state.get("attn_dp_size"), state.get("dp_size")
    if attn is None and not state.config.knows("attn_dp_size"):
        attn = 1  # a release without --attn-dp-size (0.5.21 and older): the DP ranks are --dp-size's
    if not (isinstance(attn, int) and isinstance(dp, int)):
        state.set_unknown("enable_dp_lm_head", "the data-parallel sizes are not readable")
    elif attn * dp == 1:
        state.set(
            "enable_dp_lm_head", False, "one data-parallel rank: no DP LM head", "_data_parallelism_defaults"
        )
    elif state.get("enable_dp_lm_head") is None:
        state.set_unknown("enable_dp_lm_head", "with several data-parallel ranks it is not modelled")


def _moe_runner(state: ResolutionState, gpu: GpuProfile | None) -> None:
    if state.get("speculative_moe_runner_backend") is not None:
        return
    if gpu is None and state.target_architecture in FUSION_ARCHITECTURES:
        state.set_unknown(
            "speculative_moe_runner_backend",
            "depends on the GPU: pass --gpu (DeepSeek-family MoE runners change on Blackwell)",
        )
        return
    if (
        gpu is not None
        and (gpu.sm or 0) // 10 == 10
        and state.target_architecture in FUSION_ARCHITECTURES
        and state.traits.deepseek_blackwell_mla
    ):
        from speclint.sglang.resolve import deepseek_blackwell

        if deepseek_blackwell.applies(state, gpu) and deepseek_blackwell.blackwell_problem(state) is None:
            return  # hardware.py sets it after the MoE runner
        state.set_unknown(
            "speculative_moe_runner_backend",
            "DeepSeek's MoE runner on "
            "Blackwell (_deepseek_moe_quant_resolution) is not modelled"
            + ("" if gpu is not None else "; depends on the GPU: pass --gpu"),
        )
        return
    runner = state.config.value("moe_runner_backend", "auto")
    logic = state.gpu_logic
    avoided = logic is not None and runner in logic.draft_moe_auto  # 0.5.11
    why = None if avoided else runner_picked_for_quantization(state, runner)
    if why is not None:
        state.set_unknown("speculative_moe_runner_backend", why)
        return
    state.set(
        "speculative_moe_runner_backend",
        "auto" if avoided else runner,
        f"the draft does not take the target's {runner} MoE runner"
        if avoided
        else "the draft's MoE runner follows the target's",
        "_handle_speculative_decoding" if avoided else "_speculative_moe_runner_default",
    )


def _allreduce_fusion(state: ResolutionState, gpu: GpuProfile | None) -> None:
    """`_flashinfer_allreduce_fusion_auto_enable` for the modelled architectures."""
    if state.get("flashinfer_allreduce_fusion_backend") is not None:
        return
    if state.target_architecture not in FUSION_ARCHITECTURES:
        state.values["flashinfer_allreduce_fusion_backend"] = None
        return
    if gpu is None:
        state.set_unknown("flashinfer_allreduce_fusion_backend", "depends on the GPU: pass --gpu")
        return
    tp, attn, nnodes = (state.get(n) for n in ("tp_size", "attn_dp_size", "nnodes"))
    if not (isinstance(tp, int) and isinstance(attn, int) and isinstance(nnodes, int)):  # known
        state.set_unknown("flashinfer_allreduce_fusion_backend", "the parallel sizes are not readable")
        return
    sm = gpu.sm or 0
    if (
        (sm == 90 or sm // 10 == 10)
        and tp > 1
        and attn == 1
        and (nnodes == 1 or sm // 10 == 10)
        and state.get("moe_a2a_backend") == "none"
    ):
        state.set(
            "flashinfer_allreduce_fusion_backend",
            "auto",
            "FlashInfer all-reduce fusion is enabled for DeepSeek on Hopper and Blackwell",
            "_flashinfer_allreduce_fusion_auto_enable",
        )


__all__ = ["DEFAULT_FIELDS", "resolve_defaults", "Unknown"]
