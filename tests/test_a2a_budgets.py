"""--moe-a2a-backend pplx's per-rank dispatch assert (0.5.17+) and deepep_v2's architecture and
MoE runner checks (0.5.19+), each read per release by tools/sglang_a2a_budgets.py. Found by
seed a2a-16005 (record.py --generator a2a, 0.5.18-0.5.23, fake H100/B200): SGLang refused these
launches and speclint said nothing."""

from __future__ import annotations

from pathlib import Path

from launch_errors import at, errors

from speclint.engine import lint_text
from speclint.settings.options import LintOptions
from speclint.sglang.resolve.gpu_profiles import profile

MODELS = Path(__file__).resolve().parent.parent / "fixtures" / "models"


def _errors(text: str, version: str, gpu: str = "b200"):
    return errors(text, version, gpu)


PPLX = (
    "SGLANG_PPLX_NUM_MAX_DISPATCH_TOKENS_PER_RANK (default 128) must be >= the per-rank pplx dispatch tokens"
)


def test_pplx_dispatch_budget_in_every_release_that_has_it():
    """0.5.17-0.5.18 `ServerArgs._handle_a2a_moe`, 0.5.19+ `handle_a2a_moe`: the chunk after the
    attention-DP split (given, or the GPU's default) against the variable (EnvInt(128))."""
    for version in ("0.5.17", "0.5.18", "0.5.19", "0.5.22", "0.5.23"):
        where = "_handle_a2a_moe" if version in ("0.5.17", "0.5.18") else "handle_a2a_moe"
        text = (
            f"python -m sglang.launch_server --model-path {MODELS / 'deepseek-v3'} --tp-size 4 "
            "--moe-a2a-backend pplx --dp-size 2 --enable-dp-attention --chunked-prefill-size 8192\n"
        )
        [error] = _errors(text, version, "h100")
        assert (error.code, error.span.line, error.span.column) == ("SPD009", *at(text, "8192"))
        assert error.message == (
            f"SGLang {version} refuses this launch in {where}: AssertionError: {PPLX} "
            "(chunked_prefill_size, or the decode cuda-graph batch size) (--moe-a2a-backend pplx "
            "dispatches 4096 tokens per rank: --chunked-prefill-size 8192 / attention-DP size 2, "
            "> its default 128; set SGLANG_PPLX_NUM_MAX_DISPATCH_TOKENS_PER_RANK to at least 4096, "
            "or lower --chunked-prefill-size)"
        )


def test_pplx_dispatch_budget_from_the_gpu_default_and_where_it_passes():
    base = f"python -m sglang.launch_server --model-path {MODELS / 'deepseek-v3'} --tp-size 8 --moe-a2a-backend pplx"
    text = base + " --dp-size 8 --enable-dp-attention\n"
    [error] = _errors(text, "0.5.23")
    assert (error.span.line, error.span.column) == at(text, "pplx")
    assert "dispatches 2048 tokens per rank: SGLang's default 16384 for the NVIDIA B200's" in error.message
    raised = "SGLANG_PPLX_NUM_MAX_DISPATCH_TOKENS_PER_RANK=4096 " + text
    assert _errors(raised, "0.5.23") == []
    decode = base + " --dp-size 8 --enable-dp-attention --disaggregation-mode decode\n"
    assert [e for e in _errors(decode, "0.5.23") if PPLX in e.message] == []
    off = base + " --dp-size 8 --enable-dp-attention --chunked-prefill-size -1\n"
    assert [e for e in _errors(off, "0.5.23") if PPLX in e.message] == []


