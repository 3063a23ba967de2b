"""The real SGLang 0.5.23 reproduces the table "Observed results on 0.5.23 (fake H100)"
of shared/reference/sglang-oracle.md.  Runs only with ``pytest -m oracle`` (installs the
oracle virtualenv on first use; skipped without network)."""

from __future__ import annotations

import pytest
from oracle_harness import declared_by, handlers, model, run_oracle

pytestmark = pytest.mark.oracle

LLAMA = model("llama-3.1-8b-instruct")
EAGLE1 = model("eagle-llama-3.1-8b-instruct")
EAGLE3 = model("eagle3-llama-3.1-8b-instruct")
DSV3 = model("deepseek-v3")
QWEN3 = model("qwen3-8b")
KIMI = model("kimi-k2.5")
KIMI_EAGLE3 = model("eagle3-kimi-k2.5")

SPEC = ["speculative_num_steps", "speculative_eagle_topk", "speculative_num_draft_tokens"]


CASES = {
    "eagle_topk1": [
        "--model-path",
        LLAMA,
        "--speculative-algorithm",
        "EAGLE",
        "--speculative-draft-model-path",
        EAGLE1,
        "--speculative-eagle-topk",
        "1",
        "--speculative-num-steps",
        "3",
        "--speculative-num-draft-tokens",
        "16",
    ],
    "eagle3_topk1": [
        "--model-path",
        LLAMA,
        "--speculative-algorithm",
        "EAGLE3",
        "--speculative-draft-model-path",
        EAGLE3,
        "--speculative-eagle-topk",
        "1",
        "--speculative-num-steps",
        "3",
        "--speculative-num-draft-tokens",
        "16",
    ],
    "eagle3_topk4": [
        "--model-path",
        LLAMA,
        "--speculative-algorithm",
        "EAGLE3",
        "--speculative-draft-model-path",
        EAGLE3,
        "--speculative-eagle-topk",
        "4",
        "--speculative-num-steps",
        "3",
        "--speculative-num-draft-tokens",
        "16",
    ],
    "eagle3_auto": [
        "--model-path",
        LLAMA,
        "--speculative-algorithm",
        "EAGLE3",
        "--speculative-draft-model-path",
        EAGLE3,
    ],
    "eagle3_partial": [
        "--model-path",
        LLAMA,
        "--speculative-algorithm",
        "EAGLE3",
        "--speculative-draft-model-path",
        EAGLE3,
        "--speculative-eagle-topk",
        "4",
        "--speculative-num-draft-tokens",
        "8",
    ],
    "dsv3_nextn_tp8": ["--model-path", DSV3, "--speculative-algorithm", "NEXTN", "--tp", "8"],
    "ngram": ["--model-path", LLAMA, "--speculative-algorithm", "NGRAM"],
    "rejection_threshold": [
        "--model-path",
        LLAMA,
        "--speculative-algorithm",
        "EAGLE",
        "--speculative-draft-model-path",
        EAGLE1,
        "--speculative-use-rejection-sampling",
        "--speculative-accept-threshold-single",
        "0.5",
        "--speculative-eagle-topk",
        "1",
        "--speculative-num-steps",
        "3",
        "--speculative-num-draft-tokens",
        "4",
    ],
    "no_spec": ["--model-path", LLAMA],
    "unknown_flag": ["--model-path", LLAMA, "--no-such-flag", "1"],
    # every model fixture loads (no "Unrecognized model")
    "qwen3_eagle3_auto": [
        "--model-path",
        QWEN3,
        "--speculative-algorithm",
        "EAGLE3",
        "--speculative-draft-model-path",
        EAGLE3,
    ],
    "kimi_k25_eagle3_tp8": [
        "--model-path",
        KIMI,
        "--tp",
        "8",
        "--speculative-algorithm",
        "EAGLE3",
        "--speculative-draft-model-path",
        KIMI_EAGLE3,
    ],
}


@pytest.fixture(scope="module")
def results() -> dict[str, dict]:
    names = list(CASES)
    out = run_oracle([{"argv": CASES[n], "gpu": "H100"} for n in names])
    return dict(zip(names, out))


def eff(res: dict, *fields: str):
    values = tuple(res["effective"][f] for f in fields)
    return values[0] if len(values) == 1 else values


