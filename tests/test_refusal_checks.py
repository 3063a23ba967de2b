"""Refusals speclint did not report (session 7's random launches against the real releases):
FlashInfer and MoRI all-to-all MoE, Flex Attention with speculative decoding, multi-item
scoring, the TP LM-head all-to-all, the MoE runners' quantization and expert-parallel asserts,
switches only some models take. Expected outcomes are the releases' own (tools/oracle's
record_release.py on a fake H100, session 7); a release without the check gives no finding."""

from __future__ import annotations

from pathlib import Path

import pytest
from speclint_runs import run_speclint

from speclint.engine import lint_text
from speclint.settings.options import LintOptions
from speclint.sglang.resolve.gpu_profiles import profile

ROOT = Path(__file__).resolve().parent.parent
M = "fixtures/models/"
DSV3, QWEN3, LLAMA = M + "deepseek-v3", M + "qwen3-8b", M + "llama-3.1-8b-instruct"
LAUNCH = "python -m sglang.launch_server --model-path "


def errors(version: str, command: str, gpu: str | None = "h100") -> list[tuple[str, int, str]]:
    """(code, column, message) of each error on the launch's one line."""
    options = LintOptions(sglang_version=version, read_pyproject=False, gpu=profile(gpu) if gpu else None)
    found = lint_text(command + "\n", "launch.sh", options).findings
    return [(f.code, f.span.column, f.message) for f in found if f.severity.name == "ERROR"]


def kernel_config(version: str) -> str:
    """The frame SGLang's MoE runner asserts raise from, as the oracle recorded it: 0.5.19+
    `sglang.srt.arg_groups.moe_hook:handle_moe_kernel_config` (seeds moe-18002 and a2a-18001,
    0.5.19-0.5.23), before `sglang.srt.server_args:_handle_moe_kernel_config` (0.5.15.post1-0.5.18)."""
    from speclint.sglang.release import Release

    return "_handle_moe_kernel_config" if Release(version) < Release("0.5.19") else "handle_moe_kernel_config"


def a2a_moe(version: str) -> str:
    """The frame SGLang's all-to-all asserts raise from, as the oracle recorded it: 0.5.19+
    `sglang.srt.arg_groups.moe_hook:handle_a2a_moe` (seeds a2a-18001, 19021: 0.5.19-0.5.23),
    before `_handle_a2a_moe`."""
    from speclint.sglang.release import Release

    return "_handle_a2a_moe" if Release(version) < Release("0.5.19") else "handle_a2a_moe"


def refusal(
    version: str, command: str, token: str, handler: str, says: str, gpu: str | None = "h100"
) -> None:
    """The launch gets one SPD009 at `token` (a switch, or the value of "--flag value"),
    naming the handler and SGLang's message."""
    [(code, column, message)] = errors(version, command, gpu)
    flag, _, value = token.partition(" ")
    at = command.index(token) + (len(flag) + 1 if value else 0)
    assert (code, column) == ("SPD009", at + 1), message
    assert message.startswith(f"SGLang {version} refuses this launch in {handler}: "), message
    assert says in message, message


def accepted(version: str, command: str, gpu: str | None = "h100") -> None:
    assert errors(version, command, gpu) == []


# --- FlashInfer all-to-all MoE (`_handle_a2a_moe`) ---

FLASHINFER = LAUNCH + DSV3 + " --tp-size 8 --moe-a2a-backend flashinfer"
DP8 = " --dp-size 8 --enable-dp-attention"


def test_flashinfer_a2a_before_0_5_13_needs_the_flashinfer_cutlass_runner():
    refusal(
        "0.5.9",
        FLASHINFER,
        "--moe-a2a-backend flashinfer",
        a2a_moe("0.5.9"),
        "AssertionError: Flashinfer MoE A2A is only supported with flashinfer_cutlass moe runner "
        "backend (no --moe-runner-backend: the MoE runner stays auto; use --moe-runner-backend "
        "flashinfer_cutlass)",
    )
    # and asks for no DP attention (0.5.11 copies 0.5.14's entry, which has that assert)
    accepted("0.5.11", FLASHINFER + " --moe-runner-backend flashinfer_cutlass")


