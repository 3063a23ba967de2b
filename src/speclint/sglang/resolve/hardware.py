"""SGLang's GPU-dependent resolution: chunked prefill, CUDA-graph batch sizes, the static
memory fraction, the attention backend and the page size, for the releases
speclint.sglang.gpu_resolution names (0.5.4.post1-0.5.23, each one's numbers
read from its wheel).

Read in 0.5.23's `arg_groups/memory_hook.py` (`handle_gpu_memory_settings`,
`reserve_for_graph_mb`), `cuda_graph_hook.py` (`parse_cuda_graph_config`,
`generate_*_cuda_graph_batch_sizes`), `model_override_base.py` (`get_default_attn_backend`,
`use_mla_backend`), `overrides.py` (`_attention_backend_default`,
`_mla_backend_page_constraints`, `_page_size_default`, `_sampling_backend_default`) and
`parallel_hook.py` (`handle_data_parallelism`); checked against the real resolution by
tests/test_oracle_wide.py. Outside what was read (other architectures, flags that feed
other hooks, ROCm) the fields are `Unknown`, each with why.
"""

from __future__ import annotations

from speclint.sglang.flags.launch_config import UNKNOWN_VALUE
from speclint.sglang.resolve.backend_gpu import backend_gpu_checks, kv4_check
from speclint.sglang.resolve.gpu_page_size import gpu_page_size
from speclint.sglang.resolve.hardware_flags import (
    BESIDE,
    MLA_ARCHITECTURES,
    MODELLED_ARCHITECTURES,
    attention_dp_groups,
    json_graph_views,
    modelled_flags_problem,
)
from speclint.sglang.resolve.prefill_names import release_names
from speclint.sglang.resolve.result import Unknown, is_known

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.resolve.gpu_profiles import GpuProfile
    from speclint.sglang.resolve.state import ResolutionState

GPU_FIELDS = (
    "chunked_prefill_size",
    "mem_fraction_static",
    "cuda_graph_max_bs",
    "cuda_graph_bs",
    "cuda_graph_backend_prefill",
    "cuda_graph_max_bs_prefill",
    "cuda_graph_bs_prefill",
    "attention_backend",
    "page_size",
    "sampling_backend",
    "schedule_conservativeness",
)
"""The effective fields this module predicts. `cuda_graph_*` name the parts of SGLang's
`cuda_graph_config` (decode unless the name says prefill)."""

NO_GPU = "depends on the GPU: pass --gpu"


def resolve_hardware(state: ResolutionState, gpu: GpuProfile | None) -> None:
    """Set every GPU_FIELDS value: SGLang's, or Unknown with why; before `cuda_graph_config`
    the prefill ones under the release's own names (prefill_names.py)."""
    _resolve_hardware(state, gpu)
    release_names(state)  # where read: 0.5.13.post1 and older


