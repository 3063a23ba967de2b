"""Refusals of feature switches (found missing by session 8's random launches against the
real releases): deterministic inference with an attention backend it does not support, the
DSA cache-layer split on a model without DSA, LMCache beside features it does not support
(`check_feature_refusals`, while resolving) and PD-Multiplexing's asserts in
`check_server_args` (`check_pdmux`). Each release's facts are `ReleaseTraits` fields
(traits_features.py), read in its source and confirmed with tools/oracle. Where the outcome
depends on what speclint cannot read (a model whose config.json is not on disk, a value
another handler may rewrite) the check says nothing."""

from __future__ import annotations

from speclint.sglang.resolve.refusals_moe import deterministic_inference
from speclint.sglang.resolve.state import Stop, given

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.resolve.state import ResolutionState

PLAIN_TEXT_ARCHITECTURES = frozenset({"LlamaForCausalLM", "Qwen3ForCausalLM", "DeepseekV3ForCausalLM"})
"""The text models whose default chunked prefill (never -1) and overlap scheduler (on) the
oracle recorded, release by release (tests/data/oracle: the fixtures' Llama 3.1, Qwen3 and
DeepSeek-V3 targets): only for these are a default chunked prefill size and overlap scheduler
read. Other models may get chunked prefill or the overlap scheduler turned off by a model
handler (embedding, multimodal, Mamba hybrids, diffusion LLMs): not read, nothing said."""


def check_feature_refusals(state: ResolutionState) -> None:
    _deterministic_inference(state)
    _dsa_cache_layer_split(state)
    _lmcache(state)
    _page_major_kv_layout(state)


def _deterministic_inference(state: ResolutionState) -> None:
    """`_handle_deterministic_inference` (0.5.3+; 0.5.18+ overrides.py
    `_deterministic_attention_backend`): an explicit --attention-backend outside
    `DETERMINISTIC_ATTENTION_BACKEND_CHOICES` is a ValueError; for a DeepSeek-family model
    (its config.json on disk) the backend must also be one it lists for them. Read for a
    backend given and kept, and in 0.5.4-0.5.11 for the one picked for the GPU (speclint
    picks it only when told the GPU)."""
    traits = state.traits
    if not traits.deterministic_backends or not deterministic_inference(state):
        return
    backend = given(state, "attention_backend")
    fields: tuple[str, ...] = ("attention_backend", "enable_deterministic_inference", "rl_on_policy_target")
    if backend is None and traits.deterministic_sees_picked_backend:
        backend = state.get("attention_backend")  # the GPU's default, picked first
        fields = ("enable_deterministic_inference", "rl_on_policy_target")
        if (
            backend is None
            and not traits.auto_attention_backend
            and state.target_architecture in PLAIN_TEXT_ARCHITECTURES
        ):
            backend = "None"  # 0.5.3: none picked, and None is not among the choices
    if not isinstance(backend, str) or state.get("attention_backend") not in (backend, None):
        return
    if given(state, "prefill_attention_backend") or given(state, "decode_attention_backend"):
        return  # may replace the attention backend before the check
    if backend not in traits.deterministic_backends:
        listed = f"Currently only {list(traits.deterministic_backends)} attention backends are supported"
        # 0.5.3 (no DeepSeek check yet) names no backend
        named = f", but you explicitly specified '{backend}'." if traits.deterministic_mla_message else "."
        raise Stop(
            "ValueError",
            f"{listed} for deterministic inference{named}",
            "_handle_deterministic_inference",
            fields,
        )
    if (
        state.target_architecture in traits.deterministic_mla_architectures
        and backend not in traits.deterministic_mla_backends
    ):
        raise Stop(
            "ValueError",
            f"{traits.deterministic_mla_message} But you're using {backend}.",
            "_handle_deterministic_inference",
            fields,
        )