def test_deepep_v2_architectures_per_release():
    """0.5.19-0.5.20: the validator's own list (the message names it); 0.5.21+:
    configs/moe_model_registry.py's registered architectures."""
    text = f"python -m sglang.launch_server --model-path {MODELS / 'qwen3-8b'} --tp-size 8 --moe-a2a-backend deepep_v2\n"
    [old] = _errors(text, "0.5.20", "h100")
    assert (old.code, old.span.line, old.span.column) == ("SPD009", *at(text, "deepep_v2"))
    assert old.message.startswith(
        "SGLang 0.5.20 refuses this launch in handle_a2a_moe: ValueError: DeepEP v2 MoE is not "
        "validated for 'Qwen3ForCausalLM'; supported architectures are ['DeepseekV3ForCausalLM', "
        "'DeepseekV4ForCausalLM', 'Qwen3MoeForCausalLM']."
    )
    assert old.message.endswith(
        "(--moe-a2a-backend deepep_v2 on Qwen3ForCausalLM; pick another --moe-a2a-backend, or a "
        "model of an architecture it takes)"
    )
    kimi = text.replace(str(MODELS / "qwen3-8b"), str(MODELS / "kimi-k2.5"))
    [new] = _errors(kimi, "0.5.23")
    assert (
        "ValueError: DeepEP v2 MoE is not validated for 'KimiK25ForConditionalGeneration'. The model "
        "package must register its architecture with register_deepep_v2_model" in new.message
    )
    deepseek = text.replace(str(MODELS / "qwen3-8b"), str(MODELS / "deepseek-v3"))
    assert [e for e in _errors(deepseek, "0.5.23") if "DeepEP v2 MoE is not validated" in e.message] == []


def test_deepep_v2_refuses_another_moe_runner():
    text = (
        f"python -m sglang.launch_server --model-path {MODELS / 'deepseek-v3'} --tp-size 8 "
        "--moe-a2a-backend deepep_v2 --moe-runner-backend triton\n"
    )
    for version in ("0.5.20", "0.5.23"):
        [error] = _errors(text, version, "h100")
        assert (error.span.line, error.span.column) == at(text, "triton")
        assert error.message == (
            f"SGLang {version} refuses this launch in handle_a2a_moe: ValueError: DeepEP v2 MoE "
            "currently supports only --moe-runner-backend deep_gemm. Got 'triton'. Add a runner "
            "adapter before enabling DeepEP v2 with other MoE runners. (--moe-a2a-backend deepep_v2 "
            "with --moe-runner-backend triton; drop --moe-runner-backend or pass deep_gemm)"
        )
    fine = text.replace("triton", "deep_gemm")
    [budget] = _errors(fine, "0.5.23", "h100")  # past the runner: the prefill budget (1024 > 128)
    assert "currently supports only" not in budget.message
    assert "DeepEP v2 per-rank prefill budget exceeds" in budget.message


def test_chunk_page_check_under_an_all_to_all_backend():
    """--moe-a2a-backend no longer hides the attention backend and its page size (no function
    that picks them reads it), and a given chunk split by attention DP is read for the
    check_server_args assert. Oracle (seed a2a-16005, 0.5.18-0.5.23, B200): DeepSeek-V3 with
    trtllm_mla (page 64) and --chunked-prefill-size 8200 refused, with and without attention DP."""
    for version, where in (("0.5.18", "check_server_args"), ("0.5.23", "check_server_args")):
        for backend in ("none", "deepep"):
            text = (
                f"python -m sglang.launch_server --model-path {MODELS / 'deepseek-v3'} --tp-size 8 "
                f"--quantization fp8 --moe-a2a-backend {backend} --dp-size 8 --enable-dp-attention "
                "--chunked-prefill-size 8200\n"
            )
            [error] = _errors(text, version)
            assert (error.code, error.span.line, error.span.column) == ("SPD009", *at(text, "8200"))
            assert error.message == (
                f"SGLang {version} refuses this launch in {where}: AssertionError: chunked_prefill_size "
                "must be divisible by page_size (--chunked-prefill-size 1025 with page size 64; use a "
                "multiple of 64, or drop --page-size)"
            )
            assert _errors(text.replace("8200", "8192"), version) == []


