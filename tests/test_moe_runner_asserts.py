"""An explicit --moe-runner-backend against its quantization assert in
`_handle_moe_kernel_config` (0.5.7+; resolve/refusals_moe_runner.py), each release's list and
message read from its wheel by tools/sglang_moe_runner_asserts.py. Expected outcomes are the
releases' own: tools/oracle resolve_cases.py on 0.5.23 and record_release.py on 0.5.14 and
0.5.8.post1 (fake B200 and H100; session 12) gave these refusals, messages and acceptances."""

from __future__ import annotations

import os
import sys
import zipfile
from pathlib import Path

import pytest
from test_refusal_checks import DSV3, LAUNCH, QWEN3, accepted, errors, kernel_config, refusal

from speclint.sglang.moe_defaults import (
    moe_runner_lora,
    moe_runner_overrides,
    moe_runner_quantization,
    moe_runner_refusals,
    sm100_adopting_architectures,
)

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, os.path.join(ROOT, "tools"))
KIMI = "fixtures/models/kimi-k2.5"
HANDLER = "_handle_moe_kernel_config"
TRTLLM_0_5_8 = (
    "AssertionError: Invalid quantization 'awq'. FlashInfer TRTLLM MOE supports only: 'modelopt_fp4', "
    "'fp8', 'modelopt_fp8', 'compressed-tensors', or bfloat16 (None). (quantization awq from "
    "--quantization awq, with --moe-runner-backend flashinfer_trtllm; use a checkpoint in "
    "modelopt_fp4, fp8, modelopt_fp8, compressed-tensors with that --quantization, or another "
    "--moe-runner-backend)"
)
TRTLLM_0_5_14 = (
    "AssertionError: Invalid quantization 'awq'. FlashInfer TRTLLM MOE supports only: 'modelopt_fp4', "
    "'nvfp4_online', 'fp8', 'modelopt_fp8', 'modelopt_mixed', 'compressed-tensors', or bfloat16 "
    "(None). (quantization awq from --quantization awq, with --moe-runner-backend flashinfer_trtllm; "
)


def test_flashinfer_trtllm_refuses_a_quantization_it_does_not_list():
    command = LAUNCH + QWEN3 + " --moe-runner-backend flashinfer_trtllm --quantization awq"
    token = "--moe-runner-backend flashinfer_trtllm"
    refusal("0.5.8.post1", command, token, kernel_config("0.5.8.post1"), TRTLLM_0_5_8, gpu="b200")
    for version in ("0.5.14", "0.5.23"):
        refusal(version, command, token, kernel_config(version), TRTLLM_0_5_14, gpu="b200")
    # the assert does not depend on the GPU (oracle: 0.5.23 on a fake H100, w8a8_int8)
    refusal(
        "0.5.23",
        LAUNCH + QWEN3 + " --moe-runner-backend flashinfer_trtllm --quantization w8a8_int8",
        token,
        kernel_config("0.5.23"),
        "AssertionError: Invalid quantization 'w8a8_int8'. FlashInfer TRTLLM MOE supports only:",
    )


def test_the_routed_and_cutedsl_runners_words_per_release():
    routed = LAUNCH + QWEN3 + " --moe-runner-backend flashinfer_trtllm_routed --quantization modelopt_fp8"
    refusal(
        "0.5.14",
        routed,
        "--moe-runner-backend flashinfer_trtllm_routed",
        kernel_config("0.5.14"),
        "AssertionError: Invalid quantization 'modelopt_fp8'. FlashInfer TRTLLM routed MOE supports "
        "only: 'fp8', 'mxfp8', 'modelopt_fp4', 'nvfp4_online', or bfloat16 (None).",
        gpu="b200",
    )
    refusal(
        "0.5.23",
        routed,
        "--moe-runner-backend flashinfer_trtllm_routed",
        kernel_config("0.5.23"),
        "AssertionError: Invalid quantization 'modelopt_fp8'. FlashInfer TRTLLM routed MOE supports "
        "only: 'fp8', 'mxfp8', 'modelopt_fp4', 'modelopt_mixed', 'nvfp4_online', 'minimax_m3_nvfp4', "
        "or bfloat16 (None).",
        gpu="b200",
    )
    cutedsl = LAUNCH + QWEN3 + " --moe-runner-backend flashinfer_cutedsl --quantization fp8"
    refusal(
        "0.5.14",
        cutedsl,
        "--moe-runner-backend flashinfer_cutedsl",
        kernel_config("0.5.14"),
        "AssertionError: Invalid quantization 'fp8'. FlashInfer CuteDSL MOE currently supports only: "
        "'modelopt_fp4'. (quantization fp8 from --quantization fp8",
        gpu="b200",
    )
    # 0.5.15+: `or ...nvfp4_moe_meta is not None`, false for a config without quantization_config
    refusal(
        "0.5.23",
        cutedsl,
        "--moe-runner-backend flashinfer_cutedsl",
        kernel_config("0.5.23"),
        "AssertionError: Invalid quantization 'fp8'. FlashInfer CuteDSL MOE currently supports only: "
        "'modelopt_fp4', 'modelopt_mixed' (with NVFP4 MoE layers), 'nvfp4_online', or hybrid NVFP4 "
        "models.",
        gpu="b200",
    )


