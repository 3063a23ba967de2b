"""MoE refusals resting on a value SGLang picks itself (session 9): MoRI against the chunked
prefill size SGLang defaults to for the GPU's memory, the FlashInfer-Cutlass MoE runner on an
fp8 model, the Cutlass MoE runner's ep_size == 1 on DeepSeek-V3 on Blackwell. Expected outcomes
are the releases' own (tools/oracle: record_release.py on 0.5.4.post3, 0.5.6.post2, 0.5.9,
0.5.14, 0.5.18, 0.5.21 and resolve_cases.py on 0.5.23, fake H100, B200, GB200, L40S, A100 40 GB, RTX 5090); a launch
SGLang accepts gives no error."""

from __future__ import annotations

import pytest
from test_refusal_checks import DSV3, LAUNCH, LLAMA, QWEN3, a2a_moe, accepted, errors, kernel_config, refusal

MORI = LAUNCH + QWEN3 + " --tp-size 2 --moe-a2a-backend mori"
PER_RANK = (
    "AssertionError: SGLANG_MORI_NUM_MAX_DISPATCH_TOKENS_PER_RANK (default 4096) must be >= the "
    "per-rank MoRI dispatch tokens (chunked_prefill_size by default) (chunked_prefill_size "
)
LARGER = (
    "AssertionError: SGLANG_MORI_NUM_MAX_DISPATCH_TOKENS_PER_RANK (default 4096) must be "
    "larger or equal to chunked_prefill_size (chunked_prefill_size "
)
"""0.5.15+ / 0.5.9-0.5.14 (each release's wording, as the oracle recorded it)."""
H100 = "SGLang's default 8192 for the NVIDIA H100 80GB HBM3's 81559 MiB, > its default 4096; "
B200 = "SGLang's default 16384 for the NVIDIA B200's 183359 MiB"


@pytest.mark.parametrize("version", ["0.5.14", "0.5.18", "0.5.21", "0.5.23"])
def test_mori_refuses_the_default_chunked_prefill_of_an_80_gb_gpu(version):
    refusal(
        version,
        MORI,
        "--moe-a2a-backend mori",
        a2a_moe(version),
        (LARGER if version == "0.5.14" else PER_RANK)
        + "8192: "
        + H100
        + "pass --chunked-prefill-size 4096 or lower, or set "
        "SGLANG_MORI_NUM_MAX_DISPATCH_TOKENS_PER_RANK to at least 8192)",
    )


def test_mori_before_0_5_10_words_it_against_chunked_prefill_and_checks_decode_nodes():
    says = LARGER + "16384: " + B200
    refusal("0.5.9", MORI, "--moe-a2a-backend mori", a2a_moe("0.5.9"), says, gpu="b200")
    refusal(
        "0.5.9",
        MORI + " --disaggregation-mode decode",
        "--moe-a2a-backend mori",
        a2a_moe("0.5.9"),
        says,
        gpu="b200",
    )
    # 0.5.10+ skip decode nodes
    accepted("0.5.14", MORI + " --disaggregation-mode decode")
    refusal(
        "0.5.23",
        MORI + " --disaggregation-mode prefill",
        "--moe-a2a-backend mori",
        a2a_moe("0.5.23"),
        PER_RANK,
    )


@pytest.mark.parametrize("gpu", ["l40s", "a100-40g", "rtx5090"])
def test_mori_accepts_the_default_of_a_gpu_under_60_gb(gpu):
    for version in ("0.5.9", "0.5.14", "0.5.23"):
        accepted(version, MORI, gpu)


def test_mori_default_chunk_is_split_over_attention_dp_first():
    launch = LAUNCH + DSV3 + " --tp-size 8 --moe-a2a-backend mori --enable-dp-attention --dp-size "
    for version in ("0.5.14", "0.5.21", "0.5.23"):
        refusal(
            version,
            launch + "2",
            "--moe-a2a-backend mori",
            a2a_moe(version),
            (LARGER if version == "0.5.14" else PER_RANK)
            + "8192: "
            + B200
            + " / attention-DP size 2, > its default 4096;",
            gpu="b200",
        )
        accepted(version, launch + "4", "b200")
        accepted(version, launch + "2")  # H100: 8192 / 2


