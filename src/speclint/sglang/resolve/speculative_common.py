"""What the speculative handlers of SGLang's resolution share (`speculative`,
`speculative_ngram`, `speculative_dflash`): the running-requests cap, the page size and
backends the tree checks read."""

from __future__ import annotations

from speclint.sglang.resolve.gpu_page_size import ATTENTION_BACKENDS, backend_page
from speclint.sglang.resolve.result import is_known

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.release_traits import ReleaseTraits
    from speclint.sglang.resolve.state import ResolutionState

MRR_LOG = (
    "Max running requests is reset to 48 for speculative decoding. You can override "
    "this by explicitly setting --max-running-requests."
)


def max_running_requests(state: ResolutionState, handler: str, logged: bool) -> None:
    if state.get("max_running_requests") is None:
        state.set(
            "max_running_requests",
            48,
            "speculative decoding caps running requests at 48 unless --max-running-requests is given",
            handler,
            MRR_LOG if logged else None,
        )


def as_int(value: object) -> int:
    """A known, set speculative count."""
    assert isinstance(value, int), value
    return value


def read_backend(state: ResolutionState, backend: object) -> bool:
    """Whether the tree checks can read `backend`: a name, or None where the release leaves
    it unset while resolving (`ReleaseTraits.auto_attention_backend` false: 0.5.2-0.5.3 compare
    None with "flashinfer" and refuse). Elsewhere None means SGLang picks it later."""
    return isinstance(backend, str) or (backend is None and not state.traits.auto_attention_backend)


def resolved_page_size(state: ResolutionState, traits: ReleaseTraits) -> object:
    """The page size SGLang's checks read (`resolved_view(...).page_size`): an int, or None
    when it depends on an attention backend SGLang picks for the GPU.

    0.5.23 (`_mla_backend_page_constraints`, `_page_size_default` in arg_groups/overrides.py,
    confirmed by tests/test_oracle_differential.py): flashmla forces 64; trtllm_mla keeps 32
    or 64, else 64; trtllm_mha keeps 16/32/64/128, else 64 (also when --page-size is not
    given); with none of them a missing --page-size becomes 1. Releases without that trait
    read --page-size as given."""
    page_size = state.get("page_size")
    if not traits.backend_page_sizes:
        # the release resolved the page size (a backend's own, else 1) before this check
        import speclint.sglang.resolve.attention as attention

        return attention.page_size_after_backends(state)
    if not is_known(page_size):
        return None
    backends = {n: state.get(n) for n in ATTENTION_BACKENDS}
    if any(not is_known(v) for v in backends.values()):
        return None
    if backends["attention_backend"] is None:
        return None  # auto-chosen per GPU (fa3 on Hopper, trtllm_mla/trtllm_mha on Blackwell)
    page_size = backend_page(page_size, backends)
    # fa4's page size depends on the GPU (sm100), intel_xpu's on the XPU; overrides.py
    # `_fa4_page_constraint` (0.5.18+) leaves EAGLE trees (topk > 1) alone whatever the GPU
    topk = state.get("speculative_eagle_topk")
    fa4_kept = traits.fa4_pages.startswith("mha_sm100_topk1") and isinstance(topk, int) and topk > 1
    if ("fa4" in backends.values() and not fa4_kept) or "intel_xpu" in backends.values():
        return None
    return 1 if page_size is None else page_size
