"""Per-release `check_server_args` / handler refusals keyed to one switch (two-batch overlap,
EPLB, LoRA without adapters, a prefill server's fake transfer backend), where a release differs from the release its `ReleaseTraits`
entry copies. Read in each release's server_args.py (0.5.19+: arg_groups/validation_hook.py,
parallel_hook.py, lora_hook.py) and confirmed by tools/oracle's recordings (session 6)."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def _for(releases: tuple[str, ...], **fields: Any) -> dict[str, dict[str, Any]]:
    return {release: dict(fields) for release in releases}


CHECK_FACTS: dict[str, dict[str, Any]] = {
    # no --enable-eplb check, no LoRA initialisation check
    **_for(
        ("0.4.0", "0.4.1", "0.4.6", "0.4.6.post5", "0.4.7"), eplb_check="", lora_needs_rank_and_modules=False
    ),
    # `assert self.enable_ep_moe or self.enable_deepep_moe`
    **_for(("0.4.9.post6", "0.4.10"), eplb_check="ep_moe_flags"),
    # `assert self.ep_size > 1`
    "0.5.1.post3": dict(eplb_check="ep"),
    # "When enabling two batch overlap, moe_a2a_backend cannot be 'none'."
    **_for(("0.5.7", "0.5.8.post1", "0.5.9"), tbo_check="a2a"),
    # and "Prefill server does not support 'fake' as the transfer backend"
    "0.5.10.post1": dict(tbo_check="a2a", prefill_refuses_fake_transfer=True),
    # "... without an EP a2a backend (moe_a2a_backend='none'), --enable-dp-attention is required"
    "0.5.15.post1": dict(tbo_check="a2a_or_dp_attention"),
    # and `if self.enable_eplb and self.ep_join_mode != "scale"`
    **_for(("0.5.16", "0.5.17"), tbo_check="a2a_or_dp_attention", eplb_check="ep_unless_scale"),
    **_for(("0.5.18", "0.5.19", "0.5.20", "0.5.21"), tbo_check="a2a_or_dp_attention"),
}
"""{release: {trait: value}}, applied after the entries are built (traits.py)."""
