"""The attention backends a release refuses for the GPU it runs on, in its order
(`_handle_attention_backend_compatibility`; 0.5.2x `_mla_kv_cache_dtype_checks` and
attention_hook.py), per release (`ReleaseTraits.trtllm_*`, `fa4_prefill_only`: read in each
release's server_args.py / arg_groups, checked against tools/oracle's recordings on an H100
and a B200). Only explicit backends are checked here: those SGLang picks itself are
GPU-dependent resolution (hardware.py)."""

from __future__ import annotations

from speclint.sglang.resolve.result import BACKEND_GPU
from speclint.sglang.resolve.state import Stop

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.resolve.gpu_profiles import GpuProfile
    from speclint.sglang.resolve.state import ResolutionState

_NAMES = ("attention_backend", "prefill_attention_backend", "decode_attention_backend")
_HANDLER = "_handle_attention_backend_compatibility"


def backend_gpu_checks(state: ResolutionState, gpu: GpuProfile | None) -> None:
    traits = state.traits
    attention, prefill, decode = (state.get(n) for n in _NAMES)
    given = tuple(filter(state.config.given, _NAMES)) or ("attention_backend",)
    if traits.fa4_prefill_only and "fa4" in (attention, decode):
        raise Stop(
            "ValueError",
            "FA4 backend is only supported for prefill. Please use "
            "`--prefill-attention-backend fa4` instead.",
            _HANDLER,
            given,
        )
    if gpu is None or gpu.vendor != "nvidia":
        return
    major, sm = (gpu.sm or 0) // 10, gpu.sm or 0
    if traits.trtllm_mla_majors and "trtllm_mla" in (attention, decode):
        if major not in traits.trtllm_mla_majors:
            archs = "SM100/SM12x" if 12 in traits.trtllm_mla_majors else "SM100"
            raise Stop(
                "ValueError",
                f"TRTLLM MLA backend is only supported on Blackwell GPUs "
                f"({archs}). Please use a different backend.",
                _HANDLER,
                given,
                BACKEND_GPU,
            )
        dtypes = traits.trtllm_mla_kv_dtypes
        if (
            dtypes
            and state.config.known("kv_cache_dtype")
            and state.config.value("kv_cache_dtype") not in dtypes
        ):
            listed = ", ".join(dtypes[:-1]) + ("," if len(dtypes) > 2 else "") + f" or {dtypes[-1]}"
            raise Stop(
                "ValueError",
                f"TensorRT-LLM MLA backend only supports kv-cache-dtype of {listed}.",
                _HANDLER,
                given + ("kv_cache_dtype",),
                BACKEND_GPU,
            )
    _trtllm_mha(
        state,
        traits.trtllm_mha_gpu_check,
        major,
        sm,
        given,
        (attention, prefill or attention, decode or attention),
    )


def _trtllm_mha(
    state: ResolutionState,
    check: str,
    major: int,
    sm: int,
    given: tuple[str, ...],
    backends: tuple[object, object, object],
) -> None:
    """'sm100': any trtllm_mha needs SM100 (0.5.1-0.5.9); 'prefill_sm100': prefill needs
    SM100, decode SM90/SM100/SM120 (0.5.10-0.5.18); 'hopper': both SM90/SM100/SM120, and no
    fp8_e4m3 KV cache for SM120 prefill (0.5.19+)."""
    attention, prefill, decode = backends
    if not check or "trtllm_mha" not in (attention, prefill, decode):
        return
    hopper_or_newer = sm in (90, 120) or major == 10
    if check == "sm100":
        if major != 10:
            raise Stop(
                "ValueError",
                "TRTLLM MHA backend is only supported on Blackwell GPUs "
                "(SM100). Please use a different backend.",
                _HANDLER,
                given,
                BACKEND_GPU,
            )
        return
    if prefill == "trtllm_mha" and check == "prefill_sm100" and major != 10:
        raise Stop(
            "ValueError",
            "TRTLLM MHA backend for prefill is only supported on Blackwell "
            "GPUs (SM100). Please use a different prefill backend.",
            _HANDLER,
            given,
            BACKEND_GPU,
        )
    if prefill == "trtllm_mha" and check == "hopper" and not hopper_or_newer:
        raise Stop(
            "ValueError",
            "TRTLLM MHA backend for prefill requires Hopper (SM90), "
            "Blackwell (SM100), or SM120 GPUs. Please use a different prefill backend.",
            _HANDLER,
            given,
            BACKEND_GPU,
        )
    if (
        prefill == "trtllm_mha"
        and check == "hopper"
        and sm == 120
        and state.config.value("kv_cache_dtype") == "fp8_e4m3"
    ):
        raise Stop(
            "ValueError",
            "TRTLLM FMHAv2 prefill on SM120 does not support fp8_e4m3 KV cache or skip-softmax.",
            _HANDLER,
            given + ("kv_cache_dtype",),
            BACKEND_GPU,
        )
    if decode == "trtllm_mha" and not hopper_or_newer:
        raise Stop(
            "ValueError",
            "TRTLLM MHA backend for decode is only supported on Hopper "
            "(SM90), Blackwell (SM100) and (SM120) GPUs. Please use a different decode "
            "backend.",
            _HANDLER,
            given,
            BACKEND_GPU,
        )
    if prefill == "trtllm_mha" and major != 10:
        _trtllm_mha_prefill_cp(state, given)