def _dsa_cache_layer_split(state: ResolutionState) -> None:
    """`_handle_model_specific_adjustments` (0.5.16+; 0.5.19+ model_hook.py): the split needs
    `is_deepseek_dsa(hf_config)`, which is false for every config without `index_topk`."""
    if not state.traits.dsa_split_check or given(state, "enable_dsa_cache_layer_split") is not True:
        return
    config = state.target_config
    if config is None or "index_topk" in config.raw or "index_topk" in config.text:
        return
    raise Stop(
        "ValueError",
        "--enable-dsa-cache-layer-split is only supported for DSA (DeepSeek Sparse Attention) "
        f"models. ({state.target_architecture} has no DSA indexer: drop the flag for this model)",
        "_handle_model_specific_adjustments",
        ("enable_dsa_cache_layer_split",),
    )


_PAGE_MAJOR = {
    "triton_0_5_15": "--enable-page-major-kv-layout requires the Triton attention backend for the "
    "full-attention layers; got {}. Pass --attention-backend triton.",
    "triton": "--enable-page-major-kv-layout requires the Triton attention backend for the "
    "full-attention layers (unified-memory MLA also allows the paged MLA backends); got {}, "
    "allowed ['triton']. Pass a compatible --attention-backend.",
    "unified": "--enable-page-major-kv-layout without --enable-unified-memory is temporarily "
    "unsupported: the strided MHA K/V views were removed and the static-pool page-major layout "
    "awaits its per-layer-view reimplementation. Run with --enable-unified-memory, or drop "
    "--enable-page-major-kv-layout.",
}


def _page_major_kv_layout(state: ResolutionState) -> None:
    """`_handle_page_major_kv_layout` (0.5.15+; 0.5.19+ kv_cache_hook.py), without
    --enable-unified-memory: 0.5.19+ refuse it outright; 0.5.15-0.5.18 assert triton as the
    resolved attention backends, read here for an explicit --attention-backend kept as given
    (the backend picked for the GPU is not read)."""
    check = state.traits.page_major_check
    if not check or given(state, "enable_page_major_kv_layout") is not True:
        return
    if given(state, "enable_unified_memory") not in (None, False):
        return  # given (or dynamic): the unified pool's own rules
    fields: tuple[str, ...] = ("enable_page_major_kv_layout",)
    if check != "unified":
        backend = given(state, "attention_backend")
        if (
            not isinstance(backend, str)
            or backend == "triton"
            or state.get("attention_backend") != backend
            or given(state, "prefill_attention_backend")
            or given(state, "decode_attention_backend")
        ):
            return
        fields = ("attention_backend", "enable_page_major_kv_layout")
        message = _PAGE_MAJOR[check].format([backend])
    else:
        message = _PAGE_MAJOR[check]
    raise Stop("AssertionError", message, "_handle_page_major_kv_layout", fields)


_LMCACHE_ERRORS = (
    # (field, what refuses it, error type, message), in `handle_cache_compatibility`'s order
    (
        "enable_hierarchical_cache",
        "ValueError",
        "--enable-lmcache and --enable-hierarchical-cache are mutually exclusive",
    ),
    ("disable_radix_cache", "ValueError", "--enable-lmcache requires radix cache to be enabled"),
    (
        "speculative_algorithm",
        "NotImplementedError",
        "LMCacheUnifiedRadixCache does not yet support speculative decoding",
    ),
    ("attention_dp", "NotImplementedError", "LMCacheUnifiedRadixCache does not yet support DP attention"),
    (
        "dcp_size",
        "NotImplementedError",
        "--enable-lmcache with --dcp-size > 1 is not supported: LMCache has no DCP-aware index translation",
    ),
    (
        "enable_streaming_session",
        "NotImplementedError",
        "LMCacheUnifiedRadixCache does not yet support streaming sessions",
    ),
    (
        "disaggregation_mode",
        "NotImplementedError",
        "LMCacheUnifiedRadixCache currently supports colocated prefill/decode scheduling only",
    ),
)


def _lmcache(state: ResolutionState) -> None:
    """kv_cache_hook.py `handle_cache_compatibility` (0.5.21+, `ReleaseTraits.lmcache_check`):
    --enable-lmcache refuses hierarchical cache, no radix cache, speculative decoding,
    attention DP, decode context parallelism, streaming sessions and disaggregation; each
    read where the launch sets it (a handler turning radix cache off is not read)."""
    check = state.traits.lmcache_check
    if not check or given(state, "enable_lmcache") is not True:
        return
    for field, error, message in _LMCACHE_ERRORS:
        if _lmcache_refuses(state, field, check):
            name = "attn_dp_size" if field == "attention_dp" else field
            raise Stop(error, message, "handle_cache_compatibility", ("enable_lmcache", name))


