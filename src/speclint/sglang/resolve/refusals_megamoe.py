"""0.5.20+ `validate_flashinfer_megamoe_model`: beside --moe-a2a-backend flashinfer_megamoe
the target's architectures must include one the release validates (`moe_defaults.
megamoe_architectures`, read from its source), whatever the MoE runner."""

from __future__ import annotations

import os

from speclint.sglang.resolve.result import is_known
from speclint.sglang.resolve.state import Stop, given

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.resolve.state import ResolutionState


def check_megamoe_model(state: ResolutionState) -> None:
    """Judged where the all-to-all backend is known to be flashinfer_megamoe and the target's
    config.json is on disk (no --json-model-override-args, which may change it). Oracle
    (resolve_cases.py, 0.5.23, fake B200): Qwen3ForCausalLM with that backend, the
    flashinfer_megamoe runner, nvfp4_online and its W4A16 switch on is refused so. A validated
    architecture goes on to the quantization check (`_quantization`)."""
    from speclint.sglang.moe_defaults import megamoe_architectures

    read = megamoe_architectures(state.checked_version)
    target = state.target_config
    if read is None or state.get("moe_a2a_backend") != "flashinfer_megamoe":
        return
    if target is None or given(state, "json_model_override_args") not in (None, "", "{}"):
        _attention_dp(state, read[2])  # refused whatever the model check says
        return
    architectures = target.raw.get("architectures") or []
    validated, message, where = read
    if not isinstance(architectures, list) or any(a in validated for a in architectures):
        _quantization(state, architectures, where)
        _attention_dp(state, where)
        return
    raise Stop(
        "ValueError",
        message.format(architectures=str(architectures), supported=str(sorted(validated)))
        + f" (--moe-a2a-backend flashinfer_megamoe on {architectures[0] if architectures else 'this model'};"
        " pick another --moe-a2a-backend, or a model of an architecture it validates)",
        where,
        ("moe_a2a_backend",),
    )


def _quantization(state: ResolutionState, architectures: object, where: str) -> None:
    """Then the resolved --quantization must be one it takes (`moe_defaults.
    megamoe_quantization`), or 0.5.23's nvfp4_online with its switch true, or the checkpoint
    must set a ModelConfig term (FP4 experts, hybrid NVFP4 MoE). Judged only where the
    quantization is known, the switch readable, and the config.json's quantization_config holds
    none of the keys and the architecture none of the ones that set those terms. Oracle
    (resolve_cases.py, 0.5.23; record_release.py, 0.5.20): DeepSeek-V3 (fp8 checkpoint) is
    refused so on the B200 (quantization 'fp8') and the H100 (None), and with nvfp4_online
    without the switch."""
    from speclint.sglang.moe_defaults import megamoe_quantization
    from speclint.sglang.resolve import refusals_moe_runner as runner

    read = megamoe_quantization(state.checked_version)
    target, asked = state.target_config, given(state, "quantization")
    if read is None or target is None or not is_known(asked):
        return
    quantization, source = runner.moe_quantization(state)  # what the MoE runners' asserts read
    if quantization is None and not (
        (asked is None and (runner._states_none(state) or runner._not_adopted(state)))
        or (asked == "unquant" and runner._unquant_reads_none(state))
    ):
        return  # a quantization the resolution may take from the checkpoint
    if (
        quantization in read.quantizations
        or (quantization == "modelopt" and runner._modelopt_may_change(state))
        or (
            str(quantization).lower() in runner._REWRITTEN
            and (read.env is None or quantization != read.env[0])
        )
    ):
        return
    also = ""
    if read.env is not None and quantization == read.env[0]:
        switch = read.env[1]
        value = switch.value(state.env)
        if value is not False:
            return
        how = (
            f"{switch.name}={state.env[switch.name]}"
            if switch.name in state.env
            else f"{switch.name} is not set (default {switch.default})"
        )
        also = f"; {quantization} is taken only where {switch.name} is true, here {how}"
    checkpoint = target.raw.get("quantization_config")
    beside = os.path.join(os.path.dirname(target.path), "hf_quant_config.json")
    if (checkpoint is not None and not isinstance(checkpoint, dict)) or os.path.exists(beside):
        return
    if asked == "unquant":
        source = f"--quantization unquant, which SGLang {state.checked_version} sets to None"
    if any(k in (checkpoint or {}) for k in read.config_keys) or (
        isinstance(architectures, list) and any(a in read.architectures for a in architectures)
    ):
        return
    takes = ", ".join(read.quantizations)
    raise Stop(
        "ValueError",
        read.message.format(quantization=quantization)
        + f" (--moe-a2a-backend flashinfer_megamoe with quantization {quantization!r}"
        f" from {source or 'no --quantization, and none taken from the checkpoint'}{also}, on a"
        f" checkpoint without FP4 experts or hybrid NVFP4 MoE layers; use a checkpoint or"
        f" --quantization it takes ({takes}), or pick another --moe-a2a-backend)",
        where,
        ("moe_a2a_backend",),
    )