def test_kimi_k25_on_blackwell_takes_its_checkpoint_quantization_before_the_assert():
    for runner, wording in (
        ("flashinfer_cutedsl", "FlashInfer CuteDSL MOE currently supports only"),
        ("flashinfer_trtllm_routed", "FlashInfer TRTLLM routed MOE supports only"),
    ):
        refusal(
            "0.5.23",
            LAUNCH + KIMI + f" --moe-runner-backend {runner}",
            f"--moe-runner-backend {runner}",
            kernel_config("0.5.23"),
            f"AssertionError: Invalid quantization 'compressed-tensors'. {wording}",
            gpu="b200",
        )
    # on an H100 the checkpoint's quantization is not taken: the assert reads None
    accepted("0.5.23", LAUNCH + KIMI + " --moe-runner-backend flashinfer_trtllm_routed")


def test_before_0_5_22_kimi_k25_takes_it_in_its_own_sm100_branch():
    """0.5.9-0.5.14: `model_arch in [..., "KimiK25ForConditionalGeneration", ...]` then
    `if is_sm100_supported(): ... self.quantization = quant_method`
    (`sm100_adopting_architectures`)."""
    refusal(
        "0.5.14",
        LAUNCH + KIMI + " --moe-runner-backend flashinfer_cutedsl",
        "--moe-runner-backend flashinfer_cutedsl",
        kernel_config("0.5.14"),
        "AssertionError: Invalid quantization 'compressed-tensors'. FlashInfer CuteDSL MOE currently "
        "supports only: 'modelopt_fp4'. (quantization compressed-tensors from the checkpoint's "
        "quantization_config (compressed-tensors), which SGLang takes for "
        "KimiK25ForConditionalGeneration on the NVIDIA B200 (SM100), with --moe-runner-backend "
        "flashinfer_cutedsl; use a checkpoint in modelopt_fp4 with that --quantization, or another "
        "--moe-runner-backend)",
        gpu="b200",
    )
    refusal(
        "0.5.14",
        LAUNCH + KIMI + " --moe-runner-backend flashinfer_trtllm_routed",
        "--moe-runner-backend flashinfer_trtllm_routed",
        kernel_config("0.5.14"),
        "AssertionError: Invalid quantization 'compressed-tensors'. FlashInfer TRTLLM routed MOE",
        gpu="b200",
    )
    assert "KimiK25ForConditionalGeneration" in sm100_adopting_architectures("0.5.9")
    assert "KimiK25ForConditionalGeneration" not in sm100_adopting_architectures("0.5.8.post1")


def test_what_the_runners_take_and_what_resolution_rewrites_first_are_accepted():
    for version in ("0.5.8.post1", "0.5.14", "0.5.23"):
        accepted(
            version, LAUNCH + QWEN3 + " --moe-runner-backend flashinfer_trtllm --quantization fp8", "b200"
        )
    # unquant is None by the assert (0.5.11+); mxfp8 moves flashinfer_cutlass to flashinfer_trtllm
    for version in ("0.5.14", "0.5.23"):
        accepted(
            version, LAUNCH + QWEN3 + " --moe-runner-backend flashinfer_trtllm --quantization unquant", "b200"
        )
        accepted(
            version, LAUNCH + QWEN3 + " --moe-runner-backend flashinfer_cutlass --quantization mxfp8", "b200"
        )
    # flashinfer_mxfp4 asserts nothing on the quantization in any release read
    accepted("0.5.23", LAUNCH + QWEN3 + " --moe-runner-backend flashinfer_mxfp4 --quantization awq", "b200")