def test_mori_default_chunk_fits_a_larger_buffer_or_says_nothing_unread():
    accepted("0.5.23", "SGLANG_MORI_NUM_MAX_DISPATCH_TOKENS_PER_RANK=8192 " + MORI)
    # --enable-mis turns chunked prefill off (its own asserts are another check's)
    mis = errors("0.5.23", LAUNCH + LLAMA + " --tp-size 2 --moe-a2a-backend mori --enable-mis")
    assert not any("MORI" in message for _, _, message in mis), mis
    assert errors("0.5.23", MORI, gpu=None) == []  # the default depends on the GPU
    assert errors("0.5.23", LAUNCH + "org/unknown-moe --tp-size 2 --moe-a2a-backend mori") == []


# --- the FlashInfer-Cutlass MoE runner (`_handle_moe_kernel_config`, 0.5.6+) ---

FI_CUTLASS = " --moe-runner-backend flashinfer_cutlass"
INVALID = "AssertionError: Invalid quantization 'fp8'. FlashInfer Cutlass MOE supports only: 'modelopt_fp4', 'modelopt_fp8', "


def test_flashinfer_cutlass_refuses_an_fp8_quantization_given():
    command = LAUNCH + QWEN3 + FI_CUTLASS + " --quantization fp8"
    refusal("0.5.9", command, "--quantization fp8", kernel_config("0.5.9"), INVALID + "or bfloat16 (None).")
    for version in ("0.5.14", "0.5.18", "0.5.21", "0.5.23"):
        refusal(
            version,
            command,
            "--quantization fp8",
            kernel_config(version),
            INVALID + "'modelopt_mixed', or bfloat16 (None). (quantization fp8 from --quantization "
            "fp8, with the flashinfer_cutlass MoE runner; use a checkpoint in modelopt_fp4, "
            "modelopt_fp8, modelopt_mixed, or another --moe-runner-backend)",
        )
    accepted("0.5.23", LAUNCH + QWEN3 + FI_CUTLASS + " --quantization modelopt_fp4")


def test_the_0_5_6_flashinfer_cutlass_refusal_is_one_line():
    """0.5.6's assert message is written across two source lines ('... \\nFlashInfer ...');
    every MoE runner refusal joins them (moe_refusal.moe_kernel_stop), the `--quantization fp8`
    one on 0.5.6 too (was: a line break inside the finding)."""
    command = LAUNCH + QWEN3 + FI_CUTLASS + " --quantization fp8"
    refusal(
        "0.5.6",
        command,
        "--moe-runner-backend flashinfer_cutlass",
        kernel_config("0.5.6"),
        INVALID + "or bfloat16 (None). (--quantization fp8 with the flashinfer_cutlass MoE runner; "
        "use --quantization modelopt_fp4 with a checkpoint of that format, or another MoE runner)",
        gpu="b200",
    )


def test_flashinfer_cutlass_refuses_deepseek_v3_fp8_checkpoint_on_blackwell():
    command = LAUNCH + DSV3 + " --tp-size 8" + FI_CUTLASS
    for version, gpu in (("0.5.9", "b200"), ("0.5.14", "gb200"), ("0.5.21", "b200"), ("0.5.23", "b200")):
        refusal(
            version,
            command,
            "--moe-runner-backend flashinfer_cutlass",
            kernel_config(version),
            "(quantization fp8 from the checkpoint's quantization_config (fp8), which SGLang takes "
            "for DeepSeek-V3 on the NVIDIA ",
            gpu=gpu,
        )
        # Hopper: no quantization is taken, the runner runs bfloat16
        accepted(version, command)


def test_flashinfer_cutlass_on_deepseek_v3_on_blackwell_in_0_5_4_to_0_5_6():
    command = LAUNCH + DSV3 + " --tp-size 8" + FI_CUTLASS
    # 0.5.4 sets fp8 for DeepSeek-V3 only with the auto runner: the assert reads None
    refusal(
        "0.5.4.post3",
        command,
        "--moe-runner-backend flashinfer_cutlass",
        kernel_config("0.5.4.post3"),
        "AssertionError: modelopt_fp4 quantization is required for Flashinfer MOE (quantization "
        "None from no --quantization (this release sets one for DeepSeek-V3 only with the auto "
        "MoE runner), with the flashinfer_cutlass MoE runner; use a checkpoint in modelopt_fp4,",
        gpu="b200",
    )
    refusal(
        "0.5.6.post2",
        command,
        "--moe-runner-backend flashinfer_cutlass",
        kernel_config("0.5.6.post2"),
        INVALID + "or bfloat16 (None). (quantization fp8 from the checkpoint's quantization_config",
        gpu="b200",
    )