def _resolve_hardware(state: ResolutionState, gpu: GpuProfile | None) -> None:
    values, asked, config = state.values, state.asked, state.config
    known = config.known_values  # (every word read: each field's value without a call, None if none)
    for name in GPU_FIELDS:
        if name not in values:
            if known is not None:
                value = known.get(name)
                if value is UNKNOWN_VALUE:
                    value = Unknown("set from a value speclint cannot read")
            elif config.knows(name):
                setting = config.get(name)
                value = Unknown("set from a value speclint cannot read") if setting.dynamic else setting.value
            else:
                value = None
            values[name] = asked[name] = value
    if config.given("cuda_graph_config"):  # (its JSON's prefill backend: over the flag's)
        json_graph_views(state)
    problem = modelled_flags_problem(state.config) if state.traits.gpu_resolution else None
    logic = state.gpu_logic
    if (
        problem is None
        and logic is not None
        and (logic.multimodal_piecewise or logic.prefill_default != "breakable")
    ):
        import speclint.sglang.resolve.hardware_memory as hardware_memory

        problem = hardware_memory.piecewise_problem(state)
    reason = _why_not(state, gpu, problem)
    import speclint.sglang.resolve.defaults as defaults  # (a module: no failed lookup each call)

    defaults.resolve_defaults(state, gpu, problem)
    if reason is not None:
        backend_reason = reason
        if state.get("enable_deterministic_inference") is True or any(map(state.config.given, BESIDE)):
            backend_reason = _backend_beside(state, gpu) or reason  # the one field they leave readable
        if (
            not state.traits.gpu_resolution
            or not state.traits.auto_attention_backend
            or (
                # a flag outside the model, or an MHA architecture the release does not name: the
                # pick auto_backend.py models (not 0.5.23's, hardware.py's)
                (problem is not None or _unnamed_mha(state))
                and state.traits.auto_backend_choice not in ("", "given_topk_or_dflash")
            )
        ):
            import speclint.sglang.resolve.auto_backend as auto_backend

            auto_backend.choose_backend(state, gpu)
        elif gpu is not None and state.target_architecture in MLA_ARCHITECTURES:
            from speclint.sglang.resolve import deepseek_blackwell

            deepseek_blackwell.unquant_attention(state, gpu, reason)
        if not state.config.uncertain:
            backend_gpu_checks(state, gpu)  # the backends given: no model hook changes them
        # in every release that picks the backend while resolving (0.5.4+, server_args.py)
        if (state.traits.gpu_resolution or state.traits.auto_backend_choice) and state.config.known(
            "kv_cache_dtype"
        ):
            _fa3_fp8_fallback(state)
        kv4_check(state)
        if state.config.given("moe_a2a_backend"):  # (its module imported only then)
            from speclint.sglang.resolve.a2a_decode_graph import decode_max_bs_beside

            decode_max_bs_beside(state, gpu)
        if problem is not None and gpu is not None:  # (flags speclint does not model: read per release)
            from speclint.sglang.resolve.beside_reads import sampling_beside

            sampling_beside(state, gpu)
        _gpu_free_parts(state, reason, backend_reason)
        return
    from speclint.sglang.resolve import deepseek_blackwell

    assert gpu is not None and logic is not None  # `_why_not` gives a reason otherwise
    blackwell_deepseek = deepseek_blackwell.applies(state, gpu)
    from speclint.sglang.resolve.hardware_memory import memory_settings

    memory_settings(state, gpu)
    if blackwell_deepseek:  # `handle_model_specific_adjustments`
        deepseek_blackwell.attention_override(state)
        deepseek_blackwell.moe_overrides(state)
    _sampling_backend(state)
    if state.traits.auto_attention_backend:  # 0.5.4 and older leave it to the model runner
        _attention_backend(state, gpu)
    gpu_page_size(state, gpu)
    backend_gpu_checks(state, gpu)
    _fa3_fp8_fallback(state)
    kv4_check(state)  # on the backend picked for the GPU (0.5.15-0.5.18 list FP4 KV dtypes)
    if state.target_architecture == deepseek_blackwell.ARCH and logic.trtllm_mla_prefill_off:
        deepseek_blackwell.prefill_graph_override(state)  # on any GPU (trtllm_mla given)
    from speclint.sglang.resolve.dp_attention_split import split_for_dp_attention  # (a GPU known)

    split_for_dp_attention(state)
    if "aiter" in (
        state.get(n) for n in ("attention_backend", "prefill_attention_backend", "decode_attention_backend")
    ):
        state.set_unknown("mem_fraction_static", AITER_MEMORY)


def _unnamed_mha(state: ResolutionState) -> bool:
    """A target outside MODELLED_ARCHITECTURES that gets the MHA pick by its attention kind
    alone (`auto_backend._as_modelled`: no comparison of the release's resolution names it;
    found by refusals4's oracle runs of a MistralForCausalLM config on 0.5.10-0.5.21): the
    backend is picked as for any MHA model, the rest of the GPU resolution stays unknown."""
    if state.target_architecture in MODELLED_ARCHITECTURES or state.target_architecture is None:
        return False
    from speclint.sglang.resolve.auto_backend import MHA_FA3_DEFAULT, _as_modelled

    return _as_modelled(state) == MHA_FA3_DEFAULT[0]


AITER_MEMORY = (  # found by session 6's random launches against the oracle
    "the aiter attention backend scales it by 0.85 for a context above 8192 tokens "
    "(attention_hook.py), which speclint does not model"
)


