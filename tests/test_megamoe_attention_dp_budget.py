"""MegaMoE's prefill token budget on its attention-DP branch (0.5.21+), each branch's
assignments read per release by tools/sglang_megamoe_dp.py (`budget_branches`). Oracle (custom
cases, 0.5.21, 0.5.22 and 0.5.23, fake B200): Qwen3-8B modelopt_fp4 megamoe at TP 8 with
attention DP 2 and --chunked-prefill-size 131072 refused with chunked_prefill_size=65536 (the
handler's split chunk), token_partition_size=2, token_alignment=4, required_per_rank=32768;
attention DP 8 with 131072, attention DP 2 with the B200's default, attention DP 4 with 32768
and the variable at 4096 accepted."""

from __future__ import annotations

from pathlib import Path

from launch_errors import errors

MODELS = Path(__file__).resolve().parent.parent / "fixtures" / "models"
VARIABLE = "SGLANG_OPT_DEEPGEMM_MEGA_MOE_NUM_MAX_TOKENS_PER_RANK"
BASE = (
    f"python -m sglang.launch_server --model-path {MODELS / 'qwen3-8b'} --tp-size 8 --quantization "
    "modelopt_fp4 --moe-a2a-backend megamoe"
)


def _errors(text: str, version: str, gpu: str = "b200"):
    return errors(text, version, gpu)


def _column(text: str, token: str) -> int:
    return text.index(token) + 1


def test_attention_dp_branch_splits_the_handler_chunk_again():
    text = BASE + " --dp-size 2 --enable-dp-attention --chunked-prefill-size 131072\n"
    for version, partition in (("0.5.21", "dp_size"), ("0.5.22", "attn_dp_size"), ("0.5.23", "attn_dp_size")):
        [error] = _errors(text, version)
        assert (error.code, error.span.line, error.span.column) == ("SPD009", 1, _column(text, "megamoe"))
        assert error.message == (
            f"SGLang {version} refuses this launch in validate_mega_moe_token_budget: ValueError: "
            f"Qwen3ForCausalLM with MegaMoE requires {VARIABLE} to cover each rank's effective prefill "
            "token budget. Current values: chunked_prefill_size=65536, "
            f"token_partition={partition}, token_partition_size=2, token_alignment=4, "
            f"required_per_rank=32768, {VARIABLE}=8192. Set {VARIABLE} to at least 32768, or lower "
            "--chunked-prefill-size until the effective per-rank budget fits. (--moe-a2a-backend "
            "megamoe with attention DP 2: chunked prefill 65536 (--chunked-prefill-size 131072 / "
            "attention-DP size 2), split again over 2 and aligned up to 4, needs 32768 tokens per "
            f"rank, {VARIABLE} unset (default 8192); set {VARIABLE}=32768 or more, or lower "
            "--chunked-prefill-size)"
        )


def test_attention_dp_branch_aligns_up_and_reads_attn_dp_size_and_the_variable():
    text = f"{VARIABLE}=2048 {BASE} --dp-size 2 --enable-dp-attention --chunked-prefill-size 8200\n"
    [error] = _errors(text, "0.5.22")
    assert "chunked_prefill_size=4100, token_partition=attn_dp_size" in error.message
    assert f"token_alignment=4, required_per_rank=2052, {VARIABLE}=2048." in error.message
    attn = BASE + " --attn-dp-size 2 --chunked-prefill-size 65536\n"
    [error] = _errors(attn, "0.5.22")
    assert "chunked_prefill_size=32768, token_partition=attn_dp_size, token_partition_size=2" in error.message
    assert "required_per_rank=16384" in error.message


def test_attention_dp_branch_accepted_where_the_release_accepted():
    for version in ("0.5.21", "0.5.22", "0.5.23"):
        assert (
            _errors(BASE + " --dp-size 8 --enable-dp-attention --chunked-prefill-size 131072\n", version)
            == []
        )
        assert _errors(BASE + " --dp-size 2 --enable-dp-attention\n", version) == []  # 16384 / 2 / 2
        raised = f"{VARIABLE}=4096 {BASE} --dp-size 4 --enable-dp-attention --chunked-prefill-size 32768\n"
        assert _errors(raised, version) == []
    assert (
        _errors(BASE + " --dp-size 2 --enable-dp-attention --chunked-prefill-size $CHUNK\n", "0.5.23") == []
    )
    decode = (
        BASE
        + " --dp-size 2 --enable-dp-attention --chunked-prefill-size 131072 --disaggregation-mode decode\n"
    )
    assert [e for e in _errors(decode, "0.5.23") if "token_partition" in e.message] == []
