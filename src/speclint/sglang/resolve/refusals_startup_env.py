"""Two start-up refusals that read the environment, as tools/gen_sglang_server_checks.py read
them from each release's wheel (`data/sglang_server_checks.json`):

- `decode_round_robin` (0.5.2-0.5.7): a decode server of a disaggregated pair with
  dp_size > 1 asserts --prefill-round-robin-balance, unless `is_in_ci()` (the variable read).
- `ascend_fuseep_mode` (0.5.10-0.5.15.post1): --moe-a2a-backend ascend_fuseep raises
  ValueError unless the fused-MoE mode variable is one of the values read (0.5.10-0.5.10.post1
  read the raw text, unset: None, so a launch without it is refused; 0.5.11+ an `EnvInt` whose
  default passes).
- `env_flag_compat` (0.5.16-0.5.17): `prepare_server_args` runs `_apply_fuseep_mode_env_compat`
  on every launch, whatever its backend, before any resolution: the fused-MoE mode variable,
  set and not overridden by --fuseep-mode on the command line, must be one of the values read
  (an `EnvInt`: a text `int()` refuses reads as its default).

A value speclint cannot read (a dynamic flag or variable) says nothing."""

from __future__ import annotations

from speclint.sglang.resolve.state import Stop, given

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from speclint.sglang.resolve.state import ResolutionState


def _reading(version: str, name: str) -> Any:
    import speclint.sglang.resolve.chunked_page as chunked_page

    return chunked_page.server_check(version, name)


def check_startup_env(state: ResolutionState) -> None:
    if state.get("moe_a2a_backend") == "ascend_fuseep":
        _ascend_fuseep_mode(state)
    if given(state, "disaggregation_mode") == "decode":
        _decode_round_robin(state)


def check_env_flag_compat(state: ResolutionState) -> None:
    """Oracle (tools/oracle custom cases, 0.5.16 and 0.5.17, fake H100): Qwen3-8B with
    SGLANG_NPU_FUSED_MOE_MODE=3 refused so, =2, =abc and =3 beside --fuseep-mode 1 accepted;
    0.5.18 accepted =3."""
    read = _reading(state.checked_version, "env_flag_compat")
    if not isinstance(read, dict) or read["variable"] not in state.env:
        return
    variable, allowed = read["variable"], read["allowed"]
    raw = state.env[variable]
    flag = read["flag"].lstrip("-").replace("-", "_")
    if raw is None or state.config.maybe_given(flag):
        return  # a value speclint cannot read, or the flag given (or maybe given)
    try:
        value = int(raw)  # `EnvInt.parse`; what it refuses reads as the default, with a warning
    except ValueError:
        value = read["default"]
    if value in allowed:
        return
    raise Stop(
        "ValueError",
        f"{read['message'].format(value=value)} ({variable}={raw} is read by {read['where']} for every "
        f"launch without {read['flag']}; set it to {' or '.join(str(v) for v in allowed)}, unset it, or "
        f"pass {read['flag']})",
        read["where"],
        (flag,),
    )


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