def _why_not(state: ResolutionState, gpu: GpuProfile | None, problem: str | None) -> str | None:
    """Why the GPU-dependent fields cannot be predicted (None: they can); `problem` is
    `modelled_flags_problem`'s answer, worked out once for this and `resolve_defaults`."""
    if not state.traits.gpu_resolution:
        return f"GPU-dependent resolution is unverified for SGLang {state.checked_version}"
    if problem:
        return problem
    if gpu is None:
        return NO_GPU
    if gpu.vendor != "nvidia":
        return (
            f"the ROCm resolution (handle_amd_specifics, aiter) for {gpu.name} is "
            f"unverified for SGLang {state.checked_version}"
        )
    device = state.get("device")
    if device != "cuda":
        return f"--device {device} is not modelled"
    arch = state.target_architecture
    if arch is None:
        return "depends on the target model, whose config.json is not on disk"
    if arch not in MODELLED_ARCHITECTURES:
        return f"SGLang {state.checked_version}'s adjustments for {arch} are not modelled"
    if arch in MLA_ARCHITECTURES and (gpu.sm or 0) // 10 == 10 and state.traits.deepseek_blackwell_mla:
        from speclint.sglang.resolve import deepseek_blackwell

        if not deepseek_blackwell.applies(state, gpu):
            return deepseek_blackwell.not_modelled(state)
        return deepseek_blackwell.blackwell_problem(state)
    return None


def _gpu_free_parts(state: ResolutionState, reason: str, backend_reason: str) -> None:
    """Outside the modelled GPU/model/flags: the page size when an explicit backend fixes it
    (`_mla_backend_page_constraints` on the page size given, else 1: what the speculative
    checks read too), every other field it does not fix Unknown (the attention backend and page
    size with `backend_reason`: what keeps the backend pick unknown beside a BESIDE flag)."""
    backend = state.get("attention_backend")
    fixed_page = (
        state.traits.gpu_resolution
        and isinstance(backend, str)
        and backend not in ("fa4", "intel_xpu", "aiter")
        and all(
            is_known(state.get(n))
            for n in (
                "page_size",
                "decode_attention_backend",
                "prefill_attention_backend",
                "speculative_draft_attention_backend",
            )
        )
    )
    if fixed_page:
        gpu_page_size(state, None)
    attn = attention_dp_groups(state)
    # `state.set_unknown(name, reason)`'s value, made once for the ten-odd fields left unset
    # here (an Unknown is never changed once made): not one Unknown a field of every launch
    unset: Unknown | None = None
    traits, values = state.traits, state.values
    gpu_resolution = traits.gpu_resolution
    if not gpu_resolution:  # (releases before it: imported only for them)
        from speclint.sglang.resolve.given_sizes import resolve_gpu_free
    picks_backend = gpu_resolution and traits.auto_attention_backend
    for name in GPU_FIELDS:
        if not picks_backend and name in ("page_size", "attention_backend"):
            continue  # attention.py resolves them per release (recorded by tools/oracle)
        if not gpu_resolution and resolve_gpu_free(state, name, reason):
            continue  # a field the GPU does not change there (given_sizes.py)
        if values.get(name) is None:
            if name in ("page_size", "attention_backend") and backend_reason != reason:
                values[name] = Unknown(backend_reason)
                continue
            values[name] = unset = unset or Unknown(reason)
        elif name in ("chunked_prefill_size", "schedule_conservativeness") and not (
            gpu_resolution and attn == 0
        ):
            # attention data parallelism changes both (in every release)
            state.set_unknown(
                name,
                f"{reason} (attention data parallelism changes it)" if gpu_resolution else reason,
            )
    if (
        state.traits.gpu_resolution
        and state.traits.auto_attention_backend  # 0.5.4: no backend picked, the page kept
        and not fixed_page
        and state.config.given("page_size")
        and is_known(state.get("page_size"))
    ):
        state.set_unknown(
            "page_size",
            f"{backend_reason} (the attention backend SGLang picks may change the page size)"
            if backend is None
            else backend_reason,
        )


def _sampling_backend(state: ResolutionState) -> None:
    if state.get("sampling_backend") is None:
        state.set(
            "sampling_backend",
            "flashinfer",
            "FlashInfer is available on CUDA GPUs",
            "_sampling_backend_default",
        )


