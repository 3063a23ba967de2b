"""EAGLE in the first releases that have it (0.4.1.post4-0.4.4.post3, `ReleaseTraits.eagle_post_init`):
one block of `ServerArgs.__post_init__`, read in each release's server_args.py. The draft
parameters keep their dataclass defaults (no auto-choice), and no topk or draft-token rewrite
is made; confirmed by tools/oracle's recordings (tests/data/oracle/<release>.json.gz)."""

from __future__ import annotations

from speclint.sglang.resolve.state import Stop

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.release_traits import ReleaseTraits
    from speclint.sglang.resolve.state import ResolutionState

_HANDLER = "__post_init__"
_RADIX_OFF_LOG = (
    "The radix cache, chunked prefill, and overlap scheduler are disabled because of using eagle "
    "speculative decoding."
)
_CAP_LOG = "Overlap scheduler is disabled because of using eagle speculative decoding."


def resolve_eagle_post_init(state: ResolutionState, traits: ReleaseTraits) -> None:
    """'radix_off' (0.4.1.post4-0.4.3.post4): `if self.speculative_algorithm == "EAGLE":` turns the
    radix cache, chunked prefill and the overlap scheduler off (and pads no CUDA graph; one
    request per prefill), with no cap on running requests. 'cap_32' (0.4.3.post4-0.4.4.post3):
    caps running requests at 32 unless given and turns the overlap scheduler off;
    'cap_32_steps_below_draft' (0.4.3.post3): and asserts fewer steps than draft tokens."""
    if traits.eagle_post_init == "radix_off":
        reason = f"EAGLE speculative decoding in SGLang {state.version}"
        for name, value in (
            ("disable_radix_cache", True),
            ("disable_overlap_schedule", True),
            ("chunked_prefill_size", -1),
        ):
            if name in state.values:
                state.set(name, value, reason, _HANDLER, _RADIX_OFF_LOG, "info")
        return
    steps, draft = state.get("speculative_num_steps"), state.get("speculative_num_draft_tokens")
    if (
        traits.eagle_post_init == "cap_32_steps_below_draft"
        and isinstance(steps, int)
        and isinstance(draft, int)
        and steps >= draft
    ):
        raise Stop(
            "AssertionError",
            "assert self.speculative_num_steps < self.speculative_num_draft_tokens (bare "
            f"AssertionError, no message: {steps} steps, {draft} draft tokens; give more draft "
            "tokens than steps)",
            _HANDLER,
            ("speculative_num_steps", "speculative_num_draft_tokens"),
        )
    if state.get("max_running_requests") is None:
        state.set(
            "max_running_requests",
            32,
            "speculative decoding caps running requests at 32 unless --max-running-requests is given",
            _HANDLER,
        )
    state.set(
        "disable_overlap_schedule",
        True,
        "the overlap scheduler is not supported with EAGLE speculative decoding",
        _HANDLER,
        _CAP_LOG,
        "info",
    )
