"""--moe-a2a-backend flashinfer_megamoe against `validate_flashinfer_megamoe_model`'s
quantization check (0.5.20+; resolve/refusals_megamoe.py), its quantizations, 0.5.23's
nvfp4_online switch, the ModelConfig terms and message read from each wheel by
tools/sglang_moe_runner_refusals.py. Expected outcomes are the releases' own: tools/oracle
record_release.py on 0.5.20 and 0.5.21 and resolve_cases.py on 0.5.23 (fake H100 and B200,
session 15b) gave these refusals and messages."""

from __future__ import annotations

from test_refusal_checks import DSV3, LAUNCH, errors, refusal

from speclint.sglang.moe_a2a_facts import megamoe_attention_dp
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
        # a quantization it takes passes this check (then the attention-DP assert, below)
        assert (
            errors(
                version, MEGAMOE + " --quantization modelopt_fp4 --dp-size 8 --enable-dp-attention", "b200"
            )
            == []
        )
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
    dp = " --dp-size 8 --enable-dp-attention"  # else the attention-DP assert refuses it next
    assert errors("0.5.23", "SGLANG_FLASHINFER_CUTEDSL_NVFP4_W4A16=1 " + online + dp, "b200") == []
    [(code, _, message)] = errors("0.5.23", "SGLANG_FLASHINFER_CUTEDSL_NVFP4_W4A16=0 " + online, "b200")
    assert code == "SPD009" and "here SGLANG_FLASHINFER_CUTEDSL_NVFP4_W4A16=0," in message
    # a value speclint cannot read is not judged
    assert errors("0.5.23", "SGLANG_FLASHINFER_CUTEDSL_NVFP4_W4A16=$X " + online + dp, "b200") == []


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


VARIABLE = "SGLANG_OPT_DEEPGEMM_MEGA_MOE_NUM_MAX_TOKENS_PER_RANK"
BUDGET = LAUNCH + DSV3 + " --moe-runner-backend megamoe --tp-size 8 --quantization modelopt_fp4"


def test_megamoe_prefill_token_budget_on_0_5_21_and_0_5_23():
    """0.5.21+ `validate_mega_moe_token_budget` (read as `megamoe_token_budget`: the variable,
    `EnvInt(8192)`, the message, NVFP4 experts by modelopt_fp4). Oracle (record_release.py,
    0.5.21 and 0.5.23; seed moe-15004): DeepSeek-V3 modelopt_fp4 behind the megamoe alias at TP 8
    on the B200 (default chunked prefill 16384) is refused, and with the variable at 16383 and
    --chunked-prefill-size 8200; accepted with 16384 (was: nothing said). 0.5.20 has no such check."""
    for version in ("0.5.21", "0.5.23"):
        refusal(
            version,
            BUDGET,
            "--moe-runner-backend megamoe",
            "validate_mega_moe_token_budget",
            "ValueError: DeepseekV3ForCausalLM with MegaMoE requires "
            f"{VARIABLE} to cover each rank's effective prefill token budget. Current values: "
            "chunked_prefill_size=16384, token_partition=none, token_partition_size=1, "
            f"token_alignment=8, required_per_rank=16384, {VARIABLE}=8192. Set {VARIABLE} to at "
            "least 16384, or lower --chunked-prefill-size until the effective per-rank budget fits. "
            "(--moe-a2a-backend megamoe: chunked prefill 16384 from SGLang's default for the NVIDIA "
            f"B200's 183359 MiB, aligned up to TP 8, needs 16384 tokens per rank, {VARIABLE} unset "
            f"(default 8192); set {VARIABLE}=16384 or more, or pass --chunked-prefill-size 8192 or lower)",
            gpu="b200",
        )
        [(_, _, message)] = errors(version, f"{VARIABLE}=16383 " + BUDGET, "b200")
        assert f"required_per_rank=16384, {VARIABLE}=16383." in message
        assert f"needs 16384 tokens per rank, {VARIABLE}=16383;" in message
        [(_, _, message)] = errors(version, BUDGET + " --chunked-prefill-size 8200", "b200")
        assert "chunked prefill 8200 from --chunked-prefill-size 8200" in message
        assert errors(version, f"{VARIABLE}=16384 " + BUDGET, "b200") == []
        # a value speclint cannot read is not judged
        assert errors(version, f"{VARIABLE}=$X " + BUDGET, "b200") == []
        # the H100's default (8192) fits; --chunked-prefill-size 12000 does not (oracle)
        assert errors(version, BUDGET, "h100") == []
        [(code, _, message)] = errors(version, BUDGET + " --chunked-prefill-size 12000", "h100")
        assert code == "SPD009" and "required_per_rank=12000" in message
    assert errors("0.5.20", BUDGET, "b200") == []


FP4 = MEGAMOE + " --quantization modelopt_fp4"
OLD_DP = "FlashInfer MegaMOE is only supported with dp_size == tp_size and --enable-dp-attention"
NEW_DP = "FlashInfer MegaMOE is only supported with --attn-dp-size equal to --tp-size"
RUNNER = "FlashInfer MegaMOE a2a backend requires --moe-runner-backend flashinfer_megamoe"
SM100 = "FlashInfer MegaMOE currently requires an SM100-family CUDA device for all supported quantization formats."