def _attention_backend(state: ResolutionState, gpu: GpuProfile) -> None:
    """`_attention_backend_default` / `get_default_attn_backend` (no OOT platform); on
    Blackwell, MHA, as the release's recorded `auto_backend_choice` says before 0.5.7."""
    prefill = state.get("prefill_attention_backend")
    if prefill is not None and prefill == state.get("decode_attention_backend"):
        state.set(
            "attention_backend",
            prefill,
            "--prefill-attention-backend and --decode-attention-backend agree",
            "_attention_backend_default",
        )
        return
    if state.get("attention_backend") is not None:
        return
    sm = gpu.sm or 0
    hopper, sm100 = sm == 90, sm // 10 == 10
    topk, page = state.asked.get("speculative_eagle_topk"), state.config.value("page_size")
    tree_free = topk is None or (topk == 1 and page in (1, None))
    algorithm, rule = state.asked.get("speculative_algorithm"), state.traits.auto_backend_choice
    # `_forces_eagle_topk_one`: DFLASH's topk is set later, by `_handle_dflash`
    forced_topk_one = (
        state.traits.auto_backend_choice == "given_topk_or_dflash" and str(algorithm).upper() == "DFLASH"
    )
    from speclint.sglang.resolve.hardware_memory import is_mla

    if not is_mla(state):
        from speclint.sglang.resolve.auto_backend import MHA_NOT_FA3_DEFAULT, fa3_listed

        if hopper and tree_free and fa3_listed(state):
            backend, why = "fa3", "FA3 on Hopper for MHA models"
        elif hopper and tree_free:
            backend, why = "flashinfer", f"FlashInfer on Hopper for {MHA_NOT_FA3_DEFAULT}"
        elif (
            sm100
            and tree_free
            and rule != "flashinfer"  # 0.5.6: never; 0.5.6.post1-0.5.6.post2: no topk needed (recorded)
            and (rule == "tree_free" or algorithm is None or topk is not None or forced_topk_one)
        ):
            backend, why = "trtllm_mha", "TensorRT-LLM MHA on Blackwell (SM100)"
        else:
            backend, why = "flashinfer", "FlashInfer on this GPU"
    elif hopper:
        backend, why = "fa3", "FA3 on Hopper for MLA models"
    elif sm100:
        backend, why = "flashinfer", "FlashInfer on Blackwell for MLA models"
    else:
        backend, why = "triton", "Triton for MLA models on this GPU"
    state.set(
        "attention_backend",
        backend,
        f"SGLang's default: {why}",
        "_attention_backend_default",
        f"Attention backend not specified. Use {backend} backend by default.",
        "info",
    )


def _fa3_fp8_fallback(state: ResolutionState) -> None:
    """`_attention_backend_fa3_fp8_fallback`: FA3 with an fp8_e5m2 KV cache runs Triton, where
    the release does it while resolving (0.5.4.post1+; 0.5.4 and older: when the model loads,
    tools/gen_sglang_server_checks.py `fa3_e5m2_fallback`)."""
    if state.get("attention_backend") == "fa3" and state.config.value("kv_cache_dtype") == "fp8_e5m2":
        from speclint.sglang.resolve.chunked_page import server_check

        if server_check(state.checked_version, "fa3_e5m2_fallback") != "resolution":
            return
        state.set(
            "attention_backend",
            "triton",
            "FlashAttention3 supports only fp8_e4m3 for an FP8 KV cache",
            "_attention_backend_fa3_fp8_fallback",
            "FlashAttention3 only supports fp8_e4m3 if using FP8; Setting attention backend to triton.",
        )


__all__ = ["GPU_FIELDS", "NO_GPU", "resolve_hardware", "Unknown"]


def _deterministic(state: ResolutionState) -> bool:
    """--enable-deterministic-inference given, or turned on by --rl-on-policy-target."""
    return (
        state.config.given("enable_deterministic_inference")
        or state.get("enable_deterministic_inference") is True
    )


def _backend_beside(state: ResolutionState, gpu: GpuProfile | None) -> str | None:
    """With a flag of `hardware_flags.BESIDE` (which leave the GPU-dependent fields unknown):
    the deterministic fallback (`deterministic`), then the backend picked for the GPU where
    every other flag is modelled; else why not (None: not said here)."""
    from speclint.sglang.resolve.deterministic import resolve_deterministic_backend

    if (
        state.config.given("enable_deterministic_inference")
        or state.get("enable_deterministic_inference") is True
    ):
        resolve_deterministic_backend(state, gpu)
    if not state.traits.gpu_resolution or gpu is None or state.get("attention_backend") is not None:
        return None
    from speclint.sglang.resolve import deepseek_blackwell
    from speclint.sglang.resolve.beside_reads import beside_for  # (BESIDE as read per release)

    why = _why_not(state, gpu, modelled_flags_problem(state.config, beside_for(state.checked_version)))
    if why is not None:
        deepseek_blackwell.unquant_attention(state, gpu, why)  # (whatever the quantization)
        return why
    if deepseek_blackwell.applies(state, gpu):
        deepseek_blackwell.attention_override(state)
    if state.traits.auto_attention_backend:
        _attention_backend(state, gpu)
    _fa3_fp8_fallback(state)
    return None