def test_flashinfer_a2a_needs_dp_attention_over_all_tp_ranks():
    says = "Flashinfer MoE A2A is only supported with dp_size == tp_size and --enable-dp-attention"
    for version in ("0.5.14", "0.5.18", "0.5.21"):
        refusal(version, FLASHINFER, "--moe-a2a-backend flashinfer", a2a_moe(version), says)
    refusal(
        "0.5.22",
        FLASHINFER,
        "--moe-a2a-backend flashinfer",
        a2a_moe("0.5.22"),
        "Flashinfer MoE A2A is only supported with --attn-dp-size equal to --tp-size "
        "(--tp-size 8, --attn-dp-size 1; use --attn-dp-size 8)",
    )
    refusal(
        "0.5.23",
        FLASHINFER,
        "--moe-a2a-backend flashinfer",
        a2a_moe("0.5.23"),
        "Flashinfer MoE A2A requires --attn-dp-size equal to --tp-size, except for Muse Spark",
    )
    accepted("0.5.23", FLASHINFER + " --attn-dp-size 8 --moe-runner-backend flashinfer_cutlass")
    accepted("0.5.18", FLASHINFER + DP8 + " --moe-runner-backend flashinfer_cutlass")


def test_flashinfer_a2a_refuses_an_explicit_runner_it_does_not_take():
    command = FLASHINFER + DP8 + " --moe-runner-backend triton"
    refusal(
        "0.5.18",
        command,
        "--moe-runner-backend triton",
        a2a_moe("0.5.18"),
        "Flashinfer MoE A2A is only supported with flashinfer_cutlass, flashinfer_cutedsl or "
        "flashinfer_trtllm_routed moe runner backend (--moe-runner-backend triton;",
    )
    refusal(
        "0.5.19",
        command,
        "--moe-runner-backend triton",
        a2a_moe("0.5.19"),
        "FlashInfer MoE A2A is supported with flashinfer_cutlass, flashinfer_cutedsl, "
        "flashinfer_trtllm, flashinfer_trtllm_routed, or deep_gemm.",
    )
    accepted("0.5.19", FLASHINFER + DP8 + " --moe-runner-backend flashinfer_trtllm")
    # 'auto' stays auto where no function writing the runner applies (tests/test_flashinfer_a2a_auto.py);
    # one may apply to a model whose config.json is not read: nothing said
    accepted("0.5.18", FLASHINFER.replace(DSV3, "org/unknown-moe") + DP8)


def test_flashinfer_a2a_reads_the_auto_runner_in_0_5_13_to_0_5_14_once_the_gpu_is_known():
    refusal(
        "0.5.14",
        FLASHINFER + DP8,
        "--moe-a2a-backend flashinfer",
        a2a_moe("0.5.14"),
        "Flashinfer MoE A2A is only supported with flashinfer_cutlass or flashinfer_cutedsl moe "
        "runner backend (no --moe-runner-backend: the MoE runner stays auto; use --moe-runner-backend "
        "flashinfer_cutlass)",
    )
    accepted("0.5.14", FLASHINFER + DP8, gpu=None)  # an SM120 GPU picks flashinfer_cutlass


# --- MoRI all-to-all: the dispatch buffer holds SGLANG_MORI_NUM_MAX_DISPATCH_TOKENS_PER_RANK ---

MORI = LAUNCH + QWEN3 + " --tp-size 2 --moe-a2a-backend mori --chunked-prefill-size 8192"


def test_mori_refuses_a_chunked_prefill_larger_than_its_dispatch_buffer():
    refusal(
        "0.5.23",
        MORI,
        "--chunked-prefill-size 8192",
        a2a_moe("0.5.23"),
        "AssertionError: SGLANG_MORI_NUM_MAX_DISPATCH_TOKENS_PER_RANK (default 4096) must be >= "
        "the per-rank MoRI dispatch tokens (chunked_prefill_size by default) (chunked_prefill_size "
        "8192 > its default 4096; set SGLANG_MORI_NUM_MAX_DISPATCH_TOKENS_PER_RANK to at least "
        "8192 or lower --chunked-prefill-size)",
    )
    accepted("0.5.23", "SGLANG_MORI_NUM_MAX_DISPATCH_TOKENS_PER_RANK=8192 " + MORI)
    accepted("0.5.23", MORI.replace("8192", "4096"))


