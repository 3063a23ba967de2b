"""The attention backend and KV-cache page size SGLang resolves to.

Recorded from each release by tools/oracle (tests/data/oracle, tests/test_oracle_recordings.py):
- a missing --page-size becomes 1, except where a backend needs other pages: FlashMLA
  (--attention-backend or --decode-attention-backend) always 64; TensorRT-LLM MLA keeps 32
  or 64, else 64; TensorRT-LLM MHA (0.5.23) keeps 16/32/64/128, else 64;
- releases that choose the attention backend while resolving arguments
  (`ReleaseTraits.auto_attention_backend`) pick it for the GPU (fa3 on Hopper,
  flashinfer / trtllm_mha / trtllm_mla on Blackwell): auto_backend.py (hardware.py for
  0.5.22+) sets it when the GPU (`--gpu`) and the target are known; otherwise the backend,
  and a page size that backend may change, are unknown.
"""

from __future__ import annotations

from speclint.sglang.resolve.result import is_known

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.resolve.state import ResolutionState

PLAIN_BACKENDS = ("fa3", "flashinfer", "triton", "torch_native", "fa4")
"""Backends whose page size is what was asked (1 when nothing was)."""
_AUTO = (
    "SGLang picks the attention backend for the GPU (fa3 on Hopper; flashinfer, "
    "trtllm_mha or trtllm_mla on Blackwell)"
)


def page_size_after_backends(state: ResolutionState) -> object:
    """The page size the attention backends leave (an int), or None when it is unknown
    (unreadable, or up to a backend SGLang picks for the GPU)."""
    if "page_size" not in state.values:
        return None
    backends = _backends(state)
    page = state.get("page_size")
    if not is_known(page) or any(not is_known(v) for v in backends.values()):
        return None
    attention = backends.get("attention_backend")
    auto = attention is None and state.traits.auto_attention_backend
    new = _page_size(
        state,
        page,
        attention,
        backends.get("decode_attention_backend"),
        auto,
        backends.get("prefill_attention_backend"),
    )
    return None if new is _UNKNOWN else new


def _backends(state: ResolutionState) -> dict[str, object]:
    names = ("attention_backend", "decode_attention_backend", "prefill_attention_backend")
    return {n: state.get(n) for n in names if n in state.values}


def resolve_attention(state: ResolutionState) -> None:
    if state.traits.backend_when_installed and state.get("attention_backend") is None:
        state.set_unknown(
            "attention_backend",
            f"SGLang {state.version} picks flashinfer when FlashInfer is installed, else triton",
        )
    if "page_size" not in state.values:
        return
    backends = _backends(state)
    page = state.get("page_size")
    if page is None and not state.config.knows("page_size"):
        # a release without --page-size (0.4.0): no backend changes a page size of 1
        state.set("page_size", 1, "no --page-size: one token per page", "_handle_page_size")
        return
    if not is_known(page) or any(not is_known(v) for v in backends.values()):
        if is_known(page):  # an unknown page size keeps its own reason (hardware.py)
            state.set_unknown("page_size", "depends on a value speclint cannot read")
        return
    attention = backends.get("attention_backend")
    auto = attention is None and state.traits.auto_attention_backend
    if auto:
        state.set_unknown("attention_backend", _AUTO)
    if state.traits.enable_flashmla_pages and state.config.knows("enable_flashmla"):
        if not state.config.known("enable_flashmla"):
            state.set_unknown("page_size", "--enable-flashmla is not readable (it sets page size 64)")
            return
        if state.config.value("enable_flashmla") is True:
            if page != 64:
                state.set(
                    "page_size",
                    64,
                    "--enable-flashmla runs FlashMLA, which needs pages of 64 tokens",
                    "__post_init__",
                    "FlashMLA only supports a page_size of 64, change page_size to 64.",
                )
            return
    prefill = backends.get("prefill_attention_backend")
    new = _page_size(state, page, attention, backends.get("decode_attention_backend"), auto, prefill)
    if new is _UNKNOWN:
        state.set_unknown(
            "page_size",
            _AUTO
            if auto
            else _FA4_DEPENDS
            if _fa4_pages(state, attention, backends.get("decode_attention_backend"), prefill) is _UNKNOWN
            else f"speclint does not model the page size of this attention backend in SGLang {state.version}",
        )
    elif new != page:
        reason = (
            "no --page-size: one token per page"
            if page is None and new == 1
            else "the attention backend needs this page size"
        )
        logged = None
        if (
            new == 128
            and _fa4_pages(state, attention, backends.get("decode_attention_backend"), prefill) == 128
        ):
            reason = "the fa4 attention backend runs with page size 128 on this GPU and model"
            logged = (  # SGLang's warning, without the page size it names
                "FA4 backend only supports page size 128"
                + ("" if state.traits.fa4_pages == "prefill" else " for non-MLA model architectures")
            )
        state.set("page_size", new, reason, "_handle_page_size", logged)