def test_flashinfer_megamoe_needs_attention_dp_over_every_tp_rank():
    """`handle_a2a_moe`'s assert after `validate_flashinfer_megamoe_model` (read per release as
    `megamoe_architectures.attention_dp`): 0.5.20-0.5.21 `cfg.enable_dp_attention and cfg.dp_size
    == cfg.tp_size`, 0.5.22+ `attn_dp_enabled_of(cfg) and cfg.attn_dp_size == cfg.tp_size`.
    Oracle (record_release.py 0.5.20-0.5.23, fake B200 and H100, DeepSeek-V3 modelopt_fp4 TP 8):
    refused with no attention DP (either GPU), --dp-size 4 --enable-dp-attention and --dp-size 8
    alone; accepted with --dp-size 8 --enable-dp-attention, and 0.5.22+ --attn-dp-size 8 (was:
    nothing said)."""
    for version, says, now, fix in (
        ("0.5.20", OLD_DP, "--dp-size 1 without --enable-dp-attention", "--dp-size 8 --enable-dp-attention"),
        ("0.5.21", OLD_DP, "--dp-size 1 without --enable-dp-attention", "--dp-size 8 --enable-dp-attention"),
        ("0.5.22", NEW_DP, "attention-DP size 1", "--attn-dp-size 8"),
        ("0.5.23", NEW_DP, "attention-DP size 1", "--attn-dp-size 8"),
    ):
        for gpu in ("b200", "h100"):
            refusal(
                version,
                FP4,
                "--moe-a2a-backend flashinfer_megamoe",
                "handle_a2a_moe",
                f"AssertionError: {says}",
                gpu=gpu,
            )
        [(_, _, message)] = errors(version, FP4, "b200")
        assert message.endswith(
            f"{says} (--moe-a2a-backend flashinfer_megamoe with --tp-size 8, {now}; use {fix}, or pick "
            "another --moe-a2a-backend)"
        ), message
        [(_, _, message)] = errors(version, FP4 + " --dp-size 4 --enable-dp-attention", "b200")
        assert says in message and ("--dp-size 4;" in message or "attention-DP size 4;" in message), message
        [(_, _, message)] = errors(version, FP4 + " --dp-size 8", "b200")
        assert says in message, message
        assert errors(version, FP4 + " --dp-size 8 --enable-dp-attention", "b200") == []
    assert errors("0.5.23", FP4 + " --attn-dp-size 8", "b200") == []
    # a size speclint cannot read is not judged
    assert errors("0.5.23", FP4 + " --attn-dp-size $N", "b200") == []


def test_flashinfer_megamoe_then_needs_an_sm100_gpu():
    """Past the assert, `if not is_sm100_supported(): raise ValueError(...)` (read with it).
    Oracle (record_release.py 0.5.20-0.5.23): --dp-size 8 --enable-dp-attention refused on the
    H100, accepted on the B200; without --gpu nothing is said."""
    launch = FP4 + " --dp-size 8 --enable-dp-attention"
    for version in ("0.5.20", "0.5.21", "0.5.22", "0.5.23"):
        refusal(
            version,
            launch,
            "--moe-a2a-backend flashinfer_megamoe",
            "handle_a2a_moe",
            f"ValueError: {SM100}",
            gpu="h100",
        )
        [(_, _, message)] = errors(version, launch, "h100")
        assert message.endswith("SM 9.0; use a GPU with SM 10.x, or pick another --moe-a2a-backend)"), message
        assert errors(version, launch, None) == []


def test_flashinfer_megamoe_takes_only_its_own_moe_runner():
    """Between the two: the branch sets an auto runner to flashinfer_megamoe and asserts it.
    Oracle (record_release.py 0.5.20-0.5.23, fake H100): --moe-runner-backend flashinfer_cutlass
    refused so (before the SM100 check)."""
    launch = FP4 + " --dp-size 8 --enable-dp-attention --moe-runner-backend flashinfer_cutlass"
    for version in ("0.5.20", "0.5.21", "0.5.22", "0.5.23"):
        refusal(
            version,
            launch,
            "--moe-runner-backend flashinfer_cutlass",
            "handle_a2a_moe",
            f"AssertionError: {RUNNER}",
        )
        [(_, _, message)] = errors(version, launch, "h100")
        assert message.endswith(
            "(--moe-a2a-backend flashinfer_megamoe with --moe-runner-backend flashinfer_cutlass; "
            "drop --moe-runner-backend or pass flashinfer_megamoe)"
        ), message
        assert errors(version, launch.replace("flashinfer_cutlass", "flashinfer_megamoe"), "b200") == []


