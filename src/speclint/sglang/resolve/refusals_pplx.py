"""--moe-a2a-backend pplx's attention-DP assert in `_handle_a2a_moe` (0.5.17+): pplx-kernels'
AllToAll needs at least two DP groups. The test, its minimum and message are read per release
(`moe_a2a_facts.pplx_attention_dp`): 0.5.17-0.5.21 `enable_dp_attention and dp_size >= 2`,
0.5.22+ `attn_dp_size >= 2`. Judged where every term is known; the same branch's earlier
refusal (--deepep-mode normal) stops such a launch too."""

from __future__ import annotations

from speclint.sglang.resolve.state import Stop

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.resolve.state import ResolutionState


def check_pplx_attention_dp(state: ResolutionState) -> None:
    """Oracle (record.py --generator a2a, seed 16005, 0.5.18-0.5.23, fake H100/B200): pplx
    without attention DP, with --dp-size alone, refused; with --dp-size 8 --enable-dp-attention
    (0.5.22+: --attn-dp-size 8) past this assert."""
    if state.get("moe_a2a_backend") != "pplx":
        return
    from speclint.sglang.moe_a2a_facts import pplx_attention_dp

    read = pplx_attention_dp(state.checked_version)
    if read is None:
        return
    switch, field, least, message, where = read
    size = state.get(field)
    enabled = state.get(switch) if switch else True
    if not isinstance(size, int) or not isinstance(enabled, bool):
        return
    if enabled and size >= least:
        return
    now = f"--{field.replace('_', '-')} {size}" + ("" if enabled else " without --enable-dp-attention")
    fix = f"--dp-size {least} --enable-dp-attention" if switch else f"--{field.replace('_', '-')} {least}"
    raise Stop(
        "AssertionError",
        f"{message} (--moe-a2a-backend pplx with {now}; use {fix} or more, or pick another --moe-a2a-backend)",
        where,
        ("moe_a2a_backend", field, "enable_dp_attention"),
    )