_UNKNOWN = object()
_FA4_DEPENDS = (
    "fa4 sets page size 128 depending on the GPU (SM100: pass --gpu), the model's attention "
    "(not MLA) or the EAGLE topk (at most 1), which speclint does not know here"
)


def _page_size(
    state: ResolutionState,
    page: object,
    attention: object,
    decode: object,
    auto: bool,
    prefill: object = None,
) -> object:
    new = _backend_pages(state, page, attention, decode, auto, prefill)
    fa4 = _fa4_pages(state, attention, decode, prefill)
    return new if fa4 is None else fa4


def _backend_pages(
    state: ResolutionState,
    page: object,
    attention: object,
    decode: object,
    auto: bool,
    prefill: object,
) -> object:
    """The MLA / TensorRT-LLM backends' page sizes, chained in SGLang's order (flashmla,
    cutlass_mla, trtllm_mla, trtllm_mha: `_handle_attention_backend_compatibility`, 0.5.15+
    `_mla_backend_page_constraints`)."""
    traits = state.traits
    chosen = [b for b in (attention, decode) if b is not None]
    if "flashmla" in chosen:
        return 64
    cutlass = traits.cutlass_mla_pages
    plain: tuple[str, ...] = PLAIN_BACKENDS
    if (cutlass == "attention" and attention == "cutlass_mla") or (
        cutlass == "attention_or_decode" and "cutlass_mla" in chosen
    ):
        page, plain = 128, (*PLAIN_BACKENDS, "cutlass_mla")
    if attention == "trtllm_mla" or (decode == "trtllm_mla" and traits.backend_page_sizes):
        return page if page in (32, 64) else 64
    if "trtllm_mha" in chosen + [prefill] and traits.trtllm_mha_pages:
        return page if page in traits.trtllm_mha_pages else 64
    if any(b not in plain for b in chosen):
        return _UNKNOWN
    if auto:
        # the backend picked for a Blackwell GPU may need pages of 64 (32 or 64 kept)
        return page if page in traits.auto_backend_kept_pages else _UNKNOWN
    return 1 if page is None else page


def _fa4_pages(state: ResolutionState, attention: object, decode: object, prefill: object) -> object:
    """The page size fa4 forces after the other backends (`ReleaseTraits.fa4_pages`): 128
    (1 for DiffusionGemma, 0.5.22+), `_UNKNOWN` when it depends on what speclint does not
    know (the GPU without `--gpu`, the attention kind, the EAGLE topk), None: not fa4's."""
    rule = state.traits.fa4_pages
    if not rule or "fa4" not in ((attention, decode, prefill) if rule.startswith("mha_") else (prefill,)):
        return None
    conditions: list[bool | None] = []
    if rule != "prefill":
        conditions.append(_mha(state))
    if "sm100" in rule:
        gpu = state.gpu
        conditions.append(None if gpu is None else gpu.vendor == "nvidia" and (gpu.sm or 0) // 10 == 10)
    if "topk1" in rule:
        topk = state.get("speculative_eagle_topk")
        conditions.append(None if not is_known(topk) else not isinstance(topk, int) or topk <= 1)
    if False in conditions:
        return None
    if None in conditions:
        return _UNKNOWN
    if rule.endswith("_gemma") and state.target_architecture == "DiffusionGemmaForBlockDiffusion":
        return 1
    return 128


def _mha(state: ResolutionState) -> bool | None:
    """Not `use_mla_backend()`: an MLA architecture (hardware_memory.MLA_ARCHITECTURES) is MLA;
    a target config on disk without `kv_lora_rank` (MLA's latent rank) is not; else unknown."""
    from speclint.sglang.resolve.hardware_flags import MLA_ARCHITECTURES

    if state.target_architecture in MLA_ARCHITECTURES:
        return False
    target = state.target_config
    if target is None or state.target_architecture is None:
        return None
    raw = target.raw
    text = raw.get("text_config")
    configs = [raw, text] if isinstance(text, dict) else [raw]
    return None if any("kv_lora_rank" in c for c in configs) else True