def _lmcache_refuses(state: ResolutionState, field: str, check: str) -> bool:
    if field == "speculative_algorithm":
        algorithm = state.get("speculative_algorithm")
        return isinstance(algorithm, str) and algorithm.upper() not in ("", "NONE")
    if field == "attention_dp":
        if check == "attn_dp":
            attn = state.get("attn_dp_size")
            if isinstance(attn, int) and attn > 1:
                return True
        return state.get("enable_dp_attention") is True
    value = given(state, field)
    if field == "dcp_size":
        return isinstance(value, int) and value > 1
    if field == "disaggregation_mode":
        return isinstance(value, str) and value != "null"
    return value is True


def check_torch_compile_padding(state: ResolutionState) -> None:
    """`check_server_args` (0.5.12+; 0.5.19+ validation_hook.py): no handler changes either
    switch before it."""
    if (
        state.traits.torch_compile_padding_check
        and given(state, "disable_cuda_graph_padding") is True
        and given(state, "enable_torch_compile") is True
    ):
        raise Stop(
            "AssertionError",
            "--disable-cuda-graph-padding is incompatible with --enable-torch-compile. With "
            "padding disabled, every distinct batch size gets its own torch.compile + Triton "
            "autotune cycle (O(max_batch_size) compilations) instead of the small fixed set of "
            "padded bucket sizes, causing engine initialisation to stall for many minutes. "
            "Remove --disable-cuda-graph-padding or --enable-torch-compile.",
            "check_server_args",
            ("disable_cuda_graph_padding", "enable_torch_compile"),
        )


_PDMUX = "PD-Multiplexing"


def check_pdmux(state: ResolutionState) -> None:
    """`check_server_args` (0.5.3+; 0.5.19+ validation_hook.py), in its order: pp_size 1,
    chunked prefill off, no disaggregation, the overlap scheduler off. Chunked prefill and
    the overlap scheduler are read for a plain text model only (`PLAIN_TEXT_ARCHITECTURES`);
    an unknown value says nothing."""
    if not state.traits.pdmux_check or given(state, "enable_pdmux") is not True:
        return
    pp = state.get("pp_size")
    if isinstance(pp, int) and pp != 1:
        _pdmux_stop("is only supported with pipeline parallelism disabled (pp_size=1).", "pp_size")
    plain = state.target_architecture in PLAIN_TEXT_ARCHITECTURES and given(state, "enable_mis") is not True
    chunk = given(state, "chunked_prefill_size")  # not given: the GPU's default, never -1
    if plain and (chunk is None or (isinstance(chunk, int) and chunk != -1)):
        _pdmux_stop("is not compatible with chunked prefill.", "chunked_prefill_size")
    mode = given(state, "disaggregation_mode")
    if isinstance(mode, str) and mode != "null":
        _pdmux_stop("is not compatible with disaggregation mode.", "disaggregation_mode")
    if (
        plain
        and state.get("disable_overlap_schedule") is False
        and given(state, "dllm_algorithm") is None
        and given(state, "device") in (None, "cuda")
        and "SGLANG_EMBEDDINGS_SPARSE_HEAD" not in state.env
    ):
        _pdmux_stop("is not compatible with overlap schedule.", "disable_overlap_schedule")


def _pdmux_stop(what: str, field: str) -> None:
    hint = {
        "pp_size": "use --pp-size 1",
        "chunked_prefill_size": "add --chunked-prefill-size -1",
        "disaggregation_mode": "drop --disaggregation-mode",
        "disable_overlap_schedule": "add --disable-overlap-schedule",
    }[field]
    raise Stop(
        "AssertionError",
        f"{_PDMUX} {what} ({hint} with --enable-pdmux)",
        "check_server_args",
        ("enable_pdmux", field),
    )
