"""--moe-a2a-backend deepep_v2's decode CUDA-graph budget (0.5.19+,
`validate_deepep_v2_dispatch_token_budget`, read per release by
tools/sglang_deepep_v2_decode.py) and the decode CUDA-graph batch size it reads, stated beside
an all-to-all backend (resolve/a2a_decode_graph.py). Found by record.py --generator a2a seeds
20002 and 20004 (0.5.19, 0.5.20, 0.5.23, fake H100): SGLang refused these launches and
speclint said nothing."""

from __future__ import annotations

from pathlib import Path

from explain_runs import explain_launches
from launch_errors import at, errors

MODELS = Path(__file__).resolve().parent.parent / "fixtures" / "models"
DSV3 = MODELS / "deepseek-v3"
DECODE = (
    f"python -m sglang.launch_server --model-path {DSV3} --tp-size 4 --quantization modelopt_fp4 "
    "--moe-a2a-backend deepep_v2 --dp-size 4 --disaggregation-mode decode --chunked-prefill-size 4096\n"
)


def _message(version: str, flag: str, how: str, required: int = 512, source: str = "its default 128") -> str:
    capacity = source.rsplit("=", 1)[-1].rsplit(" ", 1)[-1]
    return (
        f"SGLang {version} refuses this launch in validate_deepep_v2_dispatch_token_budget: ValueError: "
        "DeepEP v2 per-rank decode CUDA graph exceeds SGLANG_DEEPEP_V2_NUM_MAX_DISPATCH_TOKENS_PER_RANK: "
        f"required={required}, capacity={capacity} (requests={required}, tokens/request=1). Raise the "
        f"environment value or lower {flag}. (--moe-a2a-backend deepep_v2 on a decode server captures "
        f"decode CUDA graphs of up to {required} requests, 1 token each: {how}; > {source}; set "
        f"SGLANG_DEEPEP_V2_NUM_MAX_DISPATCH_TOKENS_PER_RANK to at least {required}, or pass {flag} "
        f"{capacity} or lower)"
    )


def test_decode_graph_budget_per_release():
    """The H100's decode CUDA graphs (512 requests with --tp-size 4) against the default 128;
    0.5.19's message names --cuda-graph-max-bs, 0.5.20+ --cuda-graph-max-bs-decode."""
    for version, flag in (
        ("0.5.19", "--cuda-graph-max-bs"),
        ("0.5.20", "--cuda-graph-max-bs-decode"),
        ("0.5.22", "--cuda-graph-max-bs-decode"),
        ("0.5.23", "--cuda-graph-max-bs-decode"),
    ):
        [error] = errors(DECODE, version, "h100")
        assert (error.code, error.span.line, error.span.column) == ("SPD009", *at(DECODE, "deepep_v2"))
        assert error.message == _message(version, flag, "cuda_graph_max_bs 512")
    # no deepep_v2 before 0.5.19: argparse refuses the choice, nothing else is said
    assert [e.code for e in errors(DECODE, "0.5.18", "h100")] == ["FLG006"]


def test_decode_graph_budget_reads_the_variable_running_requests_and_the_prefill_role():
    raised = "SGLANG_DEEPEP_V2_NUM_MAX_DISPATCH_TOKENS_PER_RANK=512 " + DECODE
    assert errors(raised, "0.5.23", "h100") == []
    low = "SGLANG_DEEPEP_V2_NUM_MAX_DISPATCH_TOKENS_PER_RANK=256 " + DECODE
    [error] = errors(low, "0.5.23", "h100")
    assert error.message == _message(
        "0.5.23",
        "--cuda-graph-max-bs-decode",
        "cuda_graph_max_bs 512",
        source="SGLANG_DEEPEP_V2_NUM_MAX_DISPATCH_TOKENS_PER_RANK=256",
    )
    # 0.5.22+ lowers the default decode max_bs to --max-running-requests (memory settings);
    # the check lowers it again to the requests per attention-DP rank
    capped = DECODE.replace("--dp-size 4", "--dp-size 4 --max-running-requests 100")
    assert errors(capped, "0.5.23", "h100") == []
    attn = DECODE.replace("--dp-size 4", "--attn-dp-size 2 --max-running-requests 400")
    [error] = errors(attn, "0.5.23", "h100")
    assert (error.span.line, error.span.column) == at(attn, "400")
    assert error.message == _message(
        "0.5.23",
        "--cuda-graph-max-bs-decode",
        "cuda_graph_max_bs 400, lowered to --max-running-requests 400 // 2 attention-DP ranks",
        required=200,
    )
    # a prefill server captures no decode graph; decode graphs off: nothing to check
    prefill = DECODE.replace("--disaggregation-mode decode", "--disaggregation-mode prefill")
    assert [e for e in errors(prefill, "0.5.23", "h100") if "decode CUDA graph" in e.message] == []
    off = DECODE.replace("--dp-size 4", "--dp-size 4 --disable-cuda-graph")
    assert [e for e in errors(off, "0.5.23", "h100") if "decode CUDA graph" in e.message] == []
    spec = DECODE.replace("--dp-size 4", "--dp-size 4 --speculative-algorithm NGRAM")
    assert [e for e in errors(spec, "0.5.23", "h100") if "decode CUDA graph" in e.message] == []


def test_explain_states_the_decode_graph_size_and_chunk_beside_an_all_to_all_backend(tmp_path):
    """`cuda_graph_max_bs` and `chunked_prefill_size` were unknown with --moe-a2a-backend; the
    oracle recorded these values (record.py --generator a2a seed 20004, 0.5.23, fake H100)."""
    small, split, mis = explain_launches(
        tmp_path,
        "0.5.23",
        "deepseek-v3 --tp-size 2 --moe-a2a-backend megamoe",
        "deepseek-v3 --tp-size 4 --moe-a2a-backend mori --attn-dp-size 2",
        "deepseek-v3 --tp-size 2 --moe-a2a-backend megamoe --enable-mis",
        gpu="h100",
    )
    assert small["effective"]["cuda_graph_max_bs"] == 256  # --tp-size below 4 on an 80 GB GPU
    assert small["effective"]["chunked_prefill_size"] == 8192
    assert "cuda_graph_max_bs" not in small["unknown"]
    # SGLang: "DP attention is enabled. chunked prefill size is adjusted from 8192 to 4096."
    effective = split["effective"]
    assert (effective["cuda_graph_max_bs"], effective["chunked_prefill_size"]) == (512, 4096)
    # a flag outside those the decode graph's writers ignore keeps both unknown
    assert "cuda_graph_max_bs" in mis["unknown"] and "chunked_prefill_size" in mis["unknown"]