def test_the_stored_readings():
    assert "flashinfer_trtllm" not in moe_runner_quantization("0.5.1.post3")
    assert moe_runner_quantization("0.5.7")["flashinfer_trtllm"].quantizations == (
        "modelopt_fp4",
        "fp8",
        "modelopt_fp8",
        "compressed-tensors",
        None,
    )
    cutedsl = moe_runner_quantization("0.5.23")["flashinfer_cutedsl"]
    assert cutedsl.alternative == "model_config_of(server_args).nvfp4_moe_meta is not None"
    assert cutedsl.hybrid_nvfp4 == {"quant_algo": "MIXED_PRECISION", "moe_quant_algo": "NVFP4"}
    assert "flashinfer_mxfp4" not in moe_runner_quantization("0.5.23")
    assert moe_runner_overrides("0.5.8.post1") == {}  # 0.5.9: every runner becomes cutlass (below)
    assert moe_runner_overrides("0.5.10") == {
        "mxfp8": ("cutlass", "flashinfer_trtllm", "flashinfer_trtllm_routed")
    }
    assert "flashinfer_cutlass" not in moe_runner_overrides("0.5.23")["mxfp8"]


SOURCE = """
MXFP8_CHOICES = ["cutlass", "flashinfer_trtllm"]


def _handle_moe_kernel_config(self):
    if self.quantization == "mxfp8" and not is_npu():
        allowed = list(MXFP8_CHOICES)
        if self.moe_runner_backend == "auto":
            self.moe_runner_backend = "flashinfer_trtllm"
        elif self.moe_runner_backend not in allowed:
            self.moe_runner_backend = "flashinfer_trtllm"
    if self.moe_runner_backend in ["flashinfer_trtllm", "experimental"]:
        assert self.quantization == "fp8" or self.quantization == "modelopt_fp4", "fp8 or fp4 only"
    if self.moe_runner_backend == "flashinfer_cutedsl":
        assert (
            self.quantization in ["modelopt_fp4"] or model_config(self).nvfp4_moe_meta is not None
        ), f"Invalid quantization '{self.quantization}'."
"""
MODEL_CONFIG = """
class ModelConfig:
    def __init__(self):
        self.nvfp4_moe_meta = None
        cfg = self.hf_config.quantization_config
        if cfg is not None and str(cfg.get("quant_algo", "")).upper() == "MIXED" and cfg.get("g"):
            self.nvfp4_moe_meta = {"g": cfg["g"]}
"""


def test_the_generator_reads_each_runner_assert_and_the_runner_overrides(tmp_path):
    from gen_sglang_moe_defaults import read_release

    wheel = tmp_path / "sglang-0.0.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr("sglang/srt/server_args.py", SOURCE)
        archive.writestr("sglang/srt/configs/model_config.py", MODEL_CONFIG)
    read = dict(read_release(str(wheel)))
    trtllm = {"quantizations": ["fp8", "modelopt_fp4"], "message": "fp8 or fp4 only", "alternative": None}
    assert read["moe_runner_quantization"] == {
        "experimental": trtllm,
        "flashinfer_cutedsl": {
            "quantizations": ["modelopt_fp4"],
            "message": "Invalid quantization '{quantization}'.",
            "alternative": "model_config(self).nvfp4_moe_meta is not None",
            "hybrid_nvfp4": {"quant_algo": "MIXED"},
        },
        "flashinfer_trtllm": trtllm,
    }
    assert read["moe_runner_overrides"] == {"mxfp8": ["cutlass", "flashinfer_trtllm"]}


