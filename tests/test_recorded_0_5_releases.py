"""0.5.x patch releases recorded in session 13 (tests/data/oracle/<release>.json.gz) and resolved
as themselves, where they differ from the neighbour they followed before: what a user sees.
Expected values are the releases' own, from their recordings and the source lines named."""

from __future__ import annotations

from pathlib import Path

from explain_runs import explain_launches

ROOT = Path(__file__).resolve().parent.parent
M = "fixtures/models/"


def _errors(text: str, version: str, gpu: str | None) -> list[tuple[str, int, int, str]]:
    from speclint.core.findings import Severity
    from speclint.engine import lint_text
    from speclint.settings.options import LintOptions
    from speclint.sglang.resolve.gpu_profiles import profile

    options = LintOptions(sglang_version=version, read_pyproject=False, gpu=profile(gpu) if gpu else None)
    return [
        (f.code, f.span.line, f.span.column, f.message)
        for f in lint_text(text, "launch.sh", options).findings
        if f.severity == Severity.ERROR
    ]


def test_0_5_4_post1_flashinfer_trtllm_moe_takes_modelopt_fp4_or_fp8_only():
    """0.5.4-0.5.4.post1 `_handle_moe_kernel_config`: "modelopt_fp4 or fp8 quantization is
    required for Flashinfer TRTLLM MoE"; 0.5.4.post2 adds modelopt_fp8."""
    text = (
        f"python -m sglang.launch_server --model-path {ROOT}/{M}qwen3-8b "
        "--moe-runner-backend flashinfer_trtllm --quantization modelopt_fp8\n"
    )
    column = text.index("flashinfer_trtllm") + 1
    [(code, line, col, message)] = _errors(text, "0.5.4.post1", "b200")
    assert (code, line, col) == ("SPD009", 1, column)
    assert message.startswith(
        "SGLang 0.5.4.post1 refuses this launch in _handle_moe_kernel_config: AssertionError: "
        "modelopt_fp4 or fp8 quantization is required for Flashinfer TRTLLM MoE (--quantization "
        "modelopt_fp8 with the flashinfer_trtllm MoE runner"
    )
    assert _errors(text, "0.5.4.post2", "b200") == []


def test_0_5_4_post1_accepts_bitsandbytes_where_0_5_4_post2_does_not():
    """0.5.4.post1 layers/quantization/__init__.py registers "bitsandbytes" (recorded: accepted
    on the H100); 0.5.4.post2 drops it ("Unknown quantization method: bitsandbytes")."""
    text = f"python -m sglang.launch_server --model-path {ROOT}/{M}qwen3-8b --quantization bitsandbytes\n"
    assert _errors(text, "0.5.4.post1", "h100") == []
    [(code, _, _, message)] = _errors(text, "0.5.4.post2", "h100")
    assert code == "SPD009" and "Unknown quantization method: bitsandbytes" in message


def test_0_5_4_refuses_fa4_as_the_attention_backend_and_picks_none_while_resolving(tmp_path):
    """0.5.4 `__post_init__`: "FA4 backend is only supported for prefill. Please use
    `--prefill-attention-backend fa4` instead."; no backend is picked while resolving
    (0.5.4.post1 picks fa3 on the H100)."""
    text = f"python -m sglang.launch_server --model-path {ROOT}/{M}qwen3-8b --attention-backend fa4\n"
    [(code, line, col, message)] = _errors(text, "0.5.4", "h100")
    assert (code, line, col) == ("SPD009", 1, text.index("fa4") + 1)
    assert message == (
        "SGLang 0.5.4 refuses this launch in _handle_attention_backend_compatibility: ValueError: "
        "FA4 backend is only supported for prefill. Please use `--prefill-attention-backend fa4` "
        "instead."
    )
    [own] = explain_launches(tmp_path, "0.5.4", "qwen3-8b", gpu="h100")
    [post1] = explain_launches(tmp_path, "0.5.4.post1", "qwen3-8b", gpu="h100")
    assert own["resolution_exact"] is True and own["resolution_modelled_on"] == "0.5.4"
    assert own["effective"]["attention_backend"] is None
    assert post1["effective"]["attention_backend"] == "fa3"