def test_explain_states_the_page_size_with_an_all_to_all_backend():
    text = (
        f"python -m sglang.launch_server --model-path {MODELS / 'deepseek-v3'} --tp-size 8 "
        "--quantization fp8 --moe-a2a-backend deepep\n"
    )
    options = LintOptions(sglang_version="0.5.23", gpu=profile("b200"), read_pyproject=False)
    effective = lint_text(text, "x.sh", options).contexts[0].resolution.effective
    assert (effective["attention_backend"], effective["page_size"]) == ("trtllm_mla", 64)
    options = LintOptions(sglang_version="0.5.23", gpu=profile("h100"), read_pyproject=False)
    effective = lint_text(text, "x.sh", options).contexts[0].resolution.effective
    assert (effective["attention_backend"], effective["page_size"]) == ("fa3", 1)


def test_deepep_v2_prefill_budget_per_release():
    """`validate_deepep_v2_dispatch_token_budget`: the prefill-buffer ceiling (PP dynamic chunking
    grows the chunk to max_prefill_tokens, 16384), 0.5.22+ divided by tp_size // attn_dp_size.
    Oracle (seed a2a-16005, fake H100): required=16384 on 0.5.20-0.5.21, 2048 on 0.5.22-0.5.23."""
    text = (
        f"python -m sglang.launch_server --model-path {MODELS / 'deepseek-v3'} --tp-size 8 "
        "--quantization modelopt_fp4 --moe-a2a-backend deepep_v2 --pp-size 2 --enable-dynamic-chunking\n"
    )
    for version, required, over in (
        ("0.5.20", 16384, ""),
        ("0.5.23", 2048, ", over 8 ranks (tp_size // attn_dp_size)"),
    ):
        [error] = _errors(text, version, "h100")
        assert (error.code, error.span.line, error.span.column) == ("SPD009", *at(text, "deepep_v2"))
        assert error.message == (
            f"SGLang {version} refuses this launch in validate_deepep_v2_dispatch_token_budget: ValueError: "
            "DeepEP v2 per-rank prefill budget exceeds SGLANG_DEEPEP_V2_NUM_MAX_DISPATCH_TOKENS_PER_RANK: "
            f"required={required}, capacity=128. Raise the environment value or lower "
            "--chunked-prefill-size/--max-prefill-tokens. (--moe-a2a-backend deepep_v2 dispatches "
            f"{required} prefill tokens per rank: SGLang's default 8192 for the NVIDIA H100 80GB HBM3's "
            f"81559 MiB, grown by dynamic chunking with PP 2 to 16384{over}; > its default 128)"
        )
        raised = f"SGLANG_DEEPEP_V2_NUM_MAX_DISPATCH_TOKENS_PER_RANK={required} " + text
        assert _errors(raised, version, "h100") == []


def test_chunk_page_check_skips_a_decode_server_it_reads_from_the_launch():
    """0.5.3+ skip a decode server; the resolution does not track --disaggregation-mode, so the
    launch's own value is read. Seed a2a-16101 (0.5.19, B200): DeepSeek-V3 megamoe decode with
    --chunked-prefill-size 8200 (page 64) is accepted; speclint had refused it once --moe-a2a-backend
    let it read the page size."""
    text = (
        f"python -m sglang.launch_server --model-path {MODELS / 'deepseek-v3'} --tp-size 8 --quantization "
        "modelopt_fp4 --moe-a2a-backend megamoe --disaggregation-mode decode --chunked-prefill-size 8200\n"
    )
    assert [e for e in _errors(text, "0.5.19") if "divisible by page_size" in e.message] == []
    plain = text.replace(" --disaggregation-mode decode", "")
    assert [e.code for e in _errors(plain, "0.5.19") if "divisible by page_size" in e.message] == ["SPD009"]