def test_mori_checks_a_given_chunked_prefill_size_where_the_gpu_resolution_is_not_modelled():
    # 0.5.18's GPU-dependent resolution is not modelled, but a given size without attention
    # DP is kept as given (given_sizes.py); the release's own resolution refuses 8192 and
    # accepts 4096 (session 11, tools/oracle/record_release.py on 0.5.14 and 0.5.18)
    refusal(
        "0.5.18",
        MORI,
        "--chunked-prefill-size 8192",
        a2a_moe("0.5.18"),
        "AssertionError: SGLANG_MORI_NUM_MAX_DISPATCH_TOKENS_PER_RANK (default 4096) must be >= "
        "the per-rank MoRI dispatch tokens",
    )
    accepted("0.5.18", MORI.replace("8192", "4096"))


# --- attention backends ---

EAGLE3 = (
    " --speculative-algorithm EAGLE3 --speculative-draft-model-path "
    + M
    + "eagle3-llama-3.1-8b-instruct --speculative-num-steps 3 --speculative-eagle-topk 1 "
    "--speculative-num-draft-tokens 4"
)
FLEX = LAUNCH + QWEN3 + EAGLE3 + " --attention-backend flex_attention"


@pytest.mark.parametrize("version", ["0.5.3.post3", "0.5.14", "0.5.23"])
def test_flex_attention_refuses_speculative_decoding(version):
    refusal(
        version,
        FLEX,
        "--attention-backend flex_attention",
        "_handle_attention_backend_compatibility",
        "AssertionError: Speculative decoding is currently not supported with Flex Attention "
        "backend (--attention-backend flex_attention with --speculative-algorithm EAGLE3;",
    )
    accepted(version, LAUNCH + QWEN3 + " --attention-backend flex_attention")


MIS = LAUNCH + QWEN3 + " --enable-mis"


def test_multi_item_scoring_needs_flashinfer_for_prefill_and_decode():
    refusal(
        "0.5.14",
        MIS,
        "--enable-mis",
        "_handle_multi_item_scoring",
        "Please set --attention-backend flashinfer when using --enable-mis. "
        "Current backends: prefill=fa3, decode=fa3",
    )
    refusal("0.5.18", MIS, "--enable-mis", "_handle_multi_item_scoring", "prefill=trtllm_mha", gpu="b200")
    refusal(
        "0.5.23",
        MIS + " --attention-backend triton",
        "--enable-mis",
        "_handle_multi_item_scoring",
        "prefill=triton",
    )
    accepted("0.5.23", MIS + " --attention-backend flashinfer")
    accepted("0.5.23", MIS, gpu=None)  # the backend SGLang picks depends on the GPU


def test_fa4_leaves_an_eagle_tree_page_size_alone_from_0_5_18():
    command = LAUNCH + QWEN3 + EAGLE3.replace("topk 1", "topk 8").replace("tokens 4", "tokens 16")
    command += " --page-size 128 --attention-backend fa4"
    [(code, column, message)] = errors("0.5.19", command)
    assert (code, column) == ("SPD007", command.index("fa4") + 1)
    assert "got attention_backend='fa4'" in message


# --- the TP LM-head all-to-all ---

LM_HEAD = LAUNCH + LLAMA + " --enable-tp-lm-head-all-to-all"


def test_tp_lm_head_all_to_all_needs_attention_dp():
    refusal(
        "0.5.18",
        LM_HEAD,
        "--enable-tp-lm-head-all-to-all",
        "_dp_lm_head_validation",
        "Please enable dp attention when setting enable_tp_lm_head_all_to_all. (DP attention is off;",
    )
    refusal(
        "0.5.23",
        LM_HEAD,
        "--enable-tp-lm-head-all-to-all",
        "_dp_lm_head_validation",
        "--enable-tp-lm-head-all-to-all requires attention DP (--attn-dp-size). (--attn-dp-size is 1;",
    )
    accepted("0.5.18", LM_HEAD + " --tp-size 2 --dp-size 2 --enable-dp-attention")


# --- the MoE runners' own asserts ---


