"""--enable-prefill-cp on an MLA target (DeepSeek-V3, Kimi-K2.5): SGLang's DeepSeek model
override sets MLA context parallelism up itself (0.5.23 `model_overrides/deepseek_v2.py`,
`if cfg.enable_prefill_cp and use_mla_backend(server_args):` declaring the attention-DP and
attention-CP sizes, --dp-size 1, the MoE all-to-all backend deepep, the expert-parallel size and
the dense-MoE TP size), which speclint does not model: those fields are unknown, with the cause,
rather than the values as given. Oracle (record.py --generator a2a_cp, seed 22005 on 0.5.21-0.5.23
and 22006 on 0.5.14, 0.5.17, 0.5.19 and 0.5.20, fake H100 and B200): DeepSeek-V3 with
--enable-prefill-cp resolved --moe-a2a-backend megamoe and none to deepep and ep_size 1 to the TP
size, and its MegaMoE token budget was not checked."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.resolve.state import ResolutionState

REWRITTEN = ("moe_a2a_backend", "ep_size", "attn_dp_size", "dp_size", "attn_cp_size", "moe_dense_tp_size")


def mark_mla_prefill_cp(state: ResolutionState) -> None:
    from speclint.sglang.resolve.hardware_flags import MLA_ARCHITECTURES

    switch = (
        state.config.value("enable_prefill_cp", False) if state.config.known("enable_prefill_cp") else None
    )
    if state.target_architecture not in MLA_ARCHITECTURES or switch is False:
        return
    reason = (
        f"--enable-prefill-cp on {state.target_architecture} (MLA attention): SGLang "
        f"{state.checked_version}'s DeepSeek model override sets MLA context parallelism up (the "
        "attention DP and CP sizes, the MoE all-to-all backend, the expert-parallel size), which "
        "speclint does not model"
    )
    for name in REWRITTEN:
        state.mark_unknown(name, reason)
    # what speclint's own steps said of them (ep_size from the all-to-all backend) no longer holds
    state.adjustments[:] = [a for a in state.adjustments if a.field not in REWRITTEN]
