"""Attention backends refused for the GPU, as each release refuses them (speclint.sglang.resolve.
backend_gpu; the facts are checked launch by launch by tests/test_oracle_recordings.py)."""

from __future__ import annotations

from unmodelled import unmodelled

from speclint.engine import lint_text
from speclint.settings.options import LintOptions
from speclint.sglang.resolve.gpu_profiles import profile

LLAMA = "fixtures/models/llama-3.1-8b-instruct"


def _codes(version: str, flags: str, gpu: str | None) -> list[str]:
    text = f"python -m sglang.launch_server --model-path {LLAMA} {flags}\n"
    options = LintOptions(sglang_version=version, read_pyproject=False, gpu=profile(gpu) if gpu else None)
    return [f.code for f in lint_text(text, "launch.sh", options).findings if f.severity.name == "ERROR"]


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


def _effective(version: str, flags: str, gpu: str | None, model: str = LLAMA) -> dict:
    text = f"python -m sglang.launch_server --model-path {model} {flags}\n"
    options = LintOptions(sglang_version=version, read_pyproject=False, gpu=profile(gpu) if gpu else None)
    return lint_text(text, "launch.sh", options).contexts[0].resolution.effective


EAGLE_AUTO = (
    "--speculative-algorithm EAGLE --speculative-draft-model-path fixtures/models/eagle-llama-3.1-8b-instruct"
)


def test_the_backend_a_release_picks_for_the_gpu_decides_its_tree_checks():
    # 0.5.6 picks trtllm_mha on a B200 before the EAGLE parameters are chosen (topk 4)
    assert _effective("0.5.6.post2", "", "b200")["attention_backend"] == "trtllm_mha"
    assert _codes("0.5.6.post2", EAGLE_AUTO, "b200") == ["SPD007"]
    # 0.5.7 wants a topk given with speculative decoding: flashinfer, accepted
    assert _effective("0.5.7", EAGLE_AUTO, "b200")["attention_backend"] == "flashinfer"
    assert _codes("0.5.7", EAGLE_AUTO, "b200") == []
    assert _effective("0.5.6.post2", "", "h100")["attention_backend"] == "fa3"


def test_without_a_gpu_the_picked_backend_stays_unknown():
    assert _codes("0.5.6.post2", EAGLE_AUTO, None) == []
    backend = _effective("0.5.6.post2", "", None)["attention_backend"]
    assert type(backend).__name__ == "Unknown"


def test_0_5_2_rewrites_the_deprecated_moe_flags():
    effective = _effective("0.5.2", "--tp-size 8 --enable-ep-moe --enable-deepep-moe", None)
    assert effective["ep_size"] == 8
    assert effective["moe_a2a_backend"] == "deepep"


def test_a_refusal_borrowed_from_an_older_recorded_release_is_an_unverified_warning():
    # a release neither read nor recorded (0.5.6.post1 taken out): it follows 0.5.6, whose
    # trtllm_mha needs SM100
    text = f"python -m sglang.launch_server --model-path {LLAMA} --attention-backend trtllm_mha\n"
    options = LintOptions(sglang_version="0.5.6.post1", read_pyproject=False, gpu=profile("h100"))
    with unmodelled("0.5.6.post1"):
        [finding] = [f for f in lint_text(text, "launch.sh", options).findings if f.code == "PAR009"]
    assert finding.severity.name == "WARNING"
    assert "unverified for SGLang 0.5.6.post1" in finding.message


def test_a_gpu_refusal_of_a_release_recorded_in_session_13_is_an_error():
    """0.5.6.post1 followed 0.5.6 (trtllm_mha needs SM100) and said so as a warning,
    "unverified for SGLang 0.5.6.post1"; recorded (tests/data/oracle/0.5.6.post1.json.gz) and
    resolved as itself, its own refusal is an error."""
    text = f"python -m sglang.launch_server --model-path {LLAMA} --attention-backend trtllm_mha\n"
    options = LintOptions(sglang_version="0.5.6.post1", read_pyproject=False, gpu=profile("h100"))
    [finding] = [f for f in lint_text(text, "launch.sh", options).findings if f.code == "PAR009"]
    assert (finding.severity.name, finding.span.line, finding.span.column) == (
        "ERROR",
        1,
        text.index("trtllm_mha") + 1,
    )
    assert finding.message == (
        "SGLang 0.5.6.post1 refuses this launch on NVIDIA H100 80GB HBM3: TRTLLM MHA backend is "
        "only supported on Blackwell GPUs (SM100). Please use a different backend."
    )


def test_a_refusal_resting_on_the_picked_backend_names_it():
    text = f"python -m sglang.launch_server --model-path {LLAMA} {EAGLE_AUTO}\n"
    options = LintOptions(sglang_version="0.5.6.post2", read_pyproject=False, gpu=profile("b200"))
    [finding] = [f for f in lint_text(text, "launch.sh", options).findings if f.code == "SPD007"]
    assert "trtllm_mha backend only supports topk = 1" in finding.message
    assert "no --attention-backend: SGLang 0.5.6.post2 picks trtllm_mha on NVIDIA B200" in finding.message
