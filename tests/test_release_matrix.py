"""Every bundled SGLang release x correct and known-bad launches (issue 13 "Must show").

Correct launches are clean on every release that has the features they use, decided from
the release's own facts (flags in its schema, classes in its model registry, algorithm
names in its SpeculativeAlgorithm); the known-bad ones are flagged on every such release.
Lints run in-process (`lint_text`), one lint per cell.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from speclint.core.findings import Severity
from speclint.engine import lint_text
from speclint.settings.options import LintOptions
from speclint.sglang import releases

ROOT = Path(__file__).resolve().parent.parent
RELEASES = [r.version for r in releases()]
TARGET = "fixtures/models/llama-3.1-8b-instruct"
EAGLE3_DRAFT = "fixtures/models/eagle3-llama-3.1-8b-instruct"
EAGLE_DRAFT = "fixtures/models/eagle-llama-3.1-8b-instruct"
SPEC_FLAGS = (
    "--speculative-algorithm",
    "--speculative-draft-model-path",
    "--speculative-num-steps",
    "--speculative-eagle-topk",
    "--speculative-num-draft-tokens",
    "--max-running-requests",
)


def spec_launch(algorithm: str, draft: str, steps: int = 3, topk: int = 1, tokens: int = 4) -> str:
    return (
        f"python -m sglang.launch_server --model-path {TARGET} --speculative-algorithm "
        f"{algorithm} --speculative-draft-model-path {draft} --speculative-num-steps {steps}"
        f" --speculative-eagle-topk {topk} --speculative-num-draft-tokens {tokens}"
        " --max-running-requests 48\n"
    )


EAGLE3_OK = spec_launch("EAGLE3", EAGLE3_DRAFT)
EAGLE2_OK = spec_launch("EAGLE", EAGLE_DRAFT)
DP_ATTENTION = (
    f"python -m sglang.launch_server --model-path {TARGET} --tp-size 8 --dp-size 8 --enable-dp-attention\n"
)
EAGLE_WITH_EAGLE3_DRAFT = spec_launch("EAGLE", EAGLE3_DRAFT)
TOPK1_16_TOKENS = spec_launch("EAGLE3", EAGLE3_DRAFT, tokens=16)


def speculative_release(version: str, algorithm: str, *classes: str) -> bool:
    """The release has every flag, the algorithm and the classes the launch uses."""
    from speclint.sglang import release

    rel = release(version)
    choices = rel.choices("--speculative-algorithm")
    return (
        all(rel.has_flag(f) for f in SPEC_FLAGS)
        and algorithm in rel.speculative_algorithms
        and (choices is None or algorithm in choices)
        and all(rel.registers(c) for c in ("LlamaForCausalLM", *classes))
    )


def lint(text: str, version: str):
    result = lint_text(text, "launch.sh", LintOptions(sglang_version=version))
    assert result.error is None, result.error
    return result


def shown(findings) -> list[str]:
    return [f"{f.code} [{f.severity.label}] {f.message}" for f in findings]


@pytest.fixture(autouse=True)
def _in_repo_root(monkeypatch, tmp_path):
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "no-cache"))


def test_matrix_covers_every_bundled_release():
    assert len(RELEASES) == 92
    assert RELEASES[0] == "0.4.0" and RELEASES[-1] == "0.5.23"


@pytest.mark.parametrize(
    "algorithm,draft,classes",
    [
        ("EAGLE3", EAGLE3_DRAFT, ("LlamaForCausalLMEagle3",)),
        ("EAGLE", EAGLE_DRAFT, ("LlamaForCausalLMEagle",)),
    ],
)
def test_correct_speculative_launches_are_clean_on_every_release_that_has_them(algorithm, draft, classes):
    text = spec_launch(algorithm, draft)
    having = [v for v in RELEASES if speculative_release(v, algorithm, *classes)]
    assert len(having) >= 60, having  # EAGLE-3 from 0.4.5 on, EAGLE from 0.4.1.post* on
    dirty = {v: shown(lint(text, v).findings) for v in having}
    dirty = {v: found for v, found in dirty.items() if found}
    assert not dirty, dirty


def test_eagle3_launch_names_no_unregistered_drafter_where_the_release_registers_it():
    """The false DRF010 of issue 13, release by release (0.5.22 and 0.5.10 among them)."""
    for version in ("0.5.22", "0.5.10", "0.5.5", "0.4.5"):
        assert speculative_release(version, "EAGLE3", "LlamaForCausalLMEagle3"), version
        assert not [f for f in lint(EAGLE3_OK, version).findings if f.code == "DRF010"]


def test_drf010_still_reports_a_class_the_release_does_not_register():
    text = EAGLE3_OK.replace("eagle3-llama-3.1-8b-instruct", "eagle3-unregistered-arch")
    for version in ("0.5.22", "0.4.5"):
        (finding,) = [f for f in lint(text, version).findings if f.code == "DRF010"]
        assert finding.severity == Severity.ERROR
        assert f"is not registered in SGLang {version}" in finding.message
        assert "LlamaForCausalLMEagle3" in finding.fix_hint  # the release's own EAGLE-3 heads


@pytest.mark.parametrize("version", RELEASES)
def test_dp_attention_launch_agrees_with_explain(version):
    """`--tp-size 8 --dp-size 8 --enable-dp-attention`: no error anywhere, and PAR003 exactly
    where the resolution `explain` shows changes enable_dp_attention."""
    from speclint.sglang import release

    rel = release(version)
    if not all(rel.has_flag(f) for f in ("--enable-dp-attention", "--dp-size", "--tp-size")):
        pytest.skip(f"SGLang {version} has no attention DP")
    result = lint(DP_ATTENTION, version)
    (ctx,) = result.contexts
    changed = ctx.resolution.adjustment("enable_dp_attention") is not None
    par003 = [f for f in result.findings if f.code == "PAR003"]
    assert bool(par003) == changed, (changed, shown(result.findings))
    assert not [f for f in result.findings if f.severity == Severity.ERROR], shown(result.findings)
    expected = {"PAR003"} if changed else set()
    spec = rel.flag("--enable-dp-attention")
    if spec.deprecated and not changed:
        expected.add("FLG008")  # read from the release's own add_cli_args
    assert {f.code for f in result.findings} == expected, shown(result.findings)


def test_dp_attention_matrix_covers_releases_the_issue_names():
    for version in ("0.5.7", "0.5.10", "0.5.19", "0.5.22", "0.5.23"):
        assert version in RELEASES


def test_known_bad_eagle_with_an_eagle3_drafter_is_flagged_on_every_release():
    having = [v for v in RELEASES if speculative_release(v, "EAGLE", "LlamaForCausalLMEagle3")]
    assert len(having) >= 60
    missed = [
        v
        for v in having
        if not [
            f
            for f in lint(EAGLE_WITH_EAGLE3_DRAFT, v).findings
            if f.code.startswith("DRF") and f.severity >= Severity.WARNING
        ]
    ]
    assert not missed, missed


def test_known_bad_topk_one_with_16_draft_tokens_is_flagged_on_every_release():
    """Every release that rewrites the draft tokens to steps + 1 for topk 1; 0.4.4.post2-0.4.5.post2
    keep 16 (recorded, session 13) and get no finding."""
    from speclint.sglang.traits import traits_for

    having = [v for v in RELEASES if speculative_release(v, "EAGLE3", "LlamaForCausalLMEagle3")]
    kept = [v for v in having if not traits_for(v).topk_one_forces_draft_tokens]
    assert kept == ["0.4.4.post2", "0.4.4.post3", "0.4.4.post4", "0.4.5", "0.4.5.post1", "0.4.5.post2"]
    missed = {}
    for version in having:
        found = [f for f in lint(TOPK1_16_TOKENS, version).findings if f.severity >= Severity.WARNING]
        if not found and version not in kept:
            missed[version] = shown(lint(TOPK1_16_TOKENS, version).findings)
        if version in kept:
            assert not [f for f in found if f.code == "SPD001"], version
    assert not missed, missed