@pytest.mark.parametrize("version", ["0.5.8.post1", "0.5.14", "0.5.23"])
def test_regenerating_reproduces_the_stored_runner_readings(version):
    from gen_sglang_moe_defaults import read_release
    from gen_sglang_schema import CACHE, wheel_path

    from speclint.sglang.moe_defaults import _reading

    if not list(Path(CACHE).glob(f"sglang-{version}-*.whl")):
        pytest.skip(f"no wheel of {version} cached")
    for name, reading in read_release(wheel_path(version, CACHE)):
        if name.startswith(("moe_runner", "sm100_adopting")):  # overrides, refusals too
            assert _reading(version, name) == reading, (version, name)


ADOPTION = """
class ServerArgs:
    def _handle_model_specific_adjustments(self):
        if model_arch in ["DeepseekV3ForCausalLM", "KimiK25ForConditionalGeneration"]:
            if is_sm100_supported():
                if self.quantization is None:
                    self.quantization = quant_method
        elif model_arch in ["GptOssForCausalLM"]:
            if is_sm100_supported():
                if self.moe_runner_backend == "auto":
                    self.quantization = quant_method
        elif model_arch in ["Qwen3MoeForCausalLM"] and not is_hip():
            if is_sm100_supported():
                self.quantization = quant_method


@_register_for("Glm4MoeForCausalLM")
def _glm4_moe_overrides(server_args, hf_config):
    if get_platform().is_sm100:
        overrides["quantization"] = quant_method
"""


def test_the_generator_reads_which_architectures_take_the_checkpoint_quantization_on_sm100(tmp_path):
    from gen_sglang_moe_defaults import read_release

    wheel = tmp_path / "sglang-0.0.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr("sglang/srt/server_args.py", ADOPTION)
    read = dict(read_release(str(wheel)))
    # GPT-OSS's only under the auto MoE runner: not counted
    assert read["sm100_adopting_architectures"] == [
        "DeepseekV3ForCausalLM",
        "Glm4MoeForCausalLM",
        "KimiK25ForConditionalGeneration",
        "Qwen3MoeForCausalLM",
    ]


LLAMA_DIR = "fixtures/models/llama-3.1-8b-instruct"


def test_nvfp4_online_refuses_an_explicit_runner_it_does_not_take():
    """0.5.14+ `if quantization == "nvfp4_online": ... elif moe_runner_backend not in [...]:
    raise ValueError` (`moe_runner_refusals`; oracle: 0.5.14 and 0.5.23 on a fake B200)."""
    command = LAUNCH + QWEN3 + " --quantization nvfp4_online --moe-runner-backend triton"
    refusal(
        "0.5.14",
        command,
        "--moe-runner-backend triton",
        kernel_config("0.5.14"),
        "ValueError: --quantization nvfp4_online supports only --moe-runner-backend flashinfer_trtllm or "
        "flashinfer_trtllm_routed. (--quantization nvfp4_online with --moe-runner-backend triton; use "
        "--moe-runner-backend flashinfer_trtllm or flashinfer_trtllm_routed, or leave it auto)",
        gpu="b200",
    )
    refusal(
        "0.5.23",
        command,
        "--moe-runner-backend triton",
        "_moe_runner_backend_quant_constraints",
        "ValueError: --quantization nvfp4_online supports only --moe-runner-backend flashinfer_trtllm or "
        "flashinfer_trtllm_routed, or flashinfer_cutedsl; flashinfer_megamoe requires",
        gpu="b200",
    )
    # off SM100 the SM100-only refusal comes first (oracle: 0.5.14 on a fake H100)
    refusal(
        "0.5.14",
        command,
        "--quantization nvfp4_online",
        kernel_config("0.5.14"),
        "ValueError: --quantization nvfp4_online is supported only on NVIDIA Blackwell SM100/SM103 GPUs.",
    )
    # flashinfer_megamoe is taken only beside --moe-a2a-backend flashinfer_megamoe and an
    # environment switch (`use_megamoe_w4a16`, read as `unless_a2a`): without that all-to-all
    # backend it is refused (oracle: 0.5.23 on a fake B200, seed 12022 and this test's launch)
    megamoe = LAUNCH + QWEN3 + " --quantization nvfp4_online --moe-runner-backend flashinfer_megamoe"
    refusal(
        "0.5.23",
        megamoe,
        "--moe-runner-backend flashinfer_megamoe",
        "_moe_runner_backend_quant_constraints",
        "flashinfer_megamoe requires --moe-a2a-backend flashinfer_megamoe and "
        "SGLANG_FLASHINFER_CUTEDSL_NVFP4_W4A16=1. (--quantization nvfp4_online with "
        "--moe-runner-backend flashinfer_megamoe; flashinfer_megamoe is taken only with "
        "--moe-a2a-backend flashinfer_megamoe, here none; use --moe-runner-backend flashinfer_trtllm "
        "or flashinfer_trtllm_routed or flashinfer_cutedsl, or leave it auto)",
        gpu="b200",
    )
    exception = moe_runner_refusals("0.5.23")["nvfp4_online"][4]
    assert exception is not None and (exception.runner, exception.a2a) == ("flashinfer_megamoe",) * 2
    assert moe_runner_refusals("0.5.14")["nvfp4_online"][4] is None


