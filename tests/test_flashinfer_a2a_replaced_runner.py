"""--moe-a2a-backend flashinfer with a runner its assert takes, which the launch's --quantization
replaces before the assert (`_handle_moe_kernel_config` runs before `_handle_a2a_moe`; the runner
put in its place read per release, `moe_defaults.runner_after_quantization`): 0.5.10.post1's
mxfp8 puts flashinfer_trtllm in flashinfer_cutlass's place, and the assert refuses the launch.
Found by oracle seed a2a-29009 (0.5.10.post1, a fake B200: a missed refusal); 0.5.9's mxfp8
puts cutlass there."""

from __future__ import annotations

from pathlib import Path

from launch_errors import at, errors

MODELS = Path(__file__).resolve().parent.parent / "fixtures" / "models"


def _launch(quantization: str) -> str:
    return (
        f"python -m sglang.launch_server --model-path {MODELS / 'qwen3-8b'} --tp-size 8{quantization} "
        "--moe-a2a-backend flashinfer --chunked-prefill-size 4096 --moe-runner-backend flashinfer_cutlass\n"
    )


def test_a_runner_the_quantization_replaces_is_refused_at_the_runner():
    text = _launch(" --quantization mxfp8")
    [error] = errors(text, "0.5.10.post1", "b200")
    assert (error.code, error.span.line, error.span.column) == ("SPD009", *at(text, "flashinfer_cutlass"))
    assert error.message == (
        "SGLang 0.5.10.post1 refuses this launch in _handle_a2a_moe: AssertionError: Flashinfer MoE "
        "A2A is only supported with flashinfer_cutlass moe runner backend (--moe-runner-backend "
        "flashinfer_cutlass, which SGLang replaces with flashinfer_trtllm under --quantization mxfp8, "
        "which keeps none of flashinfer_cutlass; use --moe-runner-backend flashinfer_cutlass without "
        "--quantization mxfp8)"
    )


def test_0_5_9_s_mxfp8_puts_cutlass_in_every_runner_s_place():
    """0.5.9's mxfp8 branch ends with `self.moe_runner_backend = "cutlass"` (a warning before it
    for any runner but auto and cutlass): read by tools/sglang_runner_replacements.py. Oracle: a
    hand-written seed 29013 on 0.5.9 and 0.5.10.post1 (B200), both refused."""
    text = _launch(" --quantization mxfp8")
    [error] = errors(text, "0.5.9", "b200")
    assert (error.code, error.span.line, error.span.column) == ("SPD009", *at(text, "flashinfer_cutlass"))
    assert "which SGLang replaces with cutlass under --quantization mxfp8" in error.message


def test_the_runner_stays_where_the_quantization_picks_none():
    assert errors(_launch(""), "0.5.10.post1", "b200") == []