def test_the_attention_dp_assert_is_read_per_release():
    assert megamoe_attention_dp("0.5.19") is None
    for version, enabled_by, size, says in (
        ("0.5.20", "enable_dp_attention", "dp_size", OLD_DP),
        ("0.5.22", "attn_dp_enabled_of", "attn_dp_size", NEW_DP),
    ):
        read = megamoe_attention_dp(version)
        assert read is not None and (read.enabled_by, read.size, read.message) == (enabled_by, size, says)
        assert read.runner_message == RUNNER and read.sm100_message == SM100


def test_megamoe_budget_under_pipeline_parallelism_and_prefill_disaggregation():
    """`validate_mega_moe_token_budget` returns early only for a decode server and for PP with
    dynamic chunking (its `returns`, read), and splits the tokens only for context-parallel
    prefill or attention DP (`partitions`): PP with static chunking and a prefill server take
    the plain-TP branch. Oracle (record_release.py 0.5.21-0.5.23; 0.5.20 has no budget): TP 8
    with --pp-size 2 on the B200 (default 16384) refused, so is --disaggregation-mode prefill,
    and TP 4 PP 2 with --chunked-prefill-size 8200 on the H100 (alignment 4: 8200); accepted
    with --enable-dynamic-chunking, --disaggregation-mode decode, prefill with 8192 (was:
    nothing said for PP or prefill)."""
    budget = LAUNCH + DSV3 + " --moe-a2a-backend megamoe --quantization modelopt_fp4"
    for version in ("0.5.21", "0.5.22", "0.5.23"):
        for extra, token in (
            (" --tp-size 8 --pp-size 2", "--moe-a2a-backend megamoe"),
            (" --tp-size 8 --disaggregation-mode prefill", "--moe-a2a-backend megamoe"),
        ):
            refusal(
                version,
                budget + extra,
                token,
                "validate_mega_moe_token_budget",
                "token_partition=none, token_partition_size=1, token_alignment=8, required_per_rank=16384",
                gpu="b200",
            )
        [(_, _, message)] = errors(
            version, budget + " --tp-size 4 --pp-size 2 --chunked-prefill-size 8200", "h100"
        )
        assert "token_alignment=4, required_per_rank=8200" in message, message
        for accepted in (
            " --tp-size 8 --pp-size 2 --enable-dynamic-chunking --chunked-prefill-size 16384",
            " --tp-size 8 --disaggregation-mode decode",
            " --tp-size 8 --disaggregation-mode prefill --chunked-prefill-size 8192",
            " --tp-size 4 --pp-size 2",
        ):
            assert errors(version, budget + accepted, "b200" if "8 " in accepted else "h100") == [], accepted
    assert errors("0.5.20", budget + " --tp-size 8 --pp-size 2", "b200") == []


def test_megamoe_budget_is_not_judged_under_attention_dp_given_as_attn_dp_size():
    """0.5.22+ turn attention DP on by --attn-dp-size (`attn_dp_enabled_of`): the chunk is then
    split over the DP ranks, not judged as plain TP. Oracle (record_release.py 0.5.22, 0.5.23):
    TP 8 with --dp-size 2 --enable-dp-attention (rewritten to --attn-dp-size 2) on the B200 is
    accepted (was: a false refusal for --attn-dp-size 2, 16384 > 8192)."""
    budget = LAUNCH + DSV3 + " --moe-a2a-backend megamoe --quantization modelopt_fp4 --tp-size 8"
    for version in ("0.5.22", "0.5.23"):
        assert errors(version, budget + " --attn-dp-size 2", "b200") == []
        assert errors(version, budget + " --dp-size 2 --enable-dp-attention", "b200") == []


def test_megamoe_refuses_chunked_prefill_turned_off():
    """`if cfg.chunked_prefill_size is None or cfg.chunked_prefill_size <= 0: raise ValueError`
    before the budget's partitions (message read, `megamoe_token_budget.disabled`; 0.5.21+).
    Oracle (record.py --generator a2a, seed 16005, 0.5.21-0.5.23, fake B200): DeepSeek-V3
    modelopt_fp4 TP 4 megamoe with --dp-size 2 and --chunked-prefill-size -1 refused (was:
    nothing said); a decode server returns before it; 0.5.20 has no such check."""
    launch = LAUNCH + DSV3 + " --moe-a2a-backend megamoe --quantization modelopt_fp4 --tp-size 4"
    for version in ("0.5.21", "0.5.23"):
        refusal(
            version,
            launch + " --chunked-prefill-size -1",
            "--chunked-prefill-size -1",
            "validate_mega_moe_token_budget",
            "ValueError: DeepseekV3ForCausalLM with MegaMoE requires chunked prefill to be enabled. "
            "Set --chunked-prefill-size to a positive value;",
            gpu="b200",
        )
        [(_, _, message)] = errors(version, launch + " --dp-size 2 --chunked-prefill-size -1", "b200")
        assert message.endswith(
            "(--moe-a2a-backend megamoe with --chunked-prefill-size -1; pass a positive size)"
        )
        assert (
            errors(version, launch + " --chunked-prefill-size -1 --disaggregation-mode decode", "b200") == []
        )
    assert errors("0.5.20", launch + " --chunked-prefill-size -1", "b200") == []