SWITCH = "SGLANG_FLASHINFER_CUTEDSL_NVFP4_W4A16"
MEGAMOE = (
    " --quantization nvfp4_online --tp-size 8 --dp-size 8 --enable-dp-attention "
    "--moe-a2a-backend flashinfer_megamoe --moe-runner-backend flashinfer_megamoe"
)


def test_flashinfer_megamoe_beside_its_a2a_backend_follows_the_environment_switch():
    """Beside --moe-a2a-backend flashinfer_megamoe, 0.5.23 takes the flashinfer_megamoe runner
    under nvfp4_online only where SGLANG_FLASHINFER_CUTEDSL_NVFP4_W4A16 is true: environ.py's
    `EnvBool(False)` when unset, `EnvBool.parse`'s values when set (another value reads as
    the default), both read from the release (`unless_a2a`'s "env"). Oracle (resolve_cases.py,
    0.5.23, fake B200, DeepSeek-V3): refused unset, with 0, no and on; accepted with 1 and TRUE
    (was: never judged beside that backend)."""
    command = LAUNCH + DSV3 + MEGAMOE
    token = "--moe-runner-backend flashinfer_megamoe"
    said = (
        "ValueError: --quantization nvfp4_online supports only --moe-runner-backend flashinfer_trtllm or "
        "flashinfer_trtllm_routed, or flashinfer_cutedsl; flashinfer_megamoe requires --moe-a2a-backend "
        f"flashinfer_megamoe and {SWITCH}=1. (--quantization nvfp4_online with --moe-runner-backend "
        "flashinfer_megamoe; with --moe-a2a-backend flashinfer_megamoe flashinfer_megamoe is taken only "
        f"where {SWITCH} is true, here "
    )
    fix = "; use --moe-runner-backend flashinfer_trtllm or flashinfer_trtllm_routed or flashinfer_cutedsl, or leave it auto)"
    where = "_moe_runner_backend_quant_constraints"
    refusal(
        "0.5.23",
        command,
        token,
        where,
        said + f"{SWITCH} is not set (SGLang 0.5.23's default: False)" + fix,
        gpu="b200",
    )
    for value in ("0", "no", "on"):
        refusal(
            "0.5.23",
            f"{SWITCH}={value} " + command,
            token,
            where,
            said + f"{SWITCH}={value}" + fix,
            gpu="b200",
        )
    for value in ("1", "TRUE"):
        accepted("0.5.23", f"{SWITCH}={value} " + command, "b200")
    # a value speclint cannot read: not judged
    accepted("0.5.23", f'{SWITCH}="$W4A16" ' + command, "b200")
    switch = moe_runner_refusals("0.5.23")["nvfp4_online"][4].env  # type: ignore[union-attr]
    assert switch is not None and (switch.name, switch.default) == (SWITCH, False)


def test_modelopt_is_asserted_on_as_given_where_the_checkpoint_states_no_quantization():
    """Oracle: 0.5.8.post1, 0.5.14 and 0.5.23 refuse 'modelopt' under flashinfer_trtllm on a
    config.json without quantization_config; one with it canonicalizes first: not judged."""
    command = LAUNCH + LLAMA_DIR + " --quantization modelopt --moe-runner-backend flashinfer_trtllm"
    for version in ("0.5.8.post1", "0.5.14", "0.5.23"):
        refusal(
            version,
            command,
            "--moe-runner-backend flashinfer_trtllm",
            kernel_config(version),
            "AssertionError: Invalid quantization 'modelopt'. FlashInfer TRTLLM MOE supports only:",
            gpu="b200",
        )
    assert moe_runner_refusals("0.5.13") == {}


