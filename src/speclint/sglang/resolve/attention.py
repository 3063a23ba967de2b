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
    if "page_size" not in state.values:
        return
    backends = _backends(state)
    page = state.get("page_size")
    if not is_known(page) or any(not is_known(v) for v in backends.values()):
        if is_known(page):  # an unknown page size keeps its own reason (hardware.py)
            state.set_unknown("page_size", "depends on a value speclint cannot read")
        return
    attention = backends.get("attention_backend")
    auto = attention is None and state.traits.auto_attention_backend
    if auto:
        state.set_unknown("attention_backend", _AUTO)
    new = _page_size(
        state,
        page,
        attention,
        backends.get("decode_attention_backend"),
        auto,
        backends.get("prefill_attention_backend"),
    )
    if new is _UNKNOWN:
        state.set_unknown(
            "page_size",
            _AUTO
            if auto
            else f"speclint does not model the page size of this attention backend in SGLang {state.version}",
        )
    elif new != page:
        reason = (
            "no --page-size: one token per page"
            if page is None and new == 1
            else "the attention backend needs this page size"
        )
        state.set("page_size", new, reason, "_handle_page_size")


_UNKNOWN = object()


def _page_size(
    state: ResolutionState,
    page: object,
    attention: object,
    decode: object,
    auto: bool,
    prefill: object = None,
) -> object:
    traits = state.traits
    chosen = [b for b in (attention, decode) if b is not None]
    if "flashmla" in chosen:
        return 64
    if attention == "trtllm_mla" or (decode == "trtllm_mla" and traits.backend_page_sizes):
        return page if page in (32, 64) else 64
    if "trtllm_mha" in chosen + [prefill] and traits.trtllm_mha_pages:
        return page if page in traits.trtllm_mha_pages else 64
    if any(b not in PLAIN_BACKENDS for b in chosen):
        return _UNKNOWN
    if auto:
        # the backend picked for a Blackwell GPU may need pages of 64 (32 or 64 kept)
        return page if page in traits.auto_backend_kept_pages else _UNKNOWN
    return 1 if page is None else page
