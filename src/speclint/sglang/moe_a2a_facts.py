"""The MoE all-to-all facts read per release into sglang_moe_defaults.json beside
`moe_defaults` (kept apart for its size): flashinfer_megamoe's checks after its model check
(tools/sglang_megamoe_dp.py) and pplx's attention-DP assert (tools/sglang_a2a_rewrites.py);
the --moe-a2a-backend values the resolution rewrites are `moe_readings.a2a_rewrites`."""

from __future__ import annotations

from speclint.core.records import dataclass
from speclint.sglang.moe_readings import reading as _reading


@dataclass(frozen=True, slots=True)
class MegamoeAttentionDp:
    """Beside --moe-a2a-backend flashinfer_megamoe (0.5.20+): the attention-DP assert (`enabled_by`
    "enable_dp_attention"/"attn_dp_enabled_of", `size` compared with tp_size), the runner's, SM100."""

    enabled_by: str
    size: str
    message: str
    runner_message: str | None
    sm100_message: str | None


def megamoe_attention_dp(version: str) -> MegamoeAttentionDp | None:
    """`MegamoeAttentionDp` read per release (0.5.20+); None when not read."""
    raw = _reading(version, "megamoe_architectures")
    read = raw.get("attention_dp") if isinstance(raw, dict) else {}
    if not isinstance(read, dict) or not read:
        return None
    runner, sm100 = (
        None if read.get(k) is None else str(read[k]) for k in ("runner_message", "sm100_message")
    )
    return MegamoeAttentionDp(str(read["enabled"]), str(read["size"]), str(read["message"]), runner, sm100)


def pplx_attention_dp(version: str) -> tuple[str, str, int, str, str] | None:
    """--moe-a2a-backend pplx's attention-DP assert (0.5.17+): (the switch it also asks,
    "enable_dp_attention" or "", the size field, its minimum, the message, where)."""
    raw = _reading(version, "pplx_attention_dp")
    if not isinstance(raw, dict):
        return None
    return str(raw["enabled"]), str(raw["size"]), int(raw["min"]), str(raw["message"]), str(raw["where"])