def test_a_lora_moe_runner_needs_lora_on():
    """0.5.23 `check_lora_moe_runner_args` (`moe_runner_lora`; found by the seed 12022
    differential: lora_cutedsl, lora_marlin, lora_triton refused without --enable-lora)."""
    for runner in ("lora_cutedsl", "lora_triton"):
        refusal(
            "0.5.23",
            LAUNCH + QWEN3 + f" --moe-runner-backend {runner}",
            f"--moe-runner-backend {runner}",
            "check_lora_moe_runner_args",
            f"ValueError: --moe-runner-backend {runner} requires --enable-lora (or --lora-paths) (LoRA is "
            "off in this launch; add --enable-lora and --lora-paths, or pick a --moe-runner-backend that "
            "is not a LoRA one)",
        )
    assert moe_runner_lora("0.5.22") is None


LORA = """
def check_lora_moe_runner_args(server_args):
    cfg = resolving_view(server_args)
    backend = cfg.moe_runner_backend
    if not backend.startswith("lora"):
        return
    if not cfg.enable_lora:
        raise ValueError(f"--moe-runner-backend {backend} needs LoRA")
"""


def test_the_generator_reads_the_lora_runner_check():
    import ast

    from sglang_moe_runner_asserts import read_lora_runner

    assert read_lora_runner([("x.py", ast.parse(LORA), LORA)]) == {
        "prefix": "lora",
        "message": "--moe-runner-backend {runner} needs LoRA",
        "where": "check_lora_moe_runner_args",
    }


def test_the_oracle_moe_generator_adds_runners_to_the_quantization_draws():
    sys.path.insert(0, os.path.join(ROOT, "tools", "oracle"))
    import battery

    plain, moe = battery.quantization("0.5.23", 12022, 40), battery.moe("0.5.23", 12022, 40)
    assert [c["argv"][: len(p["argv"])] for c, p in zip(moe, plain)] == [p["argv"] for p in plain]
    from speclint.sglang.flags.schema import options_of

    runners = [c["argv"][-1] for c in moe if "--moe-runner-backend" in c["argv"]]
    choices = options_of("0.5.23")["--moe-runner-backend"].choices or ()
    assert len(runners) > 20 and set(runners) <= set(choices)
    assert sum(c["gpu"] == "B200" for c in moe) > sum(c["gpu"] == "B200" for c in plain)


def test_no_quantization_is_asserted_on_where_none_is_taken():
    """No --quantization, and a checkpoint (config.json read) that states none, on an
    architecture that adopts nothing: the assert reads None, which flashinfer_cutedsl does not
    list (oracle: 0.5.14 and 0.5.23 on a fake B200 refuse Llama 3.1 with flashinfer_cutedsl,
    accept it with flashinfer_trtllm, which lists None)."""
    command = LAUNCH + LLAMA_DIR + " --moe-runner-backend flashinfer_cutedsl"
    for version in ("0.5.14", "0.5.23"):
        refusal(
            version,
            command,
            "--moe-runner-backend flashinfer_cutedsl",
            kernel_config(version),
            "AssertionError: Invalid quantization 'None'. FlashInfer CuteDSL MOE currently supports only: "
            "'modelopt_fp4'",
            gpu="b200",
        )
        accepted(version, LAUNCH + LLAMA_DIR + " --moe-runner-backend flashinfer_trtllm", "b200")
    assert (
        "(quantization None from no --quantization, and a checkpoint whose config.json states none"
        in (errors("0.5.14", command, "b200")[0][2])
    )


