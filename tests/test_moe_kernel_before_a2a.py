"""The MoE-kernel handler runs before the all-to-all handler (read per release:
moe_kernel_first, tools/sglang_handler_order.py): a launch both refuse meets the kernel's
assert. Oracle (seed a2a-16212, 0.5.18, fake H100): DeepSeek-V3 --quantization fp8 with
--moe-a2a-backend flashinfer and --moe-runner-backend flashinfer_cutlass, without attention DP,
refused in _handle_moe_kernel_config for the quantization (not for the all-to-all layout);
without a runner (seed a2a-30005, 0.5.17, H100) for the all-to-all layout."""

from __future__ import annotations

from pathlib import Path

from launch_errors import at, errors

MODELS = Path(__file__).resolve().parent.parent / "fixtures" / "models"
LAUNCH = (
    f"python -m sglang.launch_server --model-path {MODELS / 'deepseek-v3'} --tp-size 8 --quantization fp8 "
    "--moe-a2a-backend flashinfer"
)


def test_the_kernel_assert_comes_first():
    text = LAUNCH + " --moe-runner-backend flashinfer_cutlass\n"
    for version, where in (("0.5.18", "_handle_moe_kernel_config"), ("0.5.20", "handle_moe_kernel_config")):
        [error] = errors(text, version, "h100")
        assert (error.code, error.span.line, error.span.column) == ("SPD009", *at(text, "fp8"))
        assert error.message.startswith(
            f"SGLang {version} refuses this launch in {where}: AssertionError: Invalid quantization 'fp8'. "
            "FlashInfer Cutlass MOE supports only: 'modelopt_fp4', 'modelopt_fp8', 'modelopt_mixed', or "
            "bfloat16 (None). (quantization fp8 from --quantization fp8, with the flashinfer_cutlass MoE runner"
        )


def test_the_all_to_all_assert_where_the_kernel_takes_the_launch():
    text = LAUNCH + "\n"
    [error] = errors(text, "0.5.17", "h100")
    assert (error.code, error.span.line, error.span.column) == ("SPD009", *at(text, "flashinfer"))
    assert error.message == (
        "SGLang 0.5.17 refuses this launch in _handle_a2a_moe: AssertionError: Flashinfer MoE A2A is "
        "only supported with dp_size == tp_size and --enable-dp-attention"
    )