def test_flashinfer_trtllm_on_deepseek_v3_without_quantization_on_blackwell_in_0_5_4():
    """0.5.4.post1-0.5.4.post3 set fp8 for DeepSeek-V3 on SM100 only with the auto MoE runner:
    an explicit flashinfer_trtllm runner's assert reads None (oracle, moe seed 15004: 0.5.4.post1
    on a fake B200; was: nothing said, as if the checkpoint's fp8 were taken); 0.5.5 takes it."""
    command = LAUNCH + DSV3 + " --moe-runner-backend flashinfer_trtllm"
    for version, listed in (
        ("0.5.4.post1", "modelopt_fp4 or fp8"),
        ("0.5.4.post3", "modelopt_fp4 or modelopt_fp8 or fp8"),
    ):
        refusal(
            version,
            command,
            "--moe-runner-backend flashinfer_trtllm",
            kernel_config(version),
            "quantization is required for Flashinfer TRTLLM MoE (no --quantization: SGLang "
            f"{version} sets fp8 for DeepSeek-V3 on SM100 only with the auto MoE runner; name the "
            f"checkpoint's quantization ({listed}) with --quantization, or leave the runner auto)",
            gpu="b200",
        )


def test_flashinfer_cutlass_ep_size_is_one_or_tp_size():
    command = LAUNCH + DSV3 + " --tp-size 8" + FI_CUTLASS
    for version in ("0.5.9", "0.5.18", "0.5.23"):
        refusal(
            version,
            command + " --ep-size 2",
            "--ep-size 2",
            kernel_config(version),
            "AssertionError: The expert parallel size must be 1 or the same as the tensor parallel "
            "size (--ep-size 2 with --tp-size 8 and the flashinfer_cutlass MoE runner; use "
            "--ep-size 1 or --ep-size 8)",
        )
        accepted(version, command + " --ep-size 8")


def test_the_kernel_asserts_read_the_ep_size_given_before_the_all_to_all_backend_sets_tp_size():
    """`_handle_moe_kernel_config` runs before `_handle_a2a_moe` (which sets ep_size = tp_size)."""
    deepep = LAUNCH + DSV3 + " --tp-size 8 --moe-a2a-backend deepep --moe-runner-backend "
    for version in ("0.5.14", "0.5.23"):
        refusal(
            version,
            deepep + "flashinfer_cutlass --ep-size 2",
            "--ep-size 2",
            kernel_config(version),
            "The expert parallel size must be 1 or the same as the tensor parallel size",
        )
        refusal(
            version,
            deepep + "cutlass --ep-size 8",
            "--ep-size 8",
            kernel_config(version),
            "FP8/MXFP8 Cutlass MoE is only supported with ep_size == 1",
            gpu="b200",
        )
        accepted(version, deepep + "cutlass", "b200")  # ep_size 1 when the assert reads it


# --- the Cutlass MoE runner on DeepSeek-V3 on Blackwell ---

CUTLASS = LAUNCH + DSV3 + " --moe-runner-backend cutlass --tp-size "


def test_cutlass_moe_refuses_expert_parallel_on_deepseek_v3_on_blackwell():
    for version in ("0.5.9", "0.5.14", "0.5.18", "0.5.21", "0.5.23"):
        for gpu, tp in (("b200", "8"), ("gb200", "4")):
            refusal(
                version,
                CUTLASS + tp + " --ep-size " + tp,
                "--ep-size " + tp,
                kernel_config(version),
                "AssertionError: FP8/MXFP8 Cutlass MoE is only supported with ep_size == 1 "
                f"(--moe-runner-backend cutlass with ep_size {tp} and quantization fp8 from the "
                "checkpoint's quantization_config (fp8), which SGLang takes for DeepSeek-V3 on the",
                gpu=gpu,
            )
        accepted(version, CUTLASS + "8", "b200")  # ep_size 1
        accepted(version, CUTLASS + "8 --ep-size 8")  # H100: the checkpoint's fp8 is not taken
    refusal(
        "0.5.6.post2",
        CUTLASS + "8 --ep-size 8",
        "--ep-size 8",
        kernel_config("0.5.6.post2"),
        "AssertionError: FP8 Cutlass MoE is only supported with ep_size == 1 (--moe-runner-backend "
        "cutlass with ep_size 8 and quantization fp8 from the checkpoint's",
        gpu="b200",
    )
    # 0.5.4 takes no quantization for DeepSeek-V3 with an explicit runner
    accepted("0.5.4.post3", CUTLASS + "8 --ep-size 8", "b200")