def test_unquant_is_asserted_on_as_none_where_the_release_sets_none_first():
    """0.5.11+ turn --quantization unquant into None before the asserts and take no quantization
    from the checkpoint afterwards (`_quantization_explicitly_unset`, read per release:
    `model_config_facts.unquant_unset`), so flashinfer_cutedsl refuses it as it refuses no
    --quantization (oracle: 0.5.16 on a fake B200, seed moe-14003). The finding points at the
    runner, as for any quantization it does not take."""
    command = LAUNCH + LLAMA_DIR + " --quantization unquant --moe-runner-backend flashinfer_cutedsl"
    for version in ("0.5.11", "0.5.16", "0.5.23"):
        [(code, column, message)] = errors(version, command, "b200")
        assert (code, column) == ("SPD009", command.index("flashinfer_cutedsl") + 1), message
        assert message.startswith(
            f"SGLang {version} refuses this launch in {kernel_config(version)}: AssertionError: Invalid quantization "
            "'None'. FlashInfer CuteDSL MOE currently supports only: 'modelopt_fp4'"
        ), message
        assert (
            f"(quantization None from --quantization unquant, which SGLang {version} sets to None, "
            "with --moe-runner-backend flashinfer_cutedsl; use a checkpoint in modelopt_fp4"
        ) in message
        accepted(version, command.replace("flashinfer_cutedsl", "flashinfer_trtllm"), "b200")
    from speclint.sglang.model_config_facts import unquant_unset

    assert unquant_unset("0.5.11") and not unquant_unset("0.5.10")  # 0.5.10 has no unquant


def test_a_checkpoint_quantization_the_release_does_not_take_is_asserted_on_as_none():
    """The assert reads the quantization the resolution holds, and the resolution takes the
    checkpoint's only for the architectures (and GPUs) it is written for
    (`moe_defaults.quantization_adopters`, read per release by tools/sglang_quant_adopters.py):
    DeepSeek-V3's FP8 checkpoint on an H100 (the adoption is SM100-only) and a GPTQ Qwen3 on a
    B200 (no adoption written for Qwen3ForCausalLM) leave None, which flashinfer_cutedsl does not
    take (oracle: 0.5.11-0.5.21 and 0.5.12, seeds moe-14005/14010); on a B200 DeepSeek-V3 takes
    fp8, also refused, with that value; --quantization unquant, which every DeepSeek-V3 adoption
    skips, reads None there too (0.5.17-0.5.19)."""
    deepseek = LAUNCH + "fixtures/models/deepseek-v3 --moe-runner-backend flashinfer_cutedsl"
    at = deepseek.index("flashinfer_cutedsl") + 1
    for version in ("0.5.11", "0.5.21"):
        [(code, column, message)] = errors(version, deepseek, "h100")
        assert (code, column) == ("SPD009", at), message
        assert "AssertionError: Invalid quantization 'None'." in message
        assert (
            f"(quantization None from no --quantization, and SGLang {version} does not take the "
            "checkpoint's quantization_config into it for DeepseekV3ForCausalLM on the NVIDIA H100 "
            "80GB HBM3, with --moe-runner-backend flashinfer_cutedsl;"
        ) in message
        [(_, _, message)] = errors(version, deepseek, "b200")
        assert "Invalid quantization 'fp8'." in message
    unquant = deepseek + " --quantization unquant"
    [(code, column, message)] = errors("0.5.19", unquant, "b200")
    assert (code, column) == ("SPD009", at), message
    assert "(quantization None from --quantization unquant, which SGLang 0.5.19 sets to None" in message
    gptq = LAUNCH + "fixtures/models/qwen3-8b-gptq-int4 --moe-runner-backend flashinfer_cutedsl"
    [(code, column, message)] = errors("0.5.12", gptq, "b200")
    assert (code, column) == ("SPD009", gptq.index("flashinfer_cutedsl") + 1), message
    assert "Invalid quantization 'None'." in message
    assert errors("0.5.23", deepseek, "h100") == []  # 0.5.23's adoptions are not all placed


def test_the_adoption_reader_places_each_statement_under_its_architectures():
    from sglang_quant_adopters import read_quantization_adopters

    def read(source: str) -> object:
        import ast

        return read_quantization_adopters([("server_args.py", ast.parse(source), source)])

    inline = (
        "class S:\n"
        "    def adjust(self, model_arch):\n"
        "        if model_arch in ['A', 'B']:\n"
        "            if is_sm100_supported() and not self._quantization_explicitly_unset:\n"
        "                self.quantization = quant_method\n"
        "        self.quantization = None\n"
    )
    assert read(inline) == [{"architectures": ["A", "B"], "gpu_gated": True, "unset_guarded": True}]
    guarded = (
        "FAMILY = frozenset(['C'])\n"
        "def hook(args, hf_config):\n"
        "    if hf_config.architectures[0] not in FAMILY:\n"
        "        return {}\n"
        "    return declare(args, quantization=quant_method)\n"
    )
    assert read(guarded) == [{"architectures": ["C"], "gpu_gated": False, "unset_guarded": False}]
    assert read("def f(args):\n    args.quantization = method\n") is None  # not placed


