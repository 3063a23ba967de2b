"""An int4 (Kimi K2 / K2.5 thinking) checkpoint of a DeepSeek-family architecture on an SM100
GPU gets the flashinfer_trtllm MoE runner whatever --quantization says, and
`_handle_moe_kernel_config` then asserts the --quantization given against that runner's list
(resolve/refusals_moe_defaults.py `_int4_trtllm_runner`). The runner test is read per release
from its wheel (tools/sglang_deepseek_family.py: `deepseek_family` 0.5.15+, written inline in
`_handle_model_specific_adjustments` in 0.5.10-0.5.14 `inline_int4_runner`; 0.5.9 has no int4
test). Expected outcomes are the releases' own: tools/oracle record_release.py on 0.5.9, 0.5.10,
0.5.14, 0.5.17 and 0.5.23 (fake B200) refused or accepted exactly these launches."""

from __future__ import annotations

from test_refusal_checks import LAUNCH, accepted, kernel_config, refusal

from speclint.sglang.moe_defaults import int4_trtllm_runner

KIMI = LAUNCH + "fixtures/models/kimi-k2.5"
HANDLER = "_handle_moe_kernel_config"
LISTED_0_5_14 = (
    "FlashInfer TRTLLM MOE supports only: 'modelopt_fp4', 'nvfp4_online', 'fp8', 'modelopt_fp8', "
    "'modelopt_mixed', 'compressed-tensors', or bfloat16 (None)."
)


def test_0_5_14_refuses_a_quantization_the_int4_runner_does_not_take():
    refusal(
        "0.5.14",
        KIMI + " --quantization w8a8_fp8 --dtype bfloat16 --tp-size 2",
        "--quantization w8a8_fp8",
        kernel_config("0.5.14"),
        f"AssertionError: Invalid quantization 'w8a8_fp8'. {LISTED_0_5_14} (--quantization w8a8_fp8 on "
        "KimiK25ForConditionalGeneration, whose int4 checkpoint SGLang gives the flashinfer_trtllm MoE "
        "runner on Blackwell (SM100); drop --quantization, name one of modelopt_fp4, nvfp4_online, fp8, "
        "mxfp8, modelopt_fp8, modelopt_mixed, compressed-tensors, or pass another --moe-runner-backend)",
        gpu="b200",
    )
    # with an all-to-all backend the runner stays auto (oracle: accepted)
    accepted("0.5.14", KIMI + " --quantization w8a8_fp8 --moe-a2a-backend deepep", "b200")
    # not on Hopper (no SM100 branch)
    accepted("0.5.14", KIMI + " --quantization w8a8_fp8", "h100")


def test_per_release():
    refusal(
        "0.5.10",
        KIMI + " --quantization w8a8_fp8",
        "--quantization w8a8_fp8",
        kernel_config("0.5.10"),
        "AssertionError: Invalid quantization 'w8a8_fp8'. FlashInfer TRTLLM MOE supports only: "
        "'modelopt_fp4', 'fp8', 'modelopt_fp8', 'modelopt_mixed', 'compressed-tensors', or bfloat16 (None).",
        gpu="b200",
    )
    # 0.5.17's GPU-dependent resolution is not modelled: the check stands on its own
    refusal(
        "0.5.17",
        KIMI + " --quantization w8a8_int8",
        "--quantization w8a8_int8",
        kernel_config("0.5.17"),
        f"AssertionError: Invalid quantization 'w8a8_int8'. {LISTED_0_5_14}",
        gpu="b200",
    )
    # 0.5.9's runner test names no int4 checkpoint: the runner stays auto
    accepted("0.5.9", KIMI + " --quantization w8a8_fp8", "b200")
    assert int4_trtllm_runner("0.5.9") is None
    assert "KimiK25ForConditionalGeneration" in int4_trtllm_runner("0.5.10")[0]


def test_0_5_23_with_dtype_beside():
    """--dtype leaves the GPU-dependent resolution unknown; the assert is still made."""
    refusal(
        "0.5.23",
        KIMI + " --quantization humming --mem-fraction-static 0.8 --dtype float16",
        "--quantization humming",
        kernel_config("0.5.23"),
        f"AssertionError: Invalid quantization 'humming'. {LISTED_0_5_14} (--quantization humming on "
        "KimiK25ForConditionalGeneration, whose int4 checkpoint",
        gpu="b200",
    )


def test_the_inline_reader_on_a_written_source():
    import ast
    import os
    import sys
    from pathlib import Path

    sys.path.insert(0, os.path.join(Path(__file__).resolve().parent.parent, "tools"))
    from sglang_deepseek_family import read_inline_int4_runner

    source = """
class ServerArgs:
    def _handle_model_specific_adjustments(self):
        if model_arch in ["A", "B"]:
            if is_sm100_supported():
                int4 = quant_method == "compressed-tensors" and weights.get("num_bits") == 4
                if self.moe_runner_backend == "auto" and (self.quantization in ["fp8"] or int4):
                    self.moe_runner_backend = "flashinfer_trtllm"
"""
    sources = [("sglang/srt/server_args.py", ast.parse(source), source)]
    read = read_inline_int4_runner(sources)
    assert read is not None
    assert (read["moe"], read["runner_quantizations"]) == (["A", "B"], ["fp8"])
    assert read["int4_checkpoint"] == {"quant_method": "compressed-tensors", "num_bits": 4}
    # without the int4 name in the runner's test (0.5.9), nothing is read
    assert read_inline_int4_runner([("s", ast.parse(source.replace(" or int4", "")), "")]) is None
