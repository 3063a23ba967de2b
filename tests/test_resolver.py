"""The resolver predicts SGLang's effective configuration, per release (sglang-behaviours.md B4-B10)."""

from __future__ import annotations

from pathlib import Path

import pytest

from speclint.engine import lint_text
from speclint.settings.options import LintOptions
from speclint.sglang.resolve.result import Unknown

ROOT = Path(__file__).resolve().parent.parent
LLAMA = "fixtures/models/llama-3.1-8b-instruct"
QWEN3 = "fixtures/models/qwen3-8b"
DEEPSEEK = "fixtures/models/deepseek-v3"


@pytest.fixture(autouse=True)
def _in_repo_root(monkeypatch):
    monkeypatch.chdir(ROOT)


def resolve(flags: str, version: str = "0.5.23", env: str = ""):
    text = f"{env} python -m sglang.launch_server {flags}\n"
    [ctx] = lint_text(text, "x.sh", LintOptions(sglang_version=version)).contexts
    return ctx.resolution


def triple(resolution):
    e = resolution.effective
    return (e["speculative_num_steps"], e["speculative_eagle_topk"], e["speculative_num_draft_tokens"])


@pytest.mark.parametrize("draft, expected", [(16, 4), (2, 4), (4, 4)])
def test_topk1_sets_draft_tokens_to_steps_plus_one_both_directions(draft, expected):
    r = resolve(
        f"--model-path {LLAMA} --speculative-algorithm EAGLE --speculative-draft-model-path d"
        f" --speculative-eagle-topk 1 --speculative-num-steps 3"
        f" --speculative-num-draft-tokens {draft}"
    )
    assert r.effective["speculative_num_draft_tokens"] == expected
    change = r.adjustment("speculative_num_draft_tokens")
    assert (change is not None) == (draft != expected)
    if change:
        assert change.logged and "steps + 1" in change.logged


def test_seed_story_topk1_one_step_16_tokens_runs_with_2():
    r = resolve(
        "--model-path m --speculative-algorithm EAGLE3 --speculative-draft-model-path d"
        " --speculative-eagle-topk 1 --speculative-num-steps 1 --speculative-num-draft-tokens 16"
    )
    assert triple(r) == (1, 1, 2)


@pytest.mark.parametrize(
    "version, target, expected",
    [
        ("0.5.23", LLAMA, (5, 4, 8)),
        ("0.5.23", QWEN3, (3, 1, 4)),
        ("0.5.23", DEEPSEEK, (3, 1, 4)),
        ("0.5.6.post2", QWEN3, (5, 4, 8)),
        ("0.5.6.post2", DEEPSEEK, (3, 1, 4)),
        ("0.4.10.post2", QWEN3, (5, 4, 8)),
    ],
)
def test_auto_chosen_params_depend_on_target_architecture_and_version(version, target, expected):
    r = resolve(
        f"--model-path {target} --speculative-algorithm EAGLE3 --speculative-draft-model-path d", version
    )
    assert triple(r) == expected
    assert r.adjustment("speculative_num_steps").handler.endswith("auto_params")


def test_auto_params_unknown_without_the_target_config():
    r = resolve("--model-path /nowhere --speculative-algorithm EAGLE3 --speculative-draft-model-path d")
    assert all(isinstance(v, Unknown) for v in triple(r))


def test_topk_without_steps_is_a_bare_assertion():
    r = resolve(
        f"--model-path {LLAMA} --speculative-algorithm EAGLE3 --speculative-draft-model-path d"
        " --speculative-eagle-topk 4 --speculative-num-draft-tokens 16"
    )
    assert r.rejection.exception == "AssertionError"


@pytest.mark.parametrize("version, exception", [("0.5.23", "TypeError"), ("0.4.10.post2", None)])
def test_steps_alone(version, exception):
    r = resolve(
        f"--model-path {LLAMA} --speculative-algorithm EAGLE3 --speculative-draft-model-path d"
        " --speculative-num-steps 3",
        version,
    )
    assert (r.rejection.exception if r.rejection else None) == exception


