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