def test_flashinfer_moe_runners_need_a_quantization_where_the_release_asks_for_one():
    command = LAUNCH + LLAMA + " --moe-runner-backend flashinfer_trtllm"
    refusal(
        "0.5.6.post2",
        command,
        "--moe-runner-backend flashinfer_trtllm",
        "_handle_moe_kernel_config",
        "modelopt_fp4, modelopt_fp8 or fp8 quantization is required for Flashinfer TRTLLM MoE "
        "(--quantization not given with the flashinfer_trtllm MoE runner;",
    )
    accepted("0.5.6.post2", command + " --quantization fp8")
    # DeepSeek-V3 takes the checkpoint's quantization only on an SM100 GPU
    deepseek = LAUNCH + DSV3 + " --moe-runner-backend flashinfer_trtllm"
    refusal(
        "0.5.6.post2",
        deepseek,
        "--moe-runner-backend flashinfer_trtllm",
        "_handle_moe_kernel_config",
        "TRTLLM MoE",
    )
    accepted("0.5.6.post2", deepseek, gpu="b200")
    accepted("0.5.6.post2", deepseek, gpu=None)
    accepted("0.5.7", command)  # 0.5.7+ take an unquantized model
    flag = LAUNCH + LLAMA + " --enable-flashinfer-trtllm-moe"
    refusal(
        "0.5.2",
        flag,
        "--enable-flashinfer-trtllm-moe",
        "__post_init__",
        "modelopt_fp4 quantization is required for Flashinfer TRTLLM MoE",
    )
    refusal(
        "0.4.10",
        flag,
        "--enable-flashinfer-trtllm-moe",
        "__post_init__",
        "EP MoE is required for Flashinfer TRTLLM MOE",
    )
    accepted("0.4.10", flag + " --enable-ep-moe")


def test_the_cutlass_moe_runner_on_fp8_needs_ep_size_1():
    command = LAUNCH + DSV3 + " --tp-size 4 --ep-size 2 --moe-runner-backend cutlass --quantization fp8"
    refusal(
        "0.5.6.post2",
        command,
        "--ep-size 2",
        "_handle_moe_kernel_config",
        "FP8 Cutlass MoE is only supported with ep_size == 1 (--moe-runner-backend cutlass on a fp8 model with ep_size 2;",
    )
    refusal(
        "0.5.9",
        command,
        "--ep-size 2",
        "_handle_moe_kernel_config",
        "FP8/MXFP8 Cutlass MoE is only supported with ep_size == 1",
    )
    accepted("0.5.9", command.replace("--moe-runner-backend cutlass", "--ep-size 1"))


# --- switches only some models take ---


def test_model_switches_follow_the_target_architecture():
    refusal(
        "0.5.19",
        LAUNCH + DSV3 + " --enable-layernorm-sp --tp-size 2",
        "--enable-layernorm-sp",
        "validate_layernorm_sp",
        "--enable-layernorm-sp is only supported for ['Qwen3ForCausalLM']; got DeepseekV3ForCausalLM.",
    )
    accepted("0.5.19", LAUNCH + QWEN3 + " --enable-layernorm-sp --tp-size 2")
    refusal(
        "0.5.17",
        LAUNCH + QWEN3 + " --enable-cp-decode-attn-tp",
        "--enable-cp-decode-attn-tp",
        "_handle_model_specific_adjustments",
        "(attn_tp_size=1). Got Qwen3ForCausalLM; supported: ['DeepseekV4ForCausalLM',",
    )
    swa = LAUNCH + DSV3 + " --enable-encoder-swa-bounded-replay"
    refusal(
        "0.5.23",
        swa,
        "--enable-encoder-swa-bounded-replay",
        "_handle_model_capability_adjustments",
        "--enable-encoder-swa-bounded-replay requires DeepSeek-V4.1 (the model_type is deepseek_v3;",
    )
    accepted("0.5.21", swa)  # checked for DeepseekV4ForCausalLM only
    # a model whose config.json is not on disk: its architecture is unknown
    accepted("0.5.23", LAUNCH + "org/missing-model --enable-encoder-swa-bounded-replay")