def test_the_draft_runner_is_unknown_where_the_release_picks_the_target_runner():
    """0.5.23 gives the draft the runner it picks for --quantization mxfp8 / nvfp4_online
    (flashinfer_trtllm; oracle, seed 12021: speclint said auto); that pick is not modelled, so
    the draft's runner is unknown, with why."""
    from test_differential_values import _effective, _launch

    from speclint.sglang.resolve import is_known

    qwen3 = str(ROOT / "fixtures" / "models" / "qwen3-8b")
    effective = _effective("0.5.23", _launch(qwen3, "--quantization mxfp8"), "h100")
    value = effective["speculative_moe_runner_backend"]
    assert not is_known(value)
    assert "picks for --quantization mxfp8, which speclint does not model" in value.reason
    assert (
        _effective("0.5.23", _launch(qwen3, "--quantization fp8"), "h100")["speculative_moe_runner_backend"]
        == "auto"
    )


def test_mxfp8_replaces_every_runner_with_cutlass_on_0_5_9():
    """0.5.9 `_handle_moe_kernel_config`: `if quantization == "mxfp8": if moe_runner_backend not
    in ["auto", "cutlass"]: logger.warning(...)` then `moe_runner_backend = "cutlass"` whatever
    it was, before the FlashInfer runners' asserts (read as `moe_runner_overrides`, the branch's
    next statement setting the runner). Oracle (record_release.py, 0.5.9, fake H100 and B200):
    Qwen3 with mxfp8 accepted under flashinfer_cutlass, flashinfer_trtllm, triton, deep_gemm,
    all run as cutlass (was: flashinfer_cutlass and flashinfer_trtllm refused, false errors)."""
    command = LAUNCH + QWEN3 + " --quantization mxfp8 --moe-runner-backend "
    for runner, gpu in (
        ("flashinfer_cutlass", "b200"),
        ("flashinfer_cutlass", "h100"),
        ("flashinfer_trtllm", "b200"),
    ):
        accepted("0.5.9", command + runner, gpu)
    assert moe_runner_overrides("0.5.9") == {"mxfp8": ("auto", "cutlass")}
    assert moe_runner_overrides("0.5.8.post1") == {}


def test_flashinfer_megamoe_a2a_needs_an_architecture_the_release_validates():
    """0.5.20+ `validate_flashinfer_megamoe_model` (read as `megamoe_architectures`): beside
    --moe-a2a-backend flashinfer_megamoe the target's architectures must include a validated
    one, whatever the runner. Oracle (record_release.py, 0.5.20 and 0.5.23, fake H100/B200):
    Qwen3, Llama and Kimi-K2.5 refused so (was: nothing said); DeepSeek-V3 passes this test."""
    for version, first in (("0.5.20", "DeepseekV2ForCausalLM"), ("0.5.23", "BeamForCausalLM")):
        for model, arch, gpu in (
            ("qwen3-8b", "Qwen3ForCausalLM", "b200"),
            ("llama-3.1-8b-instruct", "LlamaForCausalLM", "h100"),
        ):
            command = LAUNCH + f"fixtures/models/{model} --moe-a2a-backend flashinfer_megamoe"
            refusal(
                version,
                command,
                "--moe-a2a-backend flashinfer_megamoe",
                "handle_a2a_moe",
                f"ValueError: FlashInfer MegaMOE is not validated for model architectures ['{arch}']. "
                f"Supported architectures: ['{first}', ",
                gpu=gpu,
            )
            [(_, _, message)] = errors(version, command, gpu)
            assert message.endswith(
                f"(--moe-a2a-backend flashinfer_megamoe on {arch}; pick another --moe-a2a-backend, "
                "or a model of an architecture it validates)"
            )
        assert not any(
            "not validated" in m
            for _, _, m in errors(
                version, LAUNCH + DSV3 + " --moe-a2a-backend flashinfer_megamoe --tp-size 8", "b200"
            )
        )
