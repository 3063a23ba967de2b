"""--moe-a2a-backend pplx under --quantization mxfp8 (0.5.17+): the quantization's rewrite sets
the MoE runner to flashinfer_trtllm (auto, or one it does not keep) before pplx's runner assert
(read per release: moe_runner_replacements, tools/sglang_runner_replacements.py). Oracle: custom
launches on 0.5.17 (record_release.py, H100 and B200), Qwen3-8B TP 8 with attention DP 2:
refused without a runner, with auto, triton, flashinfer_trtllm, cutlass; deep_gemm passed on to
the dispatch budget (128 by default)."""

from __future__ import annotations

from pathlib import Path

from launch_errors import at, errors

MODELS = Path(__file__).resolve().parent.parent / "fixtures" / "models"
BASE = (
    f"python -m sglang.launch_server --model-path {MODELS / 'qwen3-8b'} --tp-size 8 --dp-size 2 "
    "--enable-dp-attention --moe-a2a-backend pplx --quantization mxfp8"
)
ASSERT = "moe_a2a_backend='pplx' is only supported with --moe-runner-backend deep_gemm (or auto)."


def test_mxfp8_without_a_runner_is_refused_for_the_runner_it_picks():
    text = BASE + "\n"
    for version, where, gpu in (("0.5.17", "_handle_a2a_moe", "h100"), ("0.5.23", "handle_a2a_moe", "b200")):
        [error] = errors(text, version, gpu)
        assert (error.code, error.span.line, error.span.column) == ("SPD009", *at(text, "mxfp8"))
        assert error.message == (
            f"SGLang {version} refuses this launch in {where}: AssertionError: {ASSERT} "
            "(--moe-a2a-backend pplx with --quantization mxfp8 and no --moe-runner-backend (auto): "
            f"SGLang {version} sets the MoE runner to flashinfer_trtllm for mxfp8 before this assert, "
            "which takes deep_gemm, auto; pass --moe-runner-backend deep_gemm, which it keeps)"
        )


def test_mxfp8_replaces_a_runner_it_does_not_keep_and_keeps_deep_gemm():
    text = BASE + " --moe-runner-backend triton\n"
    [error] = errors(text, "0.5.17", "b200")
    assert (error.code, error.span.line, error.span.column) == ("SPD009", *at(text, "triton"))
    assert "with --quantization mxfp8 and --moe-runner-backend triton: SGLang 0.5.17 sets the MoE " in (
        error.message
    )
    kept = BASE + " --moe-runner-backend cutlass\n"
    [error] = errors(kept, "0.5.20", "h100")
    assert error.message.endswith(
        "(--moe-a2a-backend pplx with --moe-runner-backend cutlass; pass deep_gemm or auto, or drop "
        "--moe-runner-backend)"
    )
    deep_gemm = BASE + " --moe-runner-backend deep_gemm\n"
    [error] = errors(deep_gemm, "0.5.17", "h100")
    assert "SGLANG_PPLX_NUM_MAX_DISPATCH_TOKENS_PER_RANK (default 128) must be >=" in error.message
    assert ASSERT not in error.message


def test_not_judged_where_the_rewrite_differs_or_is_not_read():
    """On an AMD GPU the rewrite picks otherwise (ROCm) and 0.5.9's form is not read: silent on
    the runner."""
    text = BASE + "\n"
    assert [e for e in errors(text, "0.5.17", "mi300x") if ASSERT in e.message] == []