def test_pplx_refuses_another_moe_runner():
    """The pplx branch's runner assert (0.5.17+; deep_gemm or auto). Seed a2a-16101 (0.5.17,
    B200): Qwen3-8B modelopt_fp4 with --moe-runner-backend flashinfer_cutlass refused so."""
    text = (
        f"python -m sglang.launch_server --model-path {MODELS / 'qwen3-8b'} --tp-size 4 --quantization "
        "modelopt_fp4 --moe-a2a-backend pplx --dp-size 2 --enable-dp-attention --moe-runner-backend "
        "flashinfer_cutlass\n"
    )
    for version, where in (("0.5.17", "_handle_a2a_moe"), ("0.5.23", "handle_a2a_moe")):
        [error] = _errors(text, version)
        assert (error.code, error.span.line, error.span.column) == (
            "SPD009",
            *at(text, "flashinfer_cutlass"),
        )
        assert error.message == (
            f"SGLang {version} refuses this launch in {where}: AssertionError: moe_a2a_backend='pplx' "
            "is only supported with --moe-runner-backend deep_gemm (or auto). (--moe-a2a-backend pplx "
            "with --moe-runner-backend flashinfer_cutlass; pass deep_gemm or auto, or drop --moe-runner-backend)"
        )


def test_mori_reads_a_given_chunk_split_by_attention_dp():
    """MoRI's dispatch buffer against the chunk the handler sees. Seed a2a-16103 (0.5.20-0.5.23,
    H100): DeepSeek-V3 TP 4 --dp-size 2 --enable-dp-attention --chunked-prefill-size 8200
    (4100 > 4096) refused; speclint had left the split chunk unknown."""
    text = (
        f"python -m sglang.launch_server --model-path {MODELS / 'deepseek-v3'} --tp-size 4 --quantization "
        "fp8 --moe-a2a-backend mori --dp-size 2 --enable-dp-attention --chunked-prefill-size 8200\n"
    )
    [error] = _errors(text, "0.5.23", "h100")
    assert (error.code, error.span.line, error.span.column) == ("SPD009", *at(text, "8200"))
    assert error.message == (
        "SGLang 0.5.23 refuses this launch in handle_a2a_moe: AssertionError: "
        "SGLANG_MORI_NUM_MAX_DISPATCH_TOKENS_PER_RANK (default 4096) must be >= the per-rank MoRI "
        "dispatch tokens (chunked_prefill_size by default) (chunked_prefill_size 4100 > its default "
        "4096; set SGLANG_MORI_NUM_MAX_DISPATCH_TOKENS_PER_RANK to at least 4100 or lower "
        "--chunked-prefill-size)"
    )
    assert _errors(text.replace("8200", "8192"), "0.5.23", "h100") == []


def test_flashinfer_a2a_runner_with_the_quantization_given():
    """The runner assert reads the --quantization given where the resolution leaves it unknown.
    Seed a2a-16103 (0.5.20-0.5.23, B200): DeepSeek-V3 fp8 with --moe-runner-backend
    flashinfer_megamoe refused."""
    text = (
        f"python -m sglang.launch_server --model-path {MODELS / 'deepseek-v3'} --tp-size 8 --quantization "
        "fp8 --moe-a2a-backend flashinfer --dp-size 8 --enable-dp-attention --moe-runner-backend "
        "flashinfer_megamoe\n"
    )
    for version in ("0.5.20", "0.5.23"):
        [error] = _errors(text, version)
        assert (error.code, error.span.line) == ("SPD009", 1)
        assert (
            "AssertionError: FlashInfer MoE A2A is supported with flashinfer_cutlass, flashinfer_cutedsl, "
            "flashinfer_trtllm, flashinfer_trtllm_routed, or deep_gemm. (--moe-runner-backend "
            "flashinfer_megamoe; use --moe-runner-backend flashinfer_cutlass)" in error.message
        )
    # mxfp8 moves the runner to flashinfer_trtllm first (0.5.19+), which the assert takes
    assert [
        e for e in _errors(text.replace("fp8", "mxfp8"), "0.5.23") if "MoE A2A is supported" in e.message
    ] == []


