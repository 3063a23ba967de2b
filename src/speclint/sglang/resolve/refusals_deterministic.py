"""Refusals that follow from deterministic inference's attention backend fallback (0.5.12+,
deterministic.py; facts in traits_deterministic.py, read by tools/gen_deterministic_facts.py,
confirmed with tools/oracle on 0.5.12.post1-0.5.23): DeepSeek-V3 on Blackwell, whose model
hook picks trtllm_mla before the fallback, which then refuses it as if given; and
--enable-mis, whose assert (`_handle_multi_item_scoring`, after the fallback) reads fa3 on
Hopper. Only where resolution set the backend (deterministic.py): otherwise nothing."""

from __future__ import annotations

from speclint.sglang.resolve.refusals_moe import deterministic_inference
from speclint.sglang.resolve.state import Stop, given

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.resolve.state import ResolutionState


HANDLER = "_handle_deterministic_inference"
MODEL_HOOK = "_handle_model_specific_adjustments"
MODEL_HOOK_BACKEND = "trtllm_mla"
"""What `_handle_model_specific_adjustments` picks for DeepSeek-V3 on Blackwell (SM100) with no
backend given, before deterministic inference's fallback (`ReleaseTraits.deepseek_blackwell_mla`),
which then checks it as if given (deterministic.py sets it)."""


def check_deterministic_refusals(state: ResolutionState) -> None:
    if not deterministic_inference(state) or given(state, "attention_backend"):
        return
    if state.gpu is None:
        return  # (deterministic.multi_item_scoring_by_gpu says what --gpu decides)
    picked_by = _picked_by(state)
    if picked_by is None:
        return
    _multi_item_scoring(state, picked_by)


def turned_on_by(state: ResolutionState) -> str:
    """The flag that turns deterministic inference on, as messages name it."""
    if given(state, "enable_deterministic_inference") is True:
        return "--enable-deterministic-inference"
    return "--rl-on-policy-target (which turns on deterministic inference)"


def _picked_by(state: ResolutionState) -> str | None:
    """The handler that set the attention backend last (None: not set while resolving)."""
    handlers = [a.handler for a in state.adjustments if a.field == "attention_backend"]
    return handlers[-1] if handlers and handlers[-1] in (HANDLER, MODEL_HOOK) else None


def check_model_hook_backend(state: ResolutionState) -> None:
    """The fallback's check of a backend already set (`elif attention_backend not in
    DETERMINISTIC_ATTENTION_BACKEND_CHOICES`), on the model hook's trtllm_mla: raised where
    SGLang raises it, before the speculative and later handlers (deterministic.py calls it)."""
    from speclint.sglang.traits_deterministic import DETERMINISTIC_FALLBACK

    choices = state.traits.deterministic_backends
    if (
        _picked_by(state) != MODEL_HOOK
        or state.get("attention_backend") != MODEL_HOOK_BACKEND
        or not DETERMINISTIC_FALLBACK.get(state.version)
        or not choices
        or MODEL_HOOK_BACKEND in choices
    ):
        return
    gpu = state.gpu.name if state.gpu is not None else "Blackwell"
    raise Stop(
        "ValueError",
        f"Currently only {list(choices)} attention backends are supported for deterministic "
        f"inference, but you explicitly specified '{MODEL_HOOK_BACKEND}'. (no --attention-backend: "
        f"SGLang {state.version} picks {MODEL_HOOK_BACKEND} for {state.target_architecture} on "
        f"{gpu} before deterministic inference checks it; add --attention-backend "
        f"{_deepseek_choice(state)})",
        HANDLER,
        ("enable_deterministic_inference", "rl_on_policy_target"),
    )


def _deepseek_choice(state: ResolutionState) -> str:
    """A backend deterministic inference takes for DeepSeek-family models."""
    backends = state.traits.deterministic_mla_backends
    return "triton" if "triton" in backends or not backends else backends[0]


def _multi_item_scoring(state: ResolutionState, picked_by: str) -> None:
    """`_handle_multi_item_scoring` (0.5.11+) on the fallback (`MIS_SEES_FALLBACK`: it runs
    after the fallback): the prefill and decode backends must both be flashinfer."""
    from speclint.sglang.traits_deterministic import MIS_SEES_FALLBACK

    if (
        picked_by != HANDLER
        or not state.traits.mis_needs_flashinfer
        or given(state, "enable_mis") is not True
        or state.version not in MIS_SEES_FALLBACK
    ):
        return
    backend = state.get("attention_backend")
    prefill = state.get("prefill_attention_backend") or backend
    decode = state.get("decode_attention_backend") or backend
    if not all(isinstance(b, str) for b in (prefill, decode)):
        return
    if prefill == "flashinfer" and decode == "flashinfer":
        return
    gpu = state.gpu.name if state.gpu is not None else "this GPU"
    raise Stop(
        "AssertionError",
        "Multi-item scoring requires flashinfer attention backend for custom attention mask "
        "support. Please set --attention-backend flashinfer when using --enable-mis. "
        f"Current backends: prefill={prefill}, decode={decode} ({turned_on_by(state)} "
        f"without --attention-backend: SGLang {state.version} falls back to {backend} on {gpu}; "
        "add --attention-backend flashinfer)",
        "_handle_multi_item_scoring",
        ("enable_mis", "enable_deterministic_inference", "rl_on_policy_target"),
    )
