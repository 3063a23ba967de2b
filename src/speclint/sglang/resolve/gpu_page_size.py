"""The page size in the GPU-dependent resolution (`hardware`): `_mla_backend_page_constraints`
and `_page_size_default` of 0.5.23's arg_groups/overrides.py."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.resolve.gpu_profiles import GpuProfile
    from speclint.sglang.resolve.state import ResolutionState


ATTENTION_BACKENDS = (
    "attention_backend",
    "decode_attention_backend",
    "prefill_attention_backend",
    "speculative_draft_attention_backend",
)
"""The backend fields `_mla_backend_page_constraints` reads."""


def backend_page(page: object, backends: dict[str, object]) -> object:
    """`_mla_backend_page_constraints`: the page size the attention backends (`backends`, by
    ATTENTION_BACKENDS) make of `page`: flashmla 64; trtllm_mla and cutedsl_mla keep 32 or
    64; trtllm_mha keeps 16-128; hpc_ops 64."""
    attention_decode = (backends["attention_backend"], backends["decode_attention_backend"])
    with_prefill = attention_decode + (backends["prefill_attention_backend"],)
    new = page
    if "flashmla" in attention_decode:
        new = 64
    if "trtllm_mla" in attention_decode and new not in (32, 64):
        new = 64
    if "cutedsl_mla" in with_prefill and new not in (32, 64):
        new = 64
    if "trtllm_mha" in backends.values() and new not in (16, 32, 64, 128):
        new = 64
    if "hpc_ops" in with_prefill:
        new = 64
    return new


def _page_constraints(state: ResolutionState) -> None:
    """`_mla_backend_page_constraints`, on the page size as given."""
    page = state.get("page_size")
    names = {n: state.get(n) for n in ATTENTION_BACKENDS}
    new = backend_page(page, names)
    if new != page:
        which = next(
            b
            for b in ("flashmla", "trtllm_mla", "cutedsl_mla", "trtllm_mha", "hpc_ops")
            if b in names.values()
        )
        state.set(
            "page_size",
            new,
            f"the {which} attention backend runs with page size {new}",
            "_mla_backend_page_constraints",
        )


def gpu_page_size(state: ResolutionState, gpu: GpuProfile | None) -> None:
    """The page size of the GPU resolution: the backends' constraints on the one given, else 1."""
    _page_constraints(state)
    if state.get("page_size") is None:
        state.set("page_size", 1, "SGLang's default page size on CUDA", "_page_size_default")