def test_nextn_becomes_eagle_and_mtp_target_drafts_from_itself():
    r = resolve(f"--model-path {DEEPSEEK} --speculative-algorithm NEXTN --tp-size 8")
    assert r.effective["speculative_algorithm"] == "EAGLE"
    assert r.effective["speculative_draft_model_path"] == DEEPSEEK
    assert triple(r) == (3, 1, 4)
    assert r.effective["max_running_requests"] == 48


def test_max_running_requests_kept_when_given_and_silent_in_0_4():
    assert (
        resolve("--model-path m --speculative-algorithm NGRAM --max-running-requests 256").effective[
            "max_running_requests"
        ]
        == 256
    )
    r = resolve(
        f"--model-path {LLAMA} --speculative-algorithm EAGLE --speculative-draft-model-path d", "0.4.10.post2"
    )
    assert r.effective["max_running_requests"] == 48
    assert r.adjustment("max_running_requests").logged is None


def test_ngram_overwrites_topk_and_defaults_draft_tokens_and_steps():
    r = resolve("--model-path m --speculative-algorithm NGRAM --speculative-eagle-topk 2")
    assert triple(r) == (1, 10, 12)
    assert r.adjustment("speculative_eagle_topk").asked == 2


def test_overlap_and_mixed_chunk_by_version():
    flags = (
        f"--model-path {LLAMA} --speculative-algorithm EAGLE3 --speculative-draft-model-path d"
        " --enable-mixed-chunk"
    )
    new = resolve(flags, "0.5.23").effective
    assert (new["enable_mixed_chunk"], new["disable_overlap_schedule"]) == (True, False)
    mid = resolve(flags, "0.5.14").effective
    assert (mid["enable_mixed_chunk"], mid["disable_overlap_schedule"]) == (False, False)
    old = resolve(flags, "0.5.6.post2").effective
    assert (old["enable_mixed_chunk"], old["disable_overlap_schedule"]) == (False, True)
    spec_v2 = resolve(flags.replace("EAGLE3", "EAGLE"), "0.5.6.post2", env="SGLANG_ENABLE_SPEC_V2=1")
    assert spec_v2.effective["disable_overlap_schedule"] is False


def test_lower_case_algorithm_is_upper_cased_from_0_5_14():
    r = resolve("--model-path m --speculative-algorithm ngram")
    assert r.effective["speculative_algorithm"] == "NGRAM"


def test_unknown_algorithm_is_rejected():
    assert (
        "Unknown speculative algorithm name: MEDUSA"
        in resolve("--model-path m --speculative-algorithm medusa").rejection.message
    )


def test_aux_hidden_states_turn_speculation_off():
    r = resolve("--model-path m --speculative-algorithm EAGLE3 --enable-return-aux-hidden-states")
    assert r.effective["speculative_algorithm"] is None
    assert r.effective["max_running_requests"] is None


def test_dflash_forces_one_step_and_topk_one():
    r = resolve(
        "--model-path m --speculative-algorithm DFLASH --speculative-draft-model-path d"
        " --speculative-num-steps 4 --speculative-eagle-topk 2 --speculative-dflash-block-size 8"
    )
    assert triple(r) == (1, 1, 8)


def test_page_size_with_tree_on_a_rejecting_backend():
    flags = (
        f"--model-path {LLAMA} --speculative-algorithm EAGLE --speculative-draft-model-path d"
        " --speculative-num-steps 3 --speculative-eagle-topk 4 --speculative-num-draft-tokens 8"
        " --page-size 16 --attention-backend {}"
    )
    assert resolve(flags.format("flashmla")).rejection.exception == "ValueError"
    assert resolve(flags.format("triton")).rejection is None
    assert resolve(flags.format("triton"), "0.5.6.post2").rejection is not None


def test_a_word_that_cannot_be_read_makes_later_overridable_values_unknown():
    r = resolve("--model-path m --speculative-algorithm NGRAM $EXTRA --max-running-requests 64")
    assert r.effective["max_running_requests"] == 64
    r = resolve("--model-path m --max-running-requests 64 $EXTRA --speculative-algorithm NGRAM")
    assert isinstance(r.effective["max_running_requests"], Unknown)
