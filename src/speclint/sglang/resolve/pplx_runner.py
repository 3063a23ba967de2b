"""--moe-a2a-backend pplx's MoE-runner assert in `_handle_a2a_moe` (0.5.17+, read per release:
`moe_a2a_facts.pplx_runner`, deep_gemm or auto), on the runner it sees: the one given, or
where the --quantization picks its own (0.5.17+ mxfp8, `moe_defaults.runner_after_quantization`:
auto and a runner it does not keep become flashinfer_trtllm) that one, since the quantization's
rewrite runs first.

Oracle (record.py --generator a2a, seed a2a-16101, 0.5.17, B200): Qwen3-8B with
--moe-runner-backend flashinfer_cutlass refused so; custom launches on 0.5.17 (H100, B200):
Qwen3-8B TP 8, attention DP 2, --quantization mxfp8 without a runner, with auto, triton,
flashinfer_trtllm, cutlass or flashinfer_cutlass refused so, with deep_gemm passed on to the
dispatch budget."""

from __future__ import annotations

from speclint.sglang.resolve.state import Stop, given

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.resolve.state import ResolutionState


def pplx_runner_check(state: ResolutionState, quantization: object) -> bool:
    """Refuses (Stop) a runner the assert does not take; True where the assert passes, False
    where the runner it sees is not read (a dynamic value, a quantization's rewrite not read,
    a GPU other than NVIDIA's)."""
    from speclint.sglang.moe_a2a_facts import pplx_runner
    from speclint.sglang.moe_defaults import moe_runner_overrides, runner_after_quantization

    version = state.checked_version
    given_runner = given(state, "moe_runner_backend")
    if given_runner is not None and not isinstance(given_runner, str):
        return False
    runner = given_runner or "auto"
    picks = str(quantization) in moe_runner_overrides(version)
    if picks and state.gpu is not None and state.gpu.vendor != "nvidia":
        return False  # ROCm and NPU rewrite it otherwise (or not at all)
    seen = runner_after_quantization(version, quantization, runner, "pplx")
    if seen is None:
        return False
    read = pplx_runner(version)
    if read is None:
        return seen in ("auto", "deep_gemm")
    runners, message, where = read
    if seen in runners:
        return True
    taken = ", ".join(runners)
    if seen == runner:
        raise Stop(
            "AssertionError",
            f"{message} (--moe-a2a-backend pplx with --moe-runner-backend {runner}; pass "
            f"{' or '.join(runners)}, or drop --moe-runner-backend)",
            where,
            ("moe_runner_backend",),
        )
    kept = [r for r in runners if r != "auto" and r in moe_runner_overrides(version)[str(quantization)]]
    fix = f"pass --moe-runner-backend {kept[0]}, which it keeps" if kept else "pick another --quantization"
    written = state.config.given("moe_runner_backend")
    what = f"--moe-runner-backend {runner}" if written else "no --moe-runner-backend (auto)"
    raise Stop(
        "AssertionError",
        f"{message} (--moe-a2a-backend pplx with --quantization {quantization} and {what}: "
        f"SGLang {version} sets the MoE runner to {seen} for {quantization} before this assert, "
        f"which takes {taken}; {fix})",
        where,
        ("quantization", "moe_runner_backend")
        if given_runner is None
        else ("moe_runner_backend", "quantization"),
    )
