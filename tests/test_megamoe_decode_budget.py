"""MegaMoE's token budget beyond its plain-TP and attention-DP prefill branches: the decode side
(0.5.21+, read per release by tools/sglang_megamoe_decode.py: the decode CUDA graph's largest
batch, 0.5.23's cap at the per-rank requests, the draft tokens of a speculative algorithm) and
the prefill chain's other branches (`else` with attention CP, --dp-size without attention DP).
Oracle (record.py --generator a2a_cp seed 22004 on 0.5.23, --generator a2a seed 22001 on
0.5.21): each refusal below was recorded with the message asserted, each acceptance accepted."""

from __future__ import annotations

from pathlib import Path

from launch_errors import at, errors

MODELS = Path(__file__).resolve().parent.parent / "fixtures" / "models"
VARIABLE = "SGLANG_OPT_DEEPGEMM_MEGA_MOE_NUM_MAX_TOKENS_PER_RANK"
LAUNCH = "python -m sglang.launch_server --model-path"
QWEN3 = f"{LAUNCH} {MODELS / 'qwen3-8b'} --tp-size 8 --quantization modelopt_fp4 --moe-a2a-backend megamoe"
DSV3 = f"{LAUNCH} {MODELS / 'deepseek-v3'}"


def _decode_message(label: str, tokens: int, limit: int) -> str:
    return (
        f"SGLang 0.5.23 refuses this launch in validate_mega_moe_token_budget: ValueError: {label} with "
        f"MegaMoE requires {VARIABLE} to cover the largest decode / verify forward on one rank. Current "
        f"values: largest decode graph bucket x tokens per request = {tokens}, {VARIABLE}={limit}. Raise "
        f"the env var to at least {tokens} or lower --cuda-graph-max-bs / --max-running-requests / "
        "--speculative-num-draft-tokens."
    )


def test_decode_graph_batch_over_the_budget_is_refused():
    text = f"{VARIABLE}=128 {QWEN3}\n"
    [error] = errors(text, "0.5.23", "h100")
    assert (error.code, error.span.line, error.span.column) == ("SPD009", *at(text, "megamoe"))
    assert error.message == _decode_message("Qwen3ForCausalLM", 512, 128) + (
        " (--moe-a2a-backend megamoe on a server that decodes: decode CUDA-graph max batch 512, 1 token "
        f"per request = 512 tokens per rank, {VARIABLE}=128; set {VARIABLE}=512 or more, or lower "
        "--cuda-graph-max-bs-decode / --max-running-requests)"
    )


def test_decode_batch_capped_at_the_requests_times_the_draft_tokens():
    """NEXTN resolves --max-running-requests to 48: min(256, ceil_align(48 // 1, 4)) x 4 = 192."""
    text = (
        f"{VARIABLE}=64 {DSV3} --tp-size 4 --quantization modelopt_fp4 --moe-a2a-backend megamoe "
        "--chunked-prefill-size 8192 --cuda-graph-max-bs-decode 256 --speculative-algorithm NEXTN "
        "--speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4 "
        "--disable-cuda-graph\n"
    )
    [error] = errors(text, "0.5.23", "h100")
    assert error.message.startswith(_decode_message("DeepseekV3ForCausalLM", 192, 64))
    assert "capped at 48 requests per rank (max_running_requests 48 as SGLang resolves it) x 4 draft" in (
        error.message
    )


def test_decode_side_not_checked_on_a_prefill_server():
    text = (
        f"{VARIABLE}=128 {QWEN3} --attn-cp-size 1 --attn-dp-size 2 --disaggregation-mode prefill "
        "--cuda-graph-max-bs-decode 8 --max-running-requests 4096\n"
    )
    [error] = errors(text, "0.5.23", "b200")
    assert "token_partition=attn_dp_size, token_partition_size=2, token_alignment=4" in error.message
    assert "required_per_rank=4096" in error.message
    assert "decode / verify" not in error.message


def test_decode_budget_accepted_where_it_fits():
    """The per-rank cap at NEXTN's 48 requests over attention DP: ceil_align(48 // 2, 8 // 2) x 4
    = 96 <= 1024, ceil_align(48 // 8, 1) x 4 = 24 <= 64."""
    nextn = (
        "--speculative-algorithm NEXTN --speculative-num-steps 3 --speculative-eagle-topk 1 "
        "--speculative-num-draft-tokens 4"
    )
    base = f"{DSV3} --tp-size 8 --quantization modelopt_fp4 --moe-a2a-backend megamoe"
    dp2 = f"--attn-cp-size 2 --attn-dp-size 2 --chunked-prefill-size 1024 --cuda-graph-max-bs-decode 512 {nextn}"
    assert errors(f"{VARIABLE}=1024 {base} {dp2}\n", "0.5.23", "b200") == []
    assert (
        errors(
            f"{VARIABLE}=64 {base} --attn-dp-size 8 --chunked-prefill-size 1024 {nextn}\n", "0.5.23", "b200"
        )
        == []
    )
    cp4 = f"{VARIABLE}=4096 {QWEN3} --attn-cp-size 4 --chunked-prefill-size 4096 --max-running-requests 16\n"
    assert errors(cp4, "0.5.23", "h100") == []


def test_else_branch_aligns_to_tp_over_the_attention_cp_size():
    text = f"{QWEN3} --attn-cp-size 4 --disable-cuda-graph\n"
    [error] = errors(text, "0.5.23", "b200")
    assert (
        "chunked_prefill_size=16384, token_partition=none, token_partition_size=1, token_alignment=2, "
        "required_per_rank=16384" in error.message
    )
    assert "with no token partition (TP 8, attention CP 4)" in error.message


def test_dp_size_without_attention_dp_takes_the_else_branch_on_0_5_21():
    text = (
        f"{DSV3} --tp-size 8 --quantization modelopt_fp4 --moe-a2a-backend pplx --dp-size 8 "
        "--chunked-prefill-size 131072 --moe-runner-backend megamoe\n"
    )
    [error] = errors(text, "0.5.21", "h100")
    assert (
        "chunked_prefill_size=131072, token_partition=none, token_partition_size=1, token_alignment=8, "
        "required_per_rank=131072" in error.message
    )


def test_decode_budget_judged_beside_context_parallel_flags():
    """--attn-cp-size (and --enable-prefill-cp, --cp-strategy) feed no function that sets the decode
    CUDA graph's max batch (`handle_gpu_memory_settings` reads none of them, 0.5.9-0.5.23), so the
    decode side is judged beside them too (it was left unknown there: a missed refusal). Oracle
    (a2a_cp-style draws, seed 23006 on 0.5.22, fake H100): 512 (H100, TP 8) x 2 draft tokens =
    1024 > 256, refused with this message."""
    text = (
        f"{VARIABLE}=256 {DSV3} --tp-size 8 --quantization modelopt_fp4 --moe-a2a-backend megamoe "
        "--dp-size 8 --enable-dp-attention --attn-cp-size 1 --speculative-algorithm EAGLE "
        "--speculative-num-steps 1 --speculative-eagle-topk 1 --speculative-num-draft-tokens 2\n"
    )
    [error] = errors(text, "0.5.22", "h100")
    assert (error.code, error.span.line, error.span.column) == ("SPD009", *at(text, "megamoe"))
    assert "decode cuda graph max bs x tokens per request = 1024" in error.message
    assert "x 2 draft tokens per request (EAGLE) = 1024 tokens per rank" in error.message
