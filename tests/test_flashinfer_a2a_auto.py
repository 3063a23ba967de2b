"""--moe-a2a-backend flashinfer without --moe-runner-backend (0.5.15+): the runner stays `auto`
when no function writing it applies (each release's writers read by
tools/gen_sglang_server_checks.py `runner_writers`), and `_handle_a2a_moe`'s assert refuses it.
Found by seeds a2a-16205/16206/16211/16212 (0.5.15.post1-0.5.22) and a2a-18001 (0.5.19, 0.5.21,
0.5.23): every such launch that reached the assert was refused (fake H100 and B200)."""

from __future__ import annotations

from pathlib import Path

from launch_errors import errors

MODELS = Path(__file__).resolve().parent.parent / "fixtures" / "models"
SUPPORTED = (
    "AssertionError: FlashInfer MoE A2A is supported with flashinfer_cutlass, flashinfer_cutedsl, "
    "flashinfer_trtllm, flashinfer_trtllm_routed, or deep_gemm."
)


def _launch(model: str, extra: str = "") -> str:
    return (
        f"python -m sglang.launch_server --model-path {MODELS / model} --tp-size 8{extra} "
        "--moe-a2a-backend flashinfer --dp-size 8 --enable-dp-attention\n"
    )


def test_no_runner_stays_auto_and_is_refused():
    for version, gpu, model, extra in (
        ("0.5.23", "h100", "deepseek-v3", " --quantization fp8"),  # seed a2a-18001
        ("0.5.21", "h100", "deepseek-v3", ""),  # seeds a2a-16206, a2a-18001
        ("0.5.19", "b200", "deepseek-v3", " --quantization fp8"),  # seed a2a-18001
        ("0.5.23", "h100", "qwen3-8b", " --quantization modelopt_fp4"),  # seed a2a-18001
    ):
        text = _launch(model, extra)
        [error] = errors(text, version, gpu)
        assert (error.code, error.span.line, error.span.column) == (
            "SPD009",
            1,
            text.index("flashinfer ") + 1,
        )
        assert error.message == (
            f"SGLang {version} refuses this launch in handle_a2a_moe: {SUPPORTED} (no "
            "--moe-runner-backend: the MoE runner stays auto; use --moe-runner-backend flashinfer_cutlass)"
        ), (version, model)


def test_earlier_wording_from_0_5_15_post1_to_0_5_17():
    for version, gpu, model, extra in (
        ("0.5.15.post1", "h100", "deepseek-v3", " --quantization fp8"),  # seed a2a-16205
        ("0.5.16", "b200", "qwen3-8b", " --quantization modelopt_fp4"),  # seed a2a-16212
        ("0.5.17", "h100", "deepseek-v3", ""),  # seed a2a-16211
    ):
        [error] = errors(_launch(model, extra), version, gpu)
        assert "Flashinfer MoE A2A is only supported with flashinfer_cutlass" in error.message, version
        assert "(no --moe-runner-backend: the MoE runner stays auto;" in error.message


def test_silent_where_a_writer_may_set_the_runner():
    # mxfp8 (0.5.19+ moves `auto` to flashinfer_trtllm), modelopt_fp4 on SM120 (flashinfer_cutlass),
    # SGLANG_CUTLASS_MOE (cutlass), a model whose config is not on disk
    assert errors(_launch("qwen3-8b", " --quantization mxfp8"), "0.5.23", "b200") == []
    assert errors(_launch("qwen3-8b", " --quantization modelopt_fp4"), "0.5.23", "rtx5090") == []
    cutlass = "SGLANG_CUTLASS_MOE=1 " + _launch("qwen3-8b", " --quantization fp8")
    assert [e for e in errors(cutlass, "0.5.16", "h100") if "A2A" in e.message] == []
    unread = _launch("qwen3-8b").replace(str(MODELS / "qwen3-8b"), "org/unknown-moe")
    assert errors(unread, "0.5.23", "h100") == []


def test_mxfp8_runner_refused_before_0_5_19():
    """`_moe_runner_backend_quant_constraints` puts flashinfer_trtllm in auto's place under mxfp8
    (read per release: moe_defaults.runner_after_quantization), which 0.5.15-0.5.18's assert
    refuses (oracle: seed a2a-25003, 0.5.16 Qwen3-8B on an H100); 0.5.19+ take it."""
    for version in ("0.5.15.post1", "0.5.16", "0.5.18"):
        text = _launch("qwen3-8b", " --quantization mxfp8")
        [error] = errors(text, version, "h100")
        assert (error.code, error.span.line, error.span.column) == (
            "SPD009",
            1,
            text.index("flashinfer ") + 1,
        )
        assert error.message.endswith(
            "(no --moe-runner-backend: the MoE runner stays auto, which SGLang replaces with "
            "flashinfer_trtllm under --quantization mxfp8; use --moe-runner-backend flashinfer_trtllm_routed)"
        ), version
    assert errors(_launch("qwen3-8b", " --quantization mxfp8"), "0.5.19", "h100") == []


def test_mxfp8_with_a_runner_both_take_is_accepted():
    """The fix named: flashinfer_trtllm_routed, which mxfp8 keeps and the assert takes (oracle:
    seed 26003, 0.5.15-0.5.18, H100 and B200)."""
    text = _launch("qwen3-8b", " --quantization mxfp8 --moe-runner-backend flashinfer_trtllm_routed")
    for version in ("0.5.15", "0.5.17", "0.5.18"):
        assert [e for e in errors(text, version, "h100") if "A2A" in e.message] == [], version
