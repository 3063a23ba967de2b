"""The page sizes cutlass_mla and fa4 force, per release (`ReleaseTraits.cutlass_mla_pages`,
`fa4_pages`), as `speclint explain` and `speclint check` show them. Expected values are the
real releases' (tools/oracle/record_release.py on a fake H100 / B200, session 6), where
speclint said page size 1 (fa4) or unknown (cutlass_mla) before."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from speclint_runs import run_speclint

ROOT = Path(__file__).resolve().parent.parent
LLAMA = "fixtures/models/llama-3.1-8b-instruct"
DSV3 = "fixtures/models/deepseek-v3"
EAGLE3 = "fixtures/models/eagle3-llama-3.1-8b-instruct"


def _run(tmp_path: Path, command: str, *args: str) -> subprocess.CompletedProcess[str]:
    script = tmp_path / "launch.sh"
    script.write_text(command)
    return run_speclint(*args, str(script), timeout=60)


def pages(tmp_path: Path, version: str, gpu: str | None, *launches: str) -> list[object]:
    """The page size `explain --output-format json` states for each launch (or why not)."""
    text = "".join(f"python -m sglang.launch_server --model-path {a}\n" for a in launches)
    options = ["--sglang-version", version] + (["--gpu", gpu] if gpu else [])
    result = _run(tmp_path, text, "explain", "--output-format", "json", *options)
    assert result.returncode == 0, result.stderr
    return [
        launch["unknown"]["page_size"]
        if "page_size" in launch["unknown"]
        else launch["effective"]["page_size"]
        for launch in json.loads(result.stdout)
    ]


def test_fa4_on_blackwell_runs_with_pages_of_128_for_a_non_mla_model(tmp_path):
    launches = (
        f"{LLAMA} --attention-backend fa4",
        f"{LLAMA} --prefill-attention-backend fa4",
        f"{DSV3} --prefill-attention-backend fa4",  # MLA: left alone
        f"{LLAMA} --attention-backend fa4 --speculative-algorithm EAGLE3 "
        f"--speculative-draft-model-path {EAGLE3} --speculative-num-steps 3 "
        "--speculative-eagle-topk 4 --speculative-num-draft-tokens 8",  # tree drafts keep 1
    )
    assert pages(tmp_path, "0.5.23", "b200", *launches) == [128, 128, 1, 1]
    assert pages(tmp_path, "0.5.18", "b200", *launches)[:2] == [128, 128]
    assert pages(tmp_path, "0.5.23", "h100", *launches[:2]) == [1, 1]  # not SM100


def test_fa4_page_rule_of_each_older_release(tmp_path):
    prefill = (f"{LLAMA} --prefill-attention-backend fa4", f"{DSV3} --prefill-attention-backend fa4")
    # 0.5.4.post3: any model; 0.5.6.post2: non-MLA, whatever the GPU; 0.5.14: and SM100
    assert pages(tmp_path, "0.5.4.post3", "h100", *prefill) == [128, 128]
    assert pages(tmp_path, "0.5.6.post2", "h100", *prefill[:1]) == [128]
    assert pages(tmp_path, "0.5.14", "h100", *prefill[:1]) == [1]
    assert pages(tmp_path, "0.5.14", "b200", *prefill[:1]) == [128]
    # --attention-backend fa4 is not fa4's page rule in 0.5.14
    assert pages(tmp_path, "0.5.14", "b200", f"{LLAMA} --attention-backend fa4") == [1]


def test_fa4_page_size_without_a_gpu_is_unknown_with_why(tmp_path):
    [page] = pages(
        tmp_path, "0.5.14", None, f"{LLAMA} --attention-backend triton --prefill-attention-backend fa4"
    )
    assert isinstance(page, str) and "pass --gpu" in page


def test_fa4_text_output_says_sglang_warns(tmp_path):
    result = _run(
        tmp_path,
        f"python -m sglang.launch_server --model-path {LLAMA} --attention-backend fa4\n",
        "explain",
        "--sglang-version",
        "0.5.23",
        "--gpu",
        "b200",
    )
    assert (
        "page_size: 128  (set by SGLang: the fa4 attention backend runs with page size 128 on "
        "this GPU and model; SGLang logs one warning)"
    ) in result.stdout


def test_cutlass_mla_runs_with_pages_of_128(tmp_path):
    launch = f"{LLAMA} --attention-backend cutlass_mla --page-size 16"
    assert pages(tmp_path, "0.5.6.post2", "b200", launch) == [128]
    assert pages(tmp_path, "0.5.18", "b200", launch, f"{LLAMA} --decode-attention-backend cutlass_mla") == [
        128,
        128,
    ]


def test_cutlass_mla_pages_refuse_tree_drafts(tmp_path):
    """SGLang 0.5.6.post2 refuses topk > 1 with pages > 1 on cutlass_mla (its page size is
    128 whatever --page-size says); speclint said nothing before."""
    command = (
        f"python -m sglang.launch_server --model-path {LLAMA} --speculative-algorithm STANDALONE "
        f"--speculative-draft-model-path {LLAMA} --speculative-num-steps 1 "
        "--speculative-eagle-topk 8 --page-size 64 --attention-backend cutlass_mla\n"
    )
    result = _run(tmp_path, command, "check", "--sglang-version", "0.5.6.post2")
    assert result.returncode == 1
    column = command.index("cutlass_mla") + 1
    assert f"launch.sh:1:{column}: SPD007 [error] SGLang 0.5.6.post2 refuses this launch" in result.stdout
    assert "got attention_backend='cutlass_mla'" in result.stdout


def test_flex_attention_disables_cuda_graphs_and_aiter_memory_is_unknown(tmp_path):
    """SGLang 0.5.23 turns CUDA graphs off for flex_attention (as for torch_native) and scales
    the memory fraction for aiter (attention_hook.py; recorded: prefill graphs 'disabled',
    mem_fraction_static 0.7055 on an H100); speclint stated 'breakable' and 0.83 before."""
    script = tmp_path / "launch.sh"
    script.write_text(
        "".join(
            f"python -m sglang.launch_server --model-path fixtures/models/qwen3-8b --attention-backend {b}\n"
            for b in ("flex_attention", "aiter", "fa3")
        )
    )
    result = _run(
        tmp_path,
        script.read_text(),
        "explain",
        "--output-format",
        "json",
        "--sglang-version",
        "0.5.23",
        "--gpu",
        "h100",
    )
    flex, aiter, fa3 = json.loads(result.stdout)
    assert flex["effective"]["cuda_graph_backend_prefill"] == "disabled"
    assert [a["reason"] for a in flex["adjustments"] if a["field"] == "cuda_graph_backend_prefill"] == [
        "the flex_attention attention backend disables CUDA graphs"
    ]
    assert aiter["unknown"]["mem_fraction_static"].startswith("the aiter attention backend scales it by 0.85")
    assert aiter["effective"]["cuda_graph_backend_prefill"] == "breakable"
    assert fa3["effective"]["cuda_graph_backend_prefill"] == "breakable"


def test_fa3_with_an_fp8_e5m2_cache_is_triton_only_where_resolution_does_it(tmp_path):
    """tools/gen_sglang_server_checks.py `fa3_e5m2_fallback`: 0.5.4.post1+ switch FA3 to Triton
    while resolving ("FlashAttention3 only supports fp8_e4m3 if using FP8; Setting attention
    backend to triton."); 0.5.3-0.5.4 do it in model_runner.py when the model loads, so the
    resolved value stays fa3 (found by seed wide-16208: 0.5.3.post1 resolved fa3 for
    DeepSeek-V3 on a B200 and an H100, speclint said triton)."""
    launch = f"python -m sglang.launch_server --model-path {DSV3} --tp-size 2 --attention-backend fa3 --kv-cache-dtype fp8_e5m2\n"
    for version, expected in (
        ("0.5.3.post1", "fa3"),
        ("0.5.4", "fa3"),
        ("0.5.4.post1", "triton"),
        ("0.5.23", "triton"),
    ):
        result = _run(
            tmp_path,
            launch,
            "explain",
            "--output-format",
            "json",
            "--sglang-version",
            version,
            "--gpu",
            "b200",
        )
        assert result.returncode == 0, result.stderr
        [stated] = json.loads(result.stdout)
        assert stated["effective"]["attention_backend"] == expected, version