def _attention_dp(state: ResolutionState, where: str) -> None:
    """Then (after the environment checks, whose own refusals stop it too) `assert
    cfg.enable_dp_attention and cfg.dp_size == cfg.tp_size` (0.5.20-0.5.21), `assert
    attn_dp_enabled_of(cfg) and cfg.attn_dp_size == cfg.tp_size` (0.5.22+; enabled: an
    attention-DP size over 1, or --ep-join-mode scale), read per release
    (`moe_defaults.megamoe_attention_dp`). Judged where every term is known. Oracle
    (record_release.py 0.5.20-0.5.23, fake B200/H100, DeepSeek-V3 modelopt_fp4 TP 8): refused
    without attention DP, with --dp-size 4 --enable-dp-attention and with --dp-size 8 alone;
    accepted with --dp-size 8 --enable-dp-attention (and 0.5.22+ --attn-dp-size 8)."""
    from speclint.sglang.moe_a2a_facts import megamoe_attention_dp
    from speclint.sglang.resolve.ep_join import ep_scale_joiner

    read = megamoe_attention_dp(state.checked_version)
    tp = state.get("tp_size")
    if read is None or not isinstance(tp, int):
        return
    enabled_by, size_field, message = read.enabled_by, read.size, read.message
    size = state.get(size_field)
    if enabled_by == "enable_dp_attention":
        enabled = state.get("enable_dp_attention")
        if not isinstance(enabled, bool) or not isinstance(size, int):
            return
        now = f"--dp-size {size}{'' if enabled else ' without --enable-dp-attention'}"
        fix = f"--dp-size {tp} --enable-dp-attention"
    else:
        if not isinstance(size, int) or ep_scale_joiner(state) is not False:
            return
        enabled = size > 1
        now, fix = f"attention-DP size {size}", f"--attn-dp-size {tp}"
    if enabled and size == tp:
        _runner(state, read.runner_message, where)
        _sm100(state, read.sm100_message, where)
        return
    raise Stop(
        "AssertionError",
        f"{message} (--moe-a2a-backend flashinfer_megamoe with --tp-size {tp}, {now}; "
        f"use {fix}, or pick another --moe-a2a-backend)",
        where,
        ("moe_a2a_backend", size_field, "dp_size", "enable_dp_attention"),
    )


def _runner(state: ResolutionState, message: str | None, where: str) -> None:
    """Then the branch sets an auto MoE runner to flashinfer_megamoe and asserts it is: another
    runner given is refused, unless the --quantization is one under which the release replaces
    an explicit runner (`moe_defaults.moe_runner_overrides`) or is not read. Oracle (record_release.py
    0.5.20-0.5.23, fake H100): --moe-runner-backend flashinfer_cutlass refused so."""
    from speclint.sglang.moe_defaults import moe_runner_overrides

    runner, quantization = given(state, "moe_runner_backend"), given(state, "quantization")
    if (
        message is None
        or not isinstance(runner, str)
        or runner in ("auto", "flashinfer_megamoe")
        or not is_known(quantization)
        or quantization in moe_runner_overrides(state.checked_version)  # may replace the runner
    ):
        return
    raise Stop(
        "AssertionError",
        f"{message} (--moe-a2a-backend flashinfer_megamoe with --moe-runner-backend {runner}; "
        "drop --moe-runner-backend or pass flashinfer_megamoe)",
        where,
        ("moe_runner_backend",),
    )


def _sm100(state: ResolutionState, message: str | None, where: str) -> None:
    """Then, past the runner's assert, `if not is_sm100_supported(): raise ValueError(...)`:
    refused on an NVIDIA GPU whose SM is not 10.x; judged with --gpu, the MoE runner given
    auto or flashinfer_megamoe (another fails `_runner` first). Oracle (record_release.py
    0.5.20-0.5.23): DeepSeek-V3 modelopt_fp4 TP 8 with --dp-size 8 --enable-dp-attention is
    refused so on the H100, accepted on the B200."""
    gpu = state.gpu
    if (
        message is None
        or gpu is None
        or gpu.vendor != "nvidia"
        or gpu.sm is None
        or gpu.sm // 10 == 10
        or given(state, "moe_runner_backend") not in (None, "auto", "flashinfer_megamoe")
    ):
        return
    raise Stop(
        "ValueError",
        f"{message} (--moe-a2a-backend flashinfer_megamoe on the {gpu.name}, SM {gpu.sm // 10}.{gpu.sm % 10}; "
        "use a GPU with SM 10.x, or pick another --moe-a2a-backend)",
        where,
        ("moe_a2a_backend",),
    )