def test_megamoe_budget_with_data_parallel_replicas_from_0_5_22():
    """0.5.22+: --dp-size without attention DP leaves the attention-DP size 1, and the MegaMoE
    budget takes its plain-TP branch (token_partition=none). Seed a2a-16105 (0.5.22-0.5.23, B200)."""
    text = (
        f"python -m sglang.launch_server --model-path {MODELS / 'qwen3-8b'} --tp-size 8 --quantization "
        "modelopt_fp4 --moe-a2a-backend megamoe --dp-size 8 --pp-size 2 --chunked-prefill-size 131072\n"
    )
    for version in ("0.5.22", "0.5.23"):
        [error] = _errors(text, version)
        assert (error.code, error.span.line, error.span.column) == ("SPD009", *at(text, "megamoe"))
        assert (
            f"SGLang {version} refuses this launch in validate_mega_moe_token_budget: ValueError: "
            "Qwen3ForCausalLM with MegaMoE requires SGLANG_OPT_DEEPGEMM_MEGA_MOE_NUM_MAX_TOKENS_PER_RANK to "
            "cover each rank's effective prefill token budget. Current values: chunked_prefill_size=131072, "
            "token_partition=none, token_partition_size=1, token_alignment=8, required_per_rank=131072"
        ) in error.message
    attention_dp = text.replace("--dp-size 8", "--dp-size 8 --enable-dp-attention")
    assert [e for e in _errors(attention_dp, "0.5.23") if "token_partition=none" in e.message] == []


def test_kimi_k25_keeps_the_gpu_default_chunk_for_pplx_and_mori():
    """Kimi-K2.5 (multimodal) keeps the GPU's default chunked prefill (the oracle recorded it,
    0.4.4-0.5.23). Seed a2a-16212 (0.5.19, fake H100): pplx on it with attention DP 2 refused
    with the default 8192 / 2; refusals8's MoRI misses (0.5.18) alike."""
    text = (
        f"python -m sglang.launch_server --model-path {MODELS / 'kimi-k2.5'} --tp-size 4 "
        "--moe-a2a-backend pplx --dp-size 2 --enable-dp-attention\n"
    )
    [error] = _errors(text, "0.5.19", "h100")
    assert (error.code, error.span.line, error.span.column) == ("SPD009", *at(text, "pplx"))
    assert error.message == (
        f"SGLang 0.5.19 refuses this launch in handle_a2a_moe: AssertionError: {PPLX} "
        "(chunked_prefill_size, or the decode cuda-graph batch size) (--moe-a2a-backend pplx "
        "dispatches 4096 tokens per rank: SGLang's default 8192 for the NVIDIA H100 80GB HBM3's "
        "81559 MiB / attention-DP size 2, > its default 128; set "
        "SGLANG_PPLX_NUM_MAX_DISPATCH_TOKENS_PER_RANK to at least 4096, or lower --chunked-prefill-size)"
    )
    mori = f"python -m sglang.launch_server --model-path {MODELS / 'kimi-k2.5'} --tp-size 8 --moe-a2a-backend mori\n"
    [error] = _errors(mori, "0.5.18", "h100")
    assert (error.span.line, error.span.column) == at(mori, "mori")
    assert error.message.endswith(
        "(chunked_prefill_size 8192: SGLang's default 8192 for the NVIDIA H100 80GB HBM3's 81559 MiB, "
        "> its default 4096; pass --chunked-prefill-size 4096 or lower, or set "
        "SGLANG_MORI_NUM_MAX_DISPATCH_TOKENS_PER_RANK to at least 8192)"
    )
    assert _errors("SGLANG_MORI_NUM_MAX_DISPATCH_TOKENS_PER_RANK=8192 " + mori, "0.5.18", "h100") == []
