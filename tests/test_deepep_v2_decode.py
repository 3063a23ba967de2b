"""--moe-a2a-backend deepep_v2's decode CUDA-graph budget (0.5.19+,
`validate_deepep_v2_dispatch_token_budget`, read per release by
tools/sglang_deepep_v2_decode.py) and the decode CUDA-graph batch size it reads, stated beside
an all-to-all backend (resolve/a2a_decode_graph.py). Found by record.py --generator a2a seeds
20002 and 20004 (0.5.19, 0.5.20, 0.5.23, fake H100): SGLang refused these launches and
speclint said nothing."""

from __future__ import annotations

from pathlib import Path

from explain_runs import explain_launches

MODELS = Path(__file__).resolve().parent.parent / "fixtures" / "models"
DSV3 = MODELS / "deepseek-v3"


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
