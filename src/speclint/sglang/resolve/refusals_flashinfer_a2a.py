"""`_handle_a2a_moe` with --moe-a2a-backend flashinfer (`ReleaseTraits.flashinfer_a2a_check`,
`flashinfer_a2a_runners`): the attention-DP layout, then the MoE runner assert (from refusals.py,
which calls `check_flashinfer_a2a` for that backend only)."""

from __future__ import annotations

from speclint.sglang.moe_readings import a2a_handler
from speclint.sglang.resolve.ep_join import ep_scale_joiner
from speclint.sglang.resolve.result import is_known
from speclint.sglang.resolve.state import Stop, given

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.resolve.state import ResolutionState

_FLASHINFER_A2A = {
    "attn_dp": "Flashinfer MoE A2A is only supported with --attn-dp-size equal to --tp-size",
    "attn_dp_or_muse": "Flashinfer MoE A2A requires --attn-dp-size equal to --tp-size, except for "
    "Muse Spark TP4/EP4 or TP8/EP8 prefill sequence parallelism.",
}
_CUTLASS_RUNNER_ARCHITECTURES = ("NemotronHForCausalLM",)
"""0.5.9-0.5.12 `_handle_model_specific_adjustments`: the only architecture whose branch
sets moe_runner_backend = "flashinfer_cutlass" itself (for modelopt checkpoints)."""
_MUSE = "MuseSparkForConditionalGeneration"


def check_flashinfer_a2a(state: ResolutionState) -> None:
    """`_handle_a2a_moe` with --moe-a2a-backend flashinfer (`ReleaseTraits.flashinfer_a2a_check`):
    the attention-DP layout first (0.5.13-0.5.21: `ReleaseTraits.flashinfer_a2a_needs_dp_attention`,
    parallel.py; 0.5.22+ here), then the MoE runner."""
    check = state.traits.flashinfer_a2a_check
    if not check or state.get("moe_a2a_backend") != "flashinfer":
        return
    tp = state.get("tp_size")
    if not isinstance(tp, int):
        return
    if check in ("attn_dp", "attn_dp_or_muse"):
        attn = state.get("attn_dp_size")
        if not isinstance(attn, int) or ep_scale_joiner(state) is not False:
            return
        supported = attn > 1 and attn == tp
        if not supported and not (
            check == "attn_dp_or_muse" and _maybe_muse_sequence_parallel(state, attn, tp)
        ):
            raise Stop(
                "AssertionError",
                f"{_FLASHINFER_A2A[check]} (--tp-size {tp}, --attn-dp-size {attn}; use --attn-dp-size {tp})",
                a2a_handler(state.checked_version),
                ("moe_a2a_backend", "attn_dp_size", "dp_size"),
            )
    _flashinfer_a2a_runner(state, check)


def _flashinfer_a2a_runner(state: ResolutionState, check: str) -> None:
    """The runner assert. An explicit runner stays as given up to it, or becomes one the
    assert refuses too (mxfp8, SGLANG_CUTLASS_MOE: cutlass), except that 0.5.15+
    `_moe_runner_backend_quant_constraints` moves it to flashinfer_trtllm under mxfp8, which
    0.5.19+ accept. 'auto' (given, or no runner) is read where the release resolves it to a
    runner the assert refuses but in one case: 0.5.9-0.5.12 ('cutlass_runner': NemotronH's
    branch picks flashinfer_cutlass), 0.5.13-0.5.14 ('dp_attention_auto': an SM120 GPU with
    modelopt_fp4 gets flashinfer_cutlass; read once the GPU is known); later, where no function
    writing the runner applies, or one puts a runner the assert refuses in its place
    (flashinfer_a2a_auto.runner_at_assert: 0.5.15-0.5.18 mxfp8's flashinfer_trtllm)."""
    runners = state.traits.flashinfer_a2a_runners
    runner = given(state, "moe_runner_backend")
    if not isinstance(runner, str):
        return
    note, fix = "", runners[0]
    if runner in runners:
        replaced = _replaced(state, runner, runners)
        if replaced is None:
            return
        note, fix = replaced
    if runner == "auto":
        architecture, gpu = state.target_architecture, state.gpu
        if check == "cutlass_runner":
            if architecture is None or architecture in _CUTLASS_RUNNER_ARCHITECTURES:
                return
        elif check == "dp_attention_auto":
            if gpu is None or (gpu.sm or 0) // 10 in (0, 12):
                return
        else:
            from speclint.sglang.resolve.flashinfer_a2a_auto import auto_refused

            refused = auto_refused(state, runners)
            if refused is None:
                return
            note, fix = refused
    if "flashinfer_trtllm" in runners and not note:  # 0.5.19+: where mxfp8 moves the runner to one it takes
        quantization = state.get("quantization")
        if quantization is None or not is_known(quantization):  # unresolved: the one given
            quantization = given(state, "quantization")
        if not is_known(quantization) or quantization == "mxfp8" or state.target_config is None:
            return
        if _checkpoint_quantization(state) == "mxfp8":
            return
    if len(runners) > 3:
        message = f"FlashInfer MoE A2A is supported with {', '.join(runners[:-1])}, or {runners[-1]}."
    else:
        listed = runners[0] if len(runners) == 1 else f"{', '.join(runners[:-1])} or {runners[-1]}"
        message = f"Flashinfer MoE A2A is only supported with {listed} moe runner backend"
    shown = (
        f"--moe-runner-backend {runner}"
        if state.config.given("moe_runner_backend")
        else "no --moe-runner-backend: the MoE runner stays auto"
    )
    raise Stop(
        "AssertionError",
        f"{message} ({shown}{note}; use --moe-runner-backend {fix})",
        a2a_handler(state.checked_version),
        ("moe_runner_backend", "moe_a2a_backend"),
    )


def _replaced(state: ResolutionState, runner: str, runners: tuple[str, ...]) -> tuple[str, str] | None:
    """A runner given that the assert takes, which the launch's --quantization replaces before
    it (`_handle_moe_kernel_config` runs before `_handle_a2a_moe`; the runner put in its place:
    `moe_defaults.runner_after_quantization`, read per release, 0.5.10+ mxfp8) with one the assert
    refuses: (what the finding adds, the fix); None where not (or not known to be)."""
    from speclint.sglang.moe_defaults import moe_runner_overrides, runner_after_quantization

    quantization = given(state, "quantization")
    if not isinstance(quantization, str):
        return None
    seen = runner_after_quantization(state.checked_version, quantization, runner, "flashinfer")
    if seen is None or seen == runner or seen in runners:
        return None
    kept = moe_runner_overrides(state.checked_version).get(quantization, ())
    fix = next((r for r in runners if r in kept), None)
    note = f", which SGLang replaces with {seen} under --quantization {quantization}"
    if fix is None:
        return (
            note + f", which keeps none of {', '.join(runners)}",
            f"{runners[0]} without --quantization {quantization}",
        )
    return note, fix


def _checkpoint_quantization(state: ResolutionState) -> str | None:
    from speclint.sglang.resolve.deepseek_blackwell import checkpoint_quantization

    return checkpoint_quantization(state)


def _maybe_muse_sequence_parallel(state: ResolutionState, attn: int, tp: int) -> bool:
    """0.5.23 `_flashinfer_a2a_topology_is_supported`'s exception, or it may apply (the
    architecture or a flag is not known)."""
    ep, layernorm_sp = state.get("ep_size"), given(state, "enable_layernorm_sp")
    if state.target_architecture not in (None, _MUSE) or layernorm_sp is False or attn != 1:
        return False
    return not isinstance(ep, int) or (tp, ep) in ((4, 4), (8, 8))
