"""--moe-a2a-backend flashinfer_megamoe against `validate_flashinfer_megamoe_model`'s
quantization check (0.5.20+; resolve/refusals_megamoe.py), its quantizations, 0.5.23's
nvfp4_online switch, the ModelConfig terms and message read from each wheel by
tools/sglang_moe_runner_refusals.py. Expected outcomes are the releases' own: tools/oracle
record_release.py on 0.5.20 and 0.5.21 and resolve_cases.py on 0.5.23 (fake H100 and B200,
session 15b) gave these refusals and messages."""

from __future__ import annotations

from test_refusal_checks import DSV3, LAUNCH, errors, refusal

from speclint.sglang.moe_defaults import megamoe_quantization

MEGAMOE = LAUNCH + DSV3 + " --moe-a2a-backend flashinfer_megamoe --tp-size 8"
SAYS = "ValueError: FlashInfer MegaMOE currently supports only MXFP8, ModelOpt NVFP4, FP4-expert"
TAIL = (
    ", on a checkpoint without FP4 experts or hybrid NVFP4 MoE layers; use a checkpoint or "
    "--quantization it takes (mxfp8, modelopt_fp4), or pick another --moe-a2a-backend)"
)


def _refused(version: str, command: str, gpu: str, got: str, source: str) -> None:
    refusal(version, command, "--moe-a2a-backend flashinfer_megamoe", "handle_a2a_moe", SAYS, gpu=gpu)
    [(_, _, message)] = errors(version, command, gpu)
    assert f"; got quantization={got}. Standard FP8 MoE checkpoints are not supported." in message
    assert message.endswith(
        f"(--moe-a2a-backend flashinfer_megamoe with quantization {got} from {source}{TAIL}"
    )


def test_deepseek_v3_fp8_is_refused_by_flashinfer_megamoe_on_0_5_20_and_0_5_21():
    """Oracle (record_release.py, 0.5.20 and 0.5.21): the B200 takes the checkpoint's fp8 into
    --quantization and is refused with 'fp8'; --quantization fp8 on the H100 too; the H100 with
    no --quantization reads None, and --quantization unquant None on either GPU (0.5.20; was:
    nothing said)."""
    blackwell = (
        "the checkpoint's quantization_config (fp8), which SGLang takes for DeepSeek-V3 on the "
        "NVIDIA B200 (SM100)"
    )
    for version in ("0.5.20", "0.5.21"):
        _refused(version, MEGAMOE, "b200", "'fp8'", blackwell)
        _refused(version, MEGAMOE + " --quantization fp8", "h100", "'fp8'", "--quantization fp8")
        _refused(version, MEGAMOE, "h100", "None", "no --quantization, and none taken from the checkpoint")
        # a quantization it takes passes this check (the oracle then stops at the DP-attention
        # assert, which speclint does not model)
        assert errors(version, MEGAMOE + " --quantization modelopt_fp4", "h100") == []
    unquant = "--quantization unquant, which SGLang 0.5.20 sets to None"
    _refused("0.5.20", MEGAMOE + " --quantization unquant", "b200", "None", unquant)


def test_0_5_23_takes_nvfp4_online_only_with_its_switch():
    """0.5.23 adds `quantization == "nvfp4_online" and envs.SGLANG_FLASHINFER_CUTEDSL_NVFP4_W4A16
    .get()` (read with environ.py's `EnvBool(False)`). Oracle (resolve_cases.py, 0.5.23, fake
    B200): the checkpoint's fp8 and nvfp4_online unset are refused; =1 passes this check."""
    _refused(
        "0.5.23",
        MEGAMOE,
        "b200",
        "'fp8'",
        "the checkpoint's quantization_config (fp8), which SGLang takes for DeepSeek-V3 on the "
        "NVIDIA B200 (SM100)",
    )
    online = MEGAMOE + " --quantization nvfp4_online"
    refusal(
        "0.5.23",
        online,
        "--moe-a2a-backend flashinfer_megamoe",
        "handle_a2a_moe",
        "or nvfp4_online with SGLANG_FLASHINFER_CUTEDSL_NVFP4_W4A16=1; got quantization='nvfp4_online'.",
        gpu="b200",
    )
    [(_, _, message)] = errors("0.5.23", online, "b200")
    assert (
        "; nvfp4_online is taken only where SGLANG_FLASHINFER_CUTEDSL_NVFP4_W4A16 is true, here "
        "SGLANG_FLASHINFER_CUTEDSL_NVFP4_W4A16 is not set (default False)" in message
    )
    assert errors("0.5.23", "SGLANG_FLASHINFER_CUTEDSL_NVFP4_W4A16=1 " + online, "b200") == []
    [(code, _, message)] = errors("0.5.23", "SGLANG_FLASHINFER_CUTEDSL_NVFP4_W4A16=0 " + online, "b200")
    assert code == "SPD009" and "here SGLANG_FLASHINFER_CUTEDSL_NVFP4_W4A16=0," in message
    # a value speclint cannot read is not judged
    assert errors("0.5.23", "SGLANG_FLASHINFER_CUTEDSL_NVFP4_W4A16=$X " + online, "b200") == []


def test_the_quantization_check_is_read_per_release():
    assert megamoe_quantization("0.5.19") is None
    read = megamoe_quantization("0.5.20")
    assert read is not None and read.quantizations == ("mxfp8", "modelopt_fp4") and read.env is None
    assert read.model_terms == ("is_fp4_experts", "nvfp4_moe_meta")
    assert "routed_experts_quant_method" in read.config_keys and "moe_quant_algo" in read.config_keys
    assert "DeepseekV4ForCausalLM" in read.architectures and "MiMoV2ForCausalLM" in read.architectures
    newer = megamoe_quantization("0.5.23")
    assert newer is not None and newer.env is not None
    assert newer.env[0] == "nvfp4_online" and newer.env[1].name == "SGLANG_FLASHINFER_CUTEDSL_NVFP4_W4A16"
