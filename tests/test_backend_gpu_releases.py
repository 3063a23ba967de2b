"""Attention backends refused for the GPU, as each release refuses them (speclint.resolve.
backend_gpu; the facts are checked launch by launch by tests/test_oracle_recordings.py)."""

from __future__ import annotations

from speclint.lint import LintOptions, lint_text
from speclint.resolve.gpu_profiles import profile

LLAMA = "fixtures/models/llama-3.1-8b-instruct"


def _codes(version: str, flags: str, gpu: str | None) -> list[str]:
    text = f"python -m sglang.launch_server --model-path {LLAMA} {flags}\n"
    options = LintOptions(sglang_version=version, read_pyproject=False,
                          gpu=profile(gpu) if gpu else None)
    return [f.code for f in lint_text(text, "launch.sh", options).findings
            if f.severity.name == "ERROR"]


def test_trtllm_mha_on_hopper_follows_the_release():
    assert _codes("0.5.6.post2", "--attention-backend trtllm_mha", "h100") == ["PAR009"]
    assert _codes("0.5.14", "--prefill-attention-backend trtllm_mha", "h100") == ["PAR009"]
    assert _codes("0.5.14", "--decode-attention-backend trtllm_mha", "h100") == []
    assert _codes("0.5.23", "--attention-backend trtllm_mha", "h100") == []
    assert _codes("0.5.6.post2", "--attention-backend trtllm_mha", "b200") == []


def test_trtllm_mla_needs_blackwell_in_every_release_that_has_it():
    for version in ("0.4.10.post2", "0.5.6.post2", "0.5.14", "0.5.23"):
        assert _codes(version, "--attention-backend trtllm_mla", "h100") == ["PAR009"], version
        assert _codes(version, "--attention-backend trtllm_mla", None) == [], version


def test_fa4_as_the_decode_backend_is_refused_where_the_release_refuses_it():
    codes = _codes("0.5.6.post2", "--attention-backend fa4", None)
    assert codes == ["SPD009"]
    assert _codes("0.5.8.post1", "--attention-backend fa4", None) == []