def _trtllm_mha_prefill_cp(state: ResolutionState, given: tuple[str, ...]) -> None:
    """0.5.19+: a trtllm_mha prefill backend off SM100 beside context-parallel prefill
    (`attn_cp_size > 1`; 0.5.19 also the switch `_handle_legacy_cp_arguments` sets from
    --enable-prefill-cp and a --cp-strategy, or --enable-prefill-context-parallel), read per
    release (`trtllm_mha_prefill_cp` of data/sglang_server_checks.json). Judged where
    attn_cp_size (and the switch) are known, for the architectures hardware_flags models."""
    from speclint.sglang.resolve.chunked_page import server_check
    from speclint.sglang.resolve.hardware_flags import MODELLED_ARCHITECTURES
    from speclint.sglang.resolve.state import given as given_value

    read = server_check(state.checked_version, "trtllm_mha_prefill_cp")
    if not isinstance(read, dict) or state.target_architecture not in MODELLED_ARCHITECTURES:
        return
    size = state.get("attn_cp_size") if "attn_cp_size" in state.values else given_value(state, "attn_cp_size")
    why: tuple[str, ...] = ()
    if isinstance(size, int) and not isinstance(size, bool) and size > 1:
        why = ("attn_cp_size",)
    elif read.get("switch") and _switch_on(state, str(read["switch"])):
        why = tuple(
            n for n in ("enable_prefill_context_parallel", "enable_prefill_cp") if state.config.given(n)
        )
    if why:
        raise Stop(
            "ValueError",
            str(read["message"]),
            str(read["where"]),
            given + why,
            BACKEND_GPU,
        )


def _switch_on(state: ResolutionState, switch: str) -> bool:
    """Whether 0.5.19's `cfg.<switch>` holds True at the check: given, or set by
    `_handle_legacy_cp_arguments` (--enable-prefill-cp with a --cp-strategy, the backend not
    dsa/dsv4). False where a value is unread (nothing is said then)."""
    from speclint.sglang.resolve.state import given as given_value

    if given_value(state, switch) is True:
        return True
    backend = state.get("attention_backend")
    return (
        given_value(state, "enable_prefill_cp") is True
        and isinstance(given_value(state, "cp_strategy"), str)
        and isinstance(backend, str)
        and backend not in ("dsa", "dsv4")
    )


_KV4_CHOICES = {
    "mla": ["cutlass_mla", "flashinfer", "trtllm_mla", "flashmla"],
    "mha": ["triton", "torch_native", "flex_attention", "trtllm_mha"],
}


def kv4_check(state: ResolutionState) -> None:
    """`_handle_kv4_compatibility` (0.5.7-0.5.18, `ReleaseTraits.kv4_dtypes`): an FP4 KV cache
    with one backend for prefill and decode needs a backend from the release's list, MLA's or
    MHA's by `use_mla_backend()` (`model_config_facts.attention_kind`, read per release: Kimi-K2.5
    is MHA in 0.5.7-0.5.8.post1). The FA4 prefill branch is not modelled (nothing is said)."""
    dtypes = state.traits.kv4_dtypes
    if (
        not dtypes
        or not state.config.known("kv_cache_dtype")
        or state.config.value("kv_cache_dtype") not in dtypes
        or state.get("device") != "cuda"
    ):
        return
    from speclint.sglang.model_config_facts import attention_kind

    kind = attention_kind(state.checked_version, state.target_architecture)
    attention, prefill, decode = (state.get(n) for n in _NAMES)
    prefill, decode = prefill or attention, decode or attention
    if kind is None or not isinstance(attention, str) or prefill != decode or prefill == "fa4":
        return
    choices = _KV4_CHOICES[kind]
    if attention not in choices:
        raise Stop(
            "AssertionError",
            f"KV4 {kind.upper()} expects attention_backend to be one of {choices}, but got {attention}"
            f" (--kv-cache-dtype {state.config.value('kv_cache_dtype')}: SGLang {state.checked_version} gives "
            f"{state.target_architecture} {kind.upper()} attention; pass --attention-backend "
            f"{' or '.join(choices)}, or another --kv-cache-dtype)",
            "_handle_kv4_compatibility",
            ("kv_cache_dtype", "attention_backend"),
        )
