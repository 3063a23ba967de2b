"""Resolved values session 9's refusal differential found wrong (tools/oracle/differential.py,
battery seeds 9101 and 9102; the recordings are tests/data/oracle/seeds/): the MTP draft's
revision before 0.5.6, 0.5.23's attention backend for DFLASH on Blackwell."""

from __future__ import annotations

import os

from speclint.engine import lint_text
from speclint.settings.options import LintOptions

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODELS = os.path.join(ROOT, "fixtures", "models")
FP8_CHECKPOINT = os.path.join(MODELS, "deepseek-v3")
PLAIN = os.path.join(MODELS, "llama-3.1-8b-instruct")


def _launch(model: str, flags: str) -> str:
    return f"python -m sglang.launch_server --model-path {model} {flags}\n"


def _effective(version: str, text: str, gpu: str) -> dict:
    from speclint.sglang.resolve.gpu_profiles import profile

    options = LintOptions(sglang_version=version, read_pyproject=False, gpu=profile(gpu))
    resolution = lint_text(text, "launch.sh", options).contexts[0].resolution
    assert resolution is not None
    return dict(resolution.effective)


def test_mtp_draft_revision_follows_the_target_only_from_0_5_6():
    """The MTP draft taken from the target gets --revision as its draft revision from 0.5.6
    (recorded: 0.5.2 leaves it None, seed 9101)."""
    text = _launch(FP8_CHECKPOINT, "--speculative-algorithm EAGLE --revision r1 --tp-size 8")
    assert _effective("0.5.2", text, "h100")["speculative_draft_model_revision"] is None
    assert _effective("0.5.6.post2", text, "h100")["speculative_draft_model_revision"] == "r1"


def test_dflash_on_blackwell_gets_trtllm_mha_in_0_5_23():
    """0.5.23 `_forces_eagle_topk_one`: DFLASH without a topk still gets trtllm_mha on SM100
    (recorded, seed 9101); EAGLE3 without a topk keeps flashinfer."""
    qwen3 = os.path.join(ROOT, "fixtures", "models", "qwen3-8b")
    text = _launch(
        qwen3, f"--speculative-algorithm DFLASH --speculative-draft-model-path {qwen3} --page-size 32"
    )
    effective = _effective("0.5.23", text, "b200")
    assert (effective["attention_backend"], effective["page_size"]) == ("trtllm_mha", 32)
    eagle = _launch(PLAIN, "--speculative-algorithm EAGLE3 --speculative-draft-model-path x --page-size 32")
    assert _effective("0.5.23", eagle, "b200")["attention_backend"] == "flashinfer"


def test_gguf_given_turns_tc_piecewise_prefill_graphs_off_before_the_memory_reserve():
    """0.5.10-0.5.14 `_handle_piecewise_cuda_graph` / `disable_tc_piecewise_cudagraph_if_incompatible`:
    --quantization gguf (as given) disables the tc_piecewise prefill
    CUDA graphs, so their reserve is not taken (oracle: 0.5.12.post1 on a fake H100, seed
    moe-14003: mem_fraction_static 0.835, speclint said 0.83); 0.5.17's breakable graphs are
    not tested for it."""
    qwen3 = os.path.join(MODELS, "qwen3-8b")
    for version, switch, off in (
        ("0.5.12.post1", "disable_piecewise_cuda_graph", True),  # the release's own field (prefill_names)
        ("0.5.14", "cuda_graph_backend_prefill", "disabled"),
    ):
        effective = _effective(version, _launch(qwen3, "--quantization gguf"), "h100")
        assert effective[switch] == off, version
        assert effective["mem_fraction_static"] == 0.835, version
        assert (
            _effective(version, _launch(qwen3, "--quantization fp8"), "h100")["mem_fraction_static"] == 0.83
        )
    assert _effective("0.5.17", _launch(qwen3, "--quantization gguf"), "h100")["mem_fraction_static"] == 0.83