# --- session 11: --quantization refused off SM100 (the 0.5.23 oracle differential, seed 1101) ---

NVFP4_ONLINE = LAUNCH + QWEN3 + " --quantization nvfp4_online"
OFF_SM100 = (
    "ValueError: --quantization nvfp4_online is supported only on NVIDIA Blackwell SM100/SM103 "
    "GPUs. (--quantization nvfp4_online on the "
)


@pytest.mark.parametrize(
    ("version", "handler"),
    [("0.5.14", "_handle_moe_kernel_config"), ("0.5.23", "_moe_runner_backend_quant_constraints")],
)
def test_nvfp4_online_is_refused_off_sm100(version, handler):
    for gpu, name in (
        ("h100", "NVIDIA H100 80GB HBM3, SM 9.0"),
        ("rtx5090", "NVIDIA GeForce RTX 5090, SM 12.0"),
    ):
        refusal(
            version,
            NVFP4_ONLINE,
            "--quantization nvfp4_online",
            handler,
            OFF_SM100 + name + "; use a GPU with SM 10.x, or pick another --quantization)",
            gpu=gpu,
        )
    accepted(version, NVFP4_ONLINE, gpu="b200")
    accepted(version, NVFP4_ONLINE, gpu=None)  # the GPU not given: nothing said


@pytest.mark.oracle
def test_the_real_0_5_23_refuses_nvfp4_online_off_sm100():
    from oracle_harness import model, run_oracle

    argv = ["--model-path", model("qwen3-8b"), "--quantization", "nvfp4_online"]
    h100, b200 = run_oracle([{"argv": argv, "gpu": "H100"}, {"argv": argv, "gpu": "B200"}])
    assert not h100["ok"] and h100["error"] in errors("0.5.23", NVFP4_ONLINE)[0][2]
    assert b200["ok"] and errors("0.5.23", NVFP4_ONLINE, "b200") == []


def test_mori_with_a_given_chunk_skips_decode_nodes_from_0_5_10():
    """The size given: 0.5.10+ skip the check on a decode node (`self.disaggregation_mode !=
    "decode"`), 0.5.9 checks it. Oracle (record.py --generator a2a, seed 16005, 0.5.18, fake
    B200): DeepSeek-V3 fp8 TP 8 MoRI decode with --chunked-prefill-size 131072 accepted (was: a
    false refusal; the resolution does not track disaggregation_mode, so the launch's own value
    is read)."""
    launch = (
        LAUNCH + DSV3 + " --tp-size 8 --quantization fp8 --moe-a2a-backend mori --chunked-prefill-size 131072"
    )
    accepted("0.5.18", launch + " --disaggregation-mode decode", "b200")
    for version in ("0.5.9", "0.5.18"):
        mode = " --disaggregation-mode " + ("decode" if version == "0.5.9" else "prefill")
        [(code, _, message)] = errors(version, launch + mode, "b200")
        assert code == "SPD009" and "(chunked_prefill_size 131072 > its default 4096;" in message, message


@pytest.mark.parametrize("version", ["0.5.16", "0.5.18", "0.5.23"])
def test_mori_default_chunk_comes_after_the_moe_runner_assert(version):
    """`_handle_moe_kernel_config` runs before `_handle_a2a_moe`: with MoRI on the H100's default
    chunk (8192 > 4096) and --moe-runner-backend flashinfer_cutlass on an fp8 model, the runner's
    assert is what SGLang raises. Oracle (custom cases, 0.5.16, 0.5.17, 0.5.18, 0.5.23, fake H100)."""
    launch = (
        LAUNCH
        + DSV3
        + " --tp-size 8 --quantization fp8 --moe-a2a-backend mori --moe-runner-backend flashinfer_cutlass"
    )
    [(code, column, message)] = errors(version, launch)
    assert (code, column) == ("SPD009", launch.index("--quantization fp8") + len("--quantization ") + 1)
    assert "AssertionError: Invalid quantization 'fp8'. FlashInfer Cutlass MOE supports only:" in message
    assert "MORI" not in message