def test_fake_h100_defaults(results):
    r = results["no_spec"]
    assert r["ok"], r
    assert eff(r, "device", "attention_backend", "chunked_prefill_size", "mem_fraction_static") == (
        "cuda",
        "fa3",
        8192,
        0.83,
    )
    assert r["effective"]["cuda_graph_config"]["decode"]["max_bs"] == 256


def test_eagle_topk1_rewrites_draft_tokens(results):
    r = results["eagle_topk1"]
    assert r["ok"], r
    assert eff(r, *SPEC) == (3, 1, 4)
    assert eff(r, "max_running_requests") == 48
    assert eff(r, "speculative_draft_model_revision") == "main"
    assert eff(r, "enable_mixed_chunk", "disable_overlap_schedule") == (False, False)
    assert declared_by(r, "speculative_num_draft_tokens") == [("_handle_eagle_family", 4)]
    assert declared_by(r, "max_running_requests") == [("_handle_eagle_family", 48)]
    assert r["raw"]["speculative_num_draft_tokens"] == 16  # the user's value, unchanged
    assert any("adjusted to speculative_num_steps + 1" in m for _, _, m in r["logs"])


def test_eagle3_topk1_rewrites_draft_tokens(results):
    r = results["eagle3_topk1"]
    assert r["ok"], r
    assert eff(r, *SPEC) == (3, 1, 4)


def test_eagle3_topk4_keeps_draft_tokens(results):
    r = results["eagle3_topk4"]
    assert r["ok"], r
    assert eff(r, *SPEC) == (3, 4, 16)
    assert not declared_by(r, "speculative_num_draft_tokens")


def test_eagle3_auto_params_llama(results):
    r = results["eagle3_auto"]
    assert r["ok"], r
    assert eff(r, *SPEC) == (5, 4, 8)
    assert eff(r, "max_running_requests") == 48
    assert "_handle_eagle_family.auto_params" in handlers(r)


def test_partial_spec_params_bare_assertion(results):
    r = results["eagle3_partial"]
    assert not r["ok"]
    assert (r["stage"], r["error_type"], r["error"]) == ("resolve", "AssertionError", "")


def test_deepseek_v3_nextn(results):
    r = results["dsv3_nextn_tp8"]
    assert r["ok"], r
    assert eff(r, "speculative_algorithm") == "EAGLE"
    assert eff(r, "speculative_draft_model_path") == DSV3
    assert eff(r, *SPEC) == (3, 1, 4)
    assert eff(r, "max_running_requests") == 48
    assert declared_by(r, "speculative_algorithm") == [
        ("handle_speculative_decoding", "NEXTN"),
        ("handle_speculative_decoding", "EAGLE"),
    ]
    assert declared_by(r, "speculative_draft_model_path") == [("_handle_eagle_family", DSV3)]


def test_ngram(results):
    r = results["ngram"]
    assert r["ok"], r
    assert eff(r, "speculative_eagle_topk", "speculative_num_draft_tokens", "speculative_num_steps") == (
        10,
        12,
        1,
    )
    assert eff(r, "max_running_requests") == 48
    assert eff(r, "enable_mixed_chunk") is False
    assert declared_by(r, "enable_mixed_chunk") == [("_handle_ngram", False)]


def test_rejection_sampling_with_threshold_rejected(results):
    r = results["rejection_threshold"]
    assert (r["ok"], r["stage"], r["error_type"]) == (False, "resolve", "ValueError")


def test_no_speculative_flags_no_change(results):
    r = results["no_spec"]
    assert r["ok"], r
    assert eff(r, "speculative_algorithm", *SPEC, "max_running_requests") == (None,) * 5
    for name, fields in r["declared"]:
        assert not (set(fields) & {*SPEC, "max_running_requests"}), name


def test_unknown_flag_is_a_parse_error(results):
    r = results["unknown_flag"]
    assert (r["ok"], r["stage"], r["error_type"]) == (False, "parse", "SystemExit")
    assert r["error"] == "error: unrecognized arguments: --no-such-flag 1"
    assert r["declared"] == [] and r["effective"] == {}


def test_other_fixtures_load(results):
    r = results["qwen3_eagle3_auto"]
    assert r["ok"], r
    assert eff(r, *SPEC) == (3, 1, 4)  # 0.5.23: non-Llama targets get (3, 1, 4)
    r = results["kimi_k25_eagle3_tp8"]
    assert r["ok"], r
    assert eff(r, "speculative_algorithm", *SPEC) == ("EAGLE3", 3, 1, 4)
