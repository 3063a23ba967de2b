"""--enable-prefill-cp on an MLA target (DeepSeek-V3, Kimi-K2.5): SGLang's DeepSeek model
override sets MLA context parallelism up itself (0.5.23 `model_overrides/deepseek_v2.py`,
`if cfg.enable_prefill_cp and use_mla_backend(server_args):` declaring the attention-DP and
attention-CP sizes, --dp-size 1, the MoE all-to-all backend deepep, the expert-parallel size and
the dense-MoE TP size). The fields it sets are read per release (`mla_prefill_cp` of
data/sglang_server_checks.json, tools/sglang_mla_prefill_cp.py: 0.5.14+); those of
STATED get the value read (a literal, or the TP size for ep_size), with the cause; the others it
sets or may set (REWRITTEN, and all of them where --enable-prefill-cp is maybe given or the
release has no reading) are unknown, with the cause, rather than the values as given. Oracle
(record.py --generator a2a_cp, seed 22005 on 0.5.21-0.5.23 and 22006 on 0.5.14, 0.5.17, 0.5.19
and 0.5.20, fake H100 and B200): DeepSeek-V3 with --enable-prefill-cp resolved
--moe-a2a-backend megamoe and none to deepep and ep_size 1 to the TP size, and its MegaMoE token
budget was not checked; --moe-dp-size draws (seed 23009 on 0.5.14, 0.5.19, 0.5.22, 0.5.23 and
24009 on 0.5.20, 0.5.21): with ep_size the TP size, the context-parallelism handler's
`ep_size * moe_dp_size <= tp_size` refusals are all said, no value difference."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.resolve.state import ResolutionState

SETS_UP = "sets MLA context parallelism up"
"""In the reason of each value the override sets (PAR004 leaves those ep_size changes alone)."""
STATED = ("ep_size", "moe_a2a_backend", "moe_dense_tp_size", "dp_size")
"""The fields whose value as the override sets it speclint states: no later handler that
speclint runs before this step rewrites them (oracle). Another field the override sets (0.5.14
and 0.5.19-0.5.21 enable_dp_attention True, which `_handle_data_parallelism` turns back off at
dp_size 1) is unknown, with the cause."""
REWRITTEN = ("moe_a2a_backend", "ep_size", "attn_dp_size", "dp_size", "attn_cp_size", "moe_dense_tp_size")


def mark_mla_prefill_cp(state: ResolutionState) -> None:
    from speclint.sglang.resolve.chunked_page import server_check
    from speclint.sglang.resolve.hardware_flags import MLA_ARCHITECTURES

    switch = (
        state.config.value("enable_prefill_cp", False) if state.config.known("enable_prefill_cp") else None
    )
    if state.target_architecture not in MLA_ARCHITECTURES or switch is False:
        return
    read = server_check(state.checked_version, "mla_prefill_cp") if switch is True else None
    reason = (
        f"--enable-prefill-cp on {state.target_architecture} (MLA attention): SGLang "
        f"{state.checked_version}'s DeepSeek model override sets MLA context parallelism up (the "
        "attention DP and CP sizes, the MoE all-to-all backend, the expert-parallel size), which "
        "speclint does not model"
    )
    # what speclint's own steps said of them (ep_size from the all-to-all backend) no longer holds
    sets = read.get("sets") if isinstance(read, dict) else None
    written = set(REWRITTEN) | {str(entry[0]) for entry in sets or ()}
    state.adjustments[:] = [a for a in state.adjustments if a.field not in written]
    values = {
        name: _value(state, entry) if name in STATED else None
        for entry in sets or ()
        for name in (str(entry[0]),)
    }
    for name in REWRITTEN:
        if values.get(name) is None:
            state.mark_unknown(name, reason)
    if not isinstance(read, dict):
        return
    for name, value in values.items():
        if value is None:
            if name not in REWRITTEN:
                state.mark_unknown(name, reason)
            continue
        if name in state.asked:
            state.values[name] = state.asked[name]  # the adjustment says what was asked
        state.set(
            name,
            value,
            f"--enable-prefill-cp on {state.target_architecture} (MLA attention): SGLang "
            f"{state.checked_version}'s DeepSeek model override {SETS_UP}",
            str(read["where"]),
            read.get("logged") if isinstance(read.get("logged"), str) else None,
        )


def _value(state: ResolutionState, entry: list[object]) -> object:
    """A field the override sets: its constant, or the value of the one field it copies
    (tp_size) where known; None where speclint does not read it."""
    from speclint.sglang.resolve.result import is_known

    _, kind, value = entry
    if kind == "constant":
        return value
    if kind == "field" and isinstance(value, str):
        copied = state.get(value)
        if is_known(copied) and isinstance(copied, int) and not isinstance(copied, bool):
            return copied
    return None
