"""Two start-up refusals that read the environment, as tools/gen_sglang_server_checks.py read
them from each release's wheel (`data/sglang_server_checks.json`):

- `decode_round_robin` (0.5.2-0.5.7): a decode server of a disaggregated pair with
  dp_size > 1 asserts --prefill-round-robin-balance, unless `is_in_ci()` (the variable read).
- `ascend_fuseep_mode` (0.5.10-0.5.15.post1): --moe-a2a-backend ascend_fuseep raises
  ValueError unless the fused-MoE mode variable is one of the values read (0.5.10-0.5.10.post1
  read the raw text, unset: None, so a launch without it is refused; 0.5.11+ an `EnvInt` whose
  default passes).

A value speclint cannot read (a dynamic flag or variable) says nothing."""

from __future__ import annotations

from speclint.sglang.resolve.state import Stop, given

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from speclint.sglang.resolve.state import ResolutionState


def _reading(version: str, name: str) -> Any:
    from speclint.sglang.resolve.chunked_page import server_check

    return server_check(version, name)


def check_startup_env(state: ResolutionState) -> None:
    if state.get("moe_a2a_backend") == "ascend_fuseep":
        _ascend_fuseep_mode(state)
    if given(state, "disaggregation_mode") == "decode":
        _decode_round_robin(state)


def _decode_round_robin(state: ResolutionState) -> None:
    """Oracle (record.py --generator a2a, seed 16205, 0.5.4.post3, fake H100): DeepSeek-V3 on a
    decode server with --dp-size 2 (with and without --enable-dp-attention) refused so."""
    read = _reading(state.checked_version, "decode_round_robin")
    if not isinstance(read, dict):
        return
    dp = state.get("dp_size")
    if not isinstance(dp, int) or isinstance(dp, bool) or dp <= 1 or read["ci_variable"] in state.env:
        return
    balance = given(state, "prefill_round_robin_balance")
    if balance not in (None, False):
        return  # given (or dynamic)
    raise Stop(
        "AssertionError",
        f"{read['message']} (--disaggregation-mode decode with --dp-size {dp}; add "
        "--prefill-round-robin-balance, and launch the prefill server with --load-balance-method "
        "round_robin)",
        read["where"],
        ("disaggregation_mode", "dp_size"),
    )


def _ascend_fuseep_mode(state: ResolutionState) -> None:
    """Oracle (record.py --generator a2a, seed 16205, 0.5.10.post1, fake H100/B200):
    --moe-a2a-backend ascend_fuseep without SGLANG_NPU_FUSED_MOE_MODE refused so."""
    read = _reading(state.checked_version, "ascend_fuseep_mode")
    if not isinstance(read, dict):
        return
    variable, allowed = read["variable"], read["allowed"]
    raw = state.env.get(variable, "")
    if raw is None:
        return  # set to a value speclint cannot read
    set_to = variable in state.env
    value: object
    if read["form"] == "environ":
        value = raw if set_to else None
    else:
        text = raw.strip()
        if not set_to:
            value = read["default"]
        elif text.lstrip("-").isdigit():
            value = int(text)
        else:
            return  # EnvInt's reading of it is not read here
    if value in allowed:
        return
    shown = f"{variable}={raw}" if set_to else f"{variable} not set"
    raise Stop(
        "ValueError",
        f"{read['message'].format(value=value)} (--moe-a2a-backend ascend_fuseep with {shown}; set "
        f"{variable} to {' or '.join(str(v) for v in allowed)}, or pick another --moe-a2a-backend)",
        read["where"],
        ("moe_a2a_backend",),
    )
