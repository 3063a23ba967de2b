"""`speclint explain --gpu`: the GPU-dependent fields SGLang 0.5.23 sets, and `unknown` without
a GPU. Expected values are the real SGLang 0.5.23's on a fake GPU of the profile (recorded
with tools/oracle, re-checked on 1,000 launches per profile by tests/test_oracle_wide.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from speclint_runs import run_speclint

ROOT = Path(__file__).resolve().parent.parent
LLAMA = "fixtures/models/llama-3.1-8b-instruct"
DSV3 = "fixtures/models/deepseek-v3"


def explain(tmp_path: Path, command: str, *options: str, cwd: Path = ROOT):
    script = tmp_path / "launch.sh"
    script.write_text(command + "\n")
    return run_speclint("explain", *options, str(script), cwd=cwd, timeout=60)


def explain_json(tmp_path: Path, command: str, *options: str) -> dict:
    result = explain(tmp_path, command, "--output-format", "json", *options)
    assert result.returncode == 0, result.stderr
    [launch] = json.loads(result.stdout)
    return launch


def test_h100_tp8_llama_gets_sglangs_gpu_dependent_values(tmp_path):
    launch = explain_json(
        tmp_path,
        f"python -m sglang.launch_server --model-path {LLAMA} --tp 8",
        "--gpu",
        "h100",
        "--gpus",
        "8",
    )
    eff = launch["effective"]
    assert eff["chunked_prefill_size"] == 8192
    assert eff["mem_fraction_static"] == 0.812
    assert eff["cuda_graph_max_bs"] == 512 and eff["cuda_graph_bs"][-3:] == [480, 496, 512]
    assert eff["cuda_graph_max_bs_prefill"] == 8192
    assert eff["attention_backend"] == "fa3" and eff["page_size"] == 1
    assert eff["tokenizer_path"] == LLAMA and eff["grammar_backend"] == "xgrammar"
    assert launch["gpu"]["name"] == "NVIDIA H100 80GB HBM3" and launch["gpu"]["count"] == 8
    assert "random_seed" in launch["unknown"]  # drawn at each start
    assert "chunked_prefill_size" not in launch["unknown"]


def test_b200_picks_trtllm_mha_and_page_size_64(tmp_path):
    eff = explain_json(
        tmp_path, f"python -m sglang.launch_server --model-path {LLAMA} --tp 8", "--gpu", "B200"
    )["effective"]
    assert eff["attention_backend"] == "trtllm_mha" and eff["page_size"] == 64
    assert eff["chunked_prefill_size"] == 16384 and eff["mem_fraction_static"] == 0.849


def test_without_a_gpu_the_gpu_fields_are_unknown_and_the_rest_predicted(tmp_path):
    launch = explain_json(
        tmp_path, f"python -m sglang.launch_server --model-path {LLAMA} --tp 8 --speculative-algorithm NGRAM"
    )
    for name in (
        "chunked_prefill_size",
        "mem_fraction_static",
        "cuda_graph_max_bs",
        "attention_backend",
        "page_size",
    ):
        assert launch["unknown"][name] == "depends on the GPU: pass --gpu"
        assert launch["effective"][name] is None
    assert launch["effective"]["tp_size"] == 8
    assert launch["effective"]["speculative_num_draft_tokens"] == 12
    assert launch["gpu"] is None


def test_flashmla_forces_page_size_64_even_without_a_gpu(tmp_path):
    launch = explain_json(
        tmp_path,
        f"python -m sglang.launch_server --model-path {DSV3} --attention-backend flashmla --page-size 32",
    )
    assert launch["effective"]["page_size"] == 64
    [change] = [a for a in launch["adjustments"] if a["field"] == "page_size"]
    assert change["from"] == 32 and change["sglang_handler"] == "_mla_backend_page_constraints"


def test_dp_attention_splits_chunked_prefill_and_is_reported_as_sglang_does(tmp_path):
    launch = explain_json(
        tmp_path,
        f"python -m sglang.launch_server --model-path {DSV3} --tp 8 "
        "--dp 8 --enable-dp-attention --speculative-algorithm EAGLE",
        "--gpu",
        "h100",
    )
    eff = launch["effective"]
    assert eff["chunked_prefill_size"] == 1024 and eff["mem_fraction_static"] == 0.573
    assert eff["schedule_conservativeness"] == pytest.approx(0.3)
    assert eff["attn_dp_size"] == 8 and eff["dp_size"] == 1
    changed = {a["field"]: a for a in launch["adjustments"]}
    assert changed["enable_dp_attention"]["from"] is True


def test_no_adjustment_for_a_value_sglang_leaves_alone(tmp_path):
    launch = explain_json(
        tmp_path, f"python -m sglang.launch_server --model-path {LLAMA} --tp 2", "--gpu", "h100"
    )
    assert not any(a["field"] == "enable_dp_attention" for a in launch["adjustments"])
    assert all(a["from"] != a["to"] for a in launch["adjustments"])


def test_text_output_names_the_gpu_and_what_sglang_set(tmp_path):
    result = explain(
        tmp_path,
        f"python -m sglang.launch_server --model-path {LLAMA} --tp 8",
        "--gpu",
        "h100",
        "--gpus",
        "8",
    )
    assert result.returncode == 0
    out = result.stdout
    assert "GPU: 8× NVIDIA H100 80GB HBM3 (NVIDIA, 81559 MiB, compute capability 9.0)" in out
    assert "chunked_prefill_size: 8192  (set by SGLang: the default for the GPU's memory" in out
    assert "attention_backend: fa3  (set by SGLang: SGLang's default: FA3 on Hopper" in out


def test_bad_gpu_options_exit_2(tmp_path):
    result = explain(tmp_path, "python -m sglang.launch_server --model-path m", "--gpu", "tpu9")
    assert result.returncode == 2 and "not a GPU profile" in result.stderr
    result = explain(tmp_path, "python -m sglang.launch_server --model-path m", "--gpus", "4")
    assert result.returncode == 2 and "--gpus needs --gpu" in result.stderr


def test_configuration_file_gpu(tmp_path):
    (tmp_path / ".speclint.toml").write_text('gpu = "4xb200"\n')
    result = explain(
        tmp_path,
        f"python -m sglang.launch_server --model-path {ROOT / LLAMA}",
        "--output-format",
        "json",
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    [launch] = json.loads(result.stdout)
    assert launch["gpu"]["profile"] == "b200" and launch["gpu"]["count"] == 4
    assert launch["effective"]["attention_backend"] == "trtllm_mha"
    (tmp_path / ".speclint.toml").write_text('gpu = "abacus"\n')
    result = explain(tmp_path, "python -m sglang.launch_server --model-path m", cwd=tmp_path)
    assert result.returncode == 2 and "`gpu` 'abacus' is not a GPU profile" in result.stderr


def test_rocm_profile_leaves_the_unverified_fields_unknown(tmp_path):
    launch = explain_json(tmp_path, f"python -m sglang.launch_server --model-path {LLAMA}", "--gpu", "mi300x")
    assert "unverified for SGLang 0.5.23" in launch["unknown"]["attention_backend"]
    assert launch["gpu"]["vendor"] == "amd" and launch["gpu"]["arch"] == "gfx942"


def test_argparse_rejection_is_shown_first(tmp_path):
    result = explain(
        tmp_path, f"python -m sglang.launch_server --model-path {LLAMA} --tp 8 --spec 3", "--gpu", "h100"
    )
    out = result.stdout.splitlines()
    stop = next(i for i, line in enumerate(out) if "argument parser stops" in line)
    effective = next(i for i, line in enumerate(out) if "effective configuration" in line)
    assert stop < effective and "ambiguous option: --spec" in out[stop]
    launch = explain_json(tmp_path, f"python -m sglang.launch_server --model-path {LLAMA} --no-such-flag 1")
    assert launch["rejection"]["sglang_handler"] == "argparse"
    assert "--no-such-flag" in launch["rejection"]["message"]


def test_older_release_says_unverified(tmp_path):
    launch = explain_json(
        tmp_path,
        f"python -m sglang.launch_server --model-path {LLAMA}",
        "--gpu",
        "h100",
        "--sglang-version",
        "0.5.2",
    )
    assert (
        launch["unknown"]["chunked_prefill_size"] == "GPU-dependent resolution is unverified for SGLang 0.5.2"
    )


def test_deepseek_on_blackwell_takes_sglangs_model_overrides(tmp_path):
    launch = explain_json(
        tmp_path, f"python -m sglang.launch_server --model-path {DSV3} --tp 8", "--gpu", "b200"
    )
    eff = launch["effective"]
    assert (eff["attention_backend"], eff["page_size"]) == ("trtllm_mla", 64)
    assert (eff["quantization"], eff["moe_runner_backend"]) == ("fp8", "flashinfer_trtllm")
    assert eff["disable_shared_experts_fusion"] is True
    assert eff["cuda_graph_backend_prefill"] == "disabled"
    assert eff["mem_fraction_static"] == 0.844 and eff["chunked_prefill_size"] == 16384
    handlers = {a["field"]: a["sglang_handler"] for a in launch["adjustments"]}
    assert handlers["attention_backend"] == "_deepseek_family_overrides"


def test_deepseek_prefill_graph_is_off_under_trtllm_mla_on_any_gpu(tmp_path):
    """`_disable_prefill_cuda_graph_for_deepseek_trtllm_mla` reads the prefill backend, not the
    GPU (recorded on an H100: seed 10101 of tools/oracle's battery), and leaves a prefill graph
    backend the launch sets (its phase is locked)."""
    command = f"python -m sglang.launch_server --model-path {DSV3} --prefill-attention-backend trtllm_mla"
    launch = explain_json(tmp_path, command, "--gpu", "h100")
    assert launch["effective"]["cuda_graph_backend_prefill"] == "disabled"
    *_, change = [a for a in launch["adjustments"] if a["field"] == "cuda_graph_backend_prefill"]
    assert change["sglang_handler"] == "_disable_prefill_cuda_graph_for_deepseek_trtllm_mla"
    given = explain_json(tmp_path, command + " --cuda-graph-backend-prefill breakable", "--gpu", "h100")
    assert given["effective"]["cuda_graph_backend_prefill"] == "breakable"
    plain = explain_json(tmp_path, f"python -m sglang.launch_server --model-path {DSV3}", "--gpu", "h100")
    assert plain["effective"]["cuda_graph_backend_prefill"] != "disabled"  # fa3 prefill


@pytest.mark.oracle
def test_the_real_0_5_23_keeps_a_locked_prefill_graph_backend():
    from oracle_harness import model, run_oracle

    argv = ["--model-path", model("deepseek-v3"), "--prefill-attention-backend", "trtllm_mla"]
    [off, kept] = run_oracle(
        [
            {"argv": argv, "gpu": "H100"},
            {"argv": [*argv, "--cuda-graph-backend-prefill", "breakable"], "gpu": "H100"},
        ]
    )
    assert off["effective"]["cuda_graph_config"]["prefill"]["backend"] == "disabled"
    assert kept["effective"]["cuda_graph_config"]["prefill"]["backend"] == "breakable"


def test_context_length_past_the_model_is_a_rejection_unless_allowed(tmp_path):
    launch = explain_json(
        tmp_path,
        "python -m sglang.launch_server --model-path fixtures/models/qwen3-8b --context-length 65536",
    )
    assert launch["rejection"]["sglang_handler"] == "ModelConfig._derive_context_length"
    assert "(65536) is greater than the derived context_length (40960)" in launch["rejection"]["message"]
    for allowed in ("SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1 ", ""):
        version = () if allowed else ("--sglang-version", "0.4.10.post2")
        launch = explain_json(
            tmp_path,
            allowed + "python -m sglang.launch_server --model-path "
            "fixtures/models/qwen3-8b --context-length 65536",
            *version,
        )
        assert launch["rejection"] is None