def test_mamba_stochastic_rounding_needs_a_float16_ssm_cache():
    command = LAUNCH + QWEN3 + " --enable-mamba-cache-stochastic-rounding"
    refusal(
        "0.5.15.post1",
        command,
        "--enable-mamba-cache-stochastic-rounding",
        "_handle_mamba_backend",
        "ValueError: Stochastic rounding for the Mamba SSM cache requires --mamba-ssm-dtype "
        "float16, got None. Run with --mamba-ssm-dtype float16 or disable",
    )
    command += " --mamba-ssm-dtype float16"
    refusal(
        "0.5.15.post1",
        command,
        "--enable-mamba-cache-stochastic-rounding",
        "_handle_mamba_backend",
        "with --mamba-backend triton requires SM100 with CUDA >= 12.8",
    )
    accepted("0.5.15.post1", command, gpu="b200")
    accepted("0.5.15.post1", command, gpu=None)  # the platform is unknown


def test_the_command_line_shows_the_refusal_at_the_value(tmp_path):
    script = tmp_path / "launch.sh"
    script.write_text(FLASHINFER + "\n")
    result = run_speclint("check", "--sglang-version", "0.5.18", str(script), timeout=60)
    assert result.returncode == 1
    column = FLASHINFER.index("flashinfer") + 1
    assert (
        f"launch.sh:1:{column}: SPD009 [error] SGLang 0.5.18 refuses this launch in _handle_a2a_moe: "
        "AssertionError: Flashinfer MoE A2A is only supported with dp_size == tp_size and "
        "--enable-dp-attention"
    ) in result.stdout


# --- DFLASH before 0.5.23: `_handle_dflash` refuses attention DP and pipeline parallelism ---

DFLASH = LAUNCH + DSV3 + " --speculative-algorithm DFLASH --speculative-draft-model-path " + QWEN3


@pytest.mark.parametrize("version", ["0.5.12.post1", "0.5.14", "0.5.19", "0.5.22"])
def test_dflash_before_0_5_23_refuses_attention_dp_and_pipelines(version):
    # session 11's differential: 0.5.14 refused `--tp-size 8 --dp-size 8 --enable-dp-attention`
    # with DFLASH (seed 11012); speclint passed it. 0.5.19-0.5.22 refuse it with
    # --enable-dp-lm-head too (only 0.5.23 takes that; speculative_hook.py `_handle_dflash`)
    for lm_head in ("", " --enable-dp-lm-head"):
        refusal(
            version,
            DFLASH + " --tp-size 8 --dp-size 8 --enable-dp-attention" + lm_head,
            "--speculative-algorithm DFLASH",
            "_handle_dflash",
            "ValueError: Currently DFLASH speculative decoding does not support dp attention.",
        )
    refusal(
        version,
        DFLASH + " --tp-size 4 --pp-size 2",
        "--pp-size 2",
        "_handle_dflash",
        "ValueError: Currently DFLASH speculative decoding only supports pp_size == 1.",
    )
    accepted(version, DFLASH + " --tp-size 8")


def test_dflash_refuses_other_devices_from_0_5_17():
    # 0.5.17-0.5.19 `_handle_dflash`: "DFLASH speculative decoding only supports CUDA and NPU
    # devices."; 0.5.14 has no such check
    refusal(
        "0.5.18",
        DFLASH + " --device cpu",
        "--device cpu",
        "_handle_dflash",
        "ValueError: DFLASH speculative decoding does not run on --device cpu",
        gpu=None,
    )
    assert [c for c, *_ in errors("0.5.14", DFLASH + " --device cpu", gpu=None) if c == "SPD009"] == []


def test_trtllm_mla_refuses_speculative_decoding_in_0_4_10_post2():
    # 0.4.10.post2 `__post_init__`: "trtllm_mla backend does not support speculative decoding
    # yet." (session 11's differential, seed wide-11013); 0.5.1.post3 has no such check
    eagle = LAUNCH + LLAMA + " --tp-size 8 --attention-backend trtllm_mla" + EAGLE3
    refusal(
        "0.4.10.post2",
        eagle,
        "--attention-backend trtllm_mla",
        "__post_init__",
        "ValueError: trtllm_mla backend does not support speculative decoding yet. (--attention-backend "
        "trtllm_mla with --speculative-algorithm EAGLE3;",
        gpu="b200",
    )
    assert [m for _, _, m in errors("0.5.1.post3", eagle, gpu="b200") if "trtllm_mla backend" in m] == []
