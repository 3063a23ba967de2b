"""`--ep-join-mode scale`, which 0.5.23's `ep_scale_joiner_of` counts as attention DP: asked by
the all-to-all and MegaMoE refusals (a leaf: each of them imports it, none imports another)."""

from __future__ import annotations

from speclint.sglang.resolve.result import is_known
from speclint.sglang.resolve.state import given

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.resolve.state import ResolutionState


def ep_scale_joiner(state: ResolutionState) -> bool | None:
    """`ep_scale_joiner_of`: --ep-join-mode scale counts as attention DP (None: unknown)."""
    mode = given(state, "ep_join_mode")
    return None if not is_known(mode) else mode == "scale"
