"""Fields worked out beside --moe-a2a-backend where the release's influencers of the field (read
by tools/gen_sglang_server_fields.py, resolve/constants_beside.py `WORKED_BESIDE`) are modelled
fields: the DP LM head (from the data-parallel sizes), the decode CUDA-graph batch sizes (from
their largest), the sampling backend (FlashInfer on CUDA) and, 0.5.13.post1 and older, the piecewise
(prefill) CUDA graphs' sizes. Oracle (record.py --generator a2a,
seeds 29003, 29009 and 30031, fake H100/B200; tools/oracle/README.md "Session 30"): SGLang
0.5.8.post1 gives this launch (recorded in seed 29009) enable_dp_lm_head False, flashinfer and the
sizes below; 0.5.14's resolution reads --moe-a2a-backend for them, so they stay unknown."""

from __future__ import annotations


def _explain(tmp_path, version: str, flags: str, gpu: str = "b200") -> dict:
    from explain_runs import explain_launches

    [record] = explain_launches(tmp_path, version, f"deepseek-v3 --tp-size 4 {flags}", gpu=gpu)
    return record


def test_stated_where_the_release_reads_only_modelled_fields(tmp_path):
    record = _explain(tmp_path, "0.5.8.post1", "--moe-a2a-backend deepep")
    effective, unknown = record["effective"], record["unknown"]
    assert "enable_dp_lm_head" not in unknown and effective["enable_dp_lm_head"] is False
    assert "cuda_graph_bs" not in unknown and "sampling_backend" not in unknown
    assert effective["sampling_backend"] == "flashinfer"
    sizes = effective["cuda_graph_bs"]
    assert sizes[:8] == [1, 2, 4, 8, 12, 16, 24, 32] and sizes[-3:] == [480, 496, 512] and len(sizes) == 52
    [why] = [a["reason"] for a in record["adjustments"] if a["field"] == "cuda_graph_bs"]
    assert why == "decode CUDA-graph batch sizes up to 512"
    assert effective["piecewise_cuda_graph_max_tokens"] == 2048  # (the MLA size)
    tokens = effective["piecewise_cuda_graph_tokens"]
    assert tokens[:9] == [4, 8, 12, 16, 20, 24, 28, 32, 48] and tokens[-5:] == [1024, 1280, 1536, 1792, 2048]
    assert len(tokens) == 41 and "piecewise_cuda_graph_tokens" not in unknown


def test_unknown_where_the_release_reads_the_a2a_backend_for_them(tmp_path):
    record = _explain(tmp_path, "0.5.14", "--moe-a2a-backend deepep")
    unknown = record["unknown"]
    assert record["effective"]["cuda_graph_max_bs"] == 512  # (a2a_decode_graph.py)
    for field in ("enable_dp_lm_head", "cuda_graph_bs", "sampling_backend"):
        assert unknown[field] == "--moe-a2a-backend feeds SGLang hooks speclint does not model", field
