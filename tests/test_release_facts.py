"""speclint.sglang.release(V): one object per release; facts read per release; findings that
rest on a fact not read for the checked release are at most warnings and say so."""

from __future__ import annotations

import json
import os
import shlex
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from unmodelled import unmodelled

from speclint.cli import main
from speclint.core.findings import Severity
from speclint.engine import lint_text
from speclint.settings.options import LintOptions
from speclint.sglang import DRAFTER, FLAGS, MODELS, RESOLUTION, first_release, release
from speclint.sglang.flags.schema import supported_versions
from speclint.sglang.registry import read_versions

ROOT = Path(__file__).resolve().parent.parent
EAGLE3 = (
    "python -m sglang.launch_server --model-path fixtures/models/llama-3.1-8b-instruct"
    " --speculative-algorithm EAGLE3 --speculative-draft-model-path"
    " fixtures/models/eagle3-llama-3.1-8b-instruct --speculative-num-steps 3"
    " --speculative-eagle-topk 1 --speculative-num-draft-tokens 4\n"
)


@pytest.fixture(autouse=True)
def _in_repo_root(monkeypatch, tmp_path):
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "no-cache"))


def test_one_cached_object_per_release():
    assert release("0.5.10") is release("0.5.10")
    assert release("0.5.10").version == "0.5.10"


def test_registry_and_drafter_facts_cover_every_bundled_release():
    assert read_versions() == supported_versions()
    assert len(read_versions()) == 92
    for version in read_versions():
        rel = release(version)
        assert rel.verified(FLAGS) and rel.verified(MODELS) and rel.verified(DRAFTER), version
        assert "LlamaForCausalLM" in rel.models.architectures, version


def test_registry_is_the_releases_own():
    """Read from each wheel: EAGLE heads appear when SGLang added them and stay."""
    eagle = first_release(lambda r: bool(r.registers("LlamaForCausalLMEagle")))
    eagle3 = first_release(lambda r: bool(r.registers("LlamaForCausalLMEagle3")))
    assert eagle is not None and eagle3 is not None and eagle < eagle3
    assert eagle3.version == "0.4.4.post2"
    later = [r for r in (release(v) for v in read_versions()) if not r < eagle3]
    assert all(r.registers("LlamaForCausalLMEagle3") for r in later)
    assert not release("0.5.6.post2").registers("Eagle3DeepseekV2ForCausalLM")
    assert release("0.5.14").registers("Eagle3DeepseekV2ForCausalLM")
    assert "EAGLE3" in release("0.5.10").speculative_algorithms
    assert "EAGLE3" not in release("0.4.1.post2").speculative_algorithms
    assert (
        release("0.5.23").capture_family("KimiK25ForConditionalGeneration") == "deepseek_first_id"
    )  # forwards its ids to DeepseekV3ForCausalLM


@pytest.fixture
def one_unmodelled():
    """Every bundled release resolves as itself now: one is taken out of TRAITS (unmodelled.py)."""
    with unmodelled() as version:
        yield version


def borrowing(newer_than: str = "0.0.0") -> list:
    """Releases whose resolution was neither read nor recorded (they follow another)."""
    return [
        release(v)
        for v in read_versions()
        if not release(v).resolution_exact and release(newer_than) < release(v)
    ]


def test_resolution_follows_the_closest_older_modelled_release(one_unmodelled):
    from speclint.sglang.traits import TRAITS

    modelled = sorted(release(v) for v in TRAITS)
    assert release("0.5.14").resolution_exact and release("0.5.14").unverified(RESOLUTION) == ""
    assert [r.version for r in borrowing(modelled[0].version)] == [one_unmodelled]
    for rel in borrowing(modelled[0].version):
        follows = max(m for m in modelled if m < rel)
        assert rel.resolution_follows == follows.version
        assert not rel.verified(RESOLUTION)
        assert rel.unverified(RESOLUTION) == (
            f"unverified for SGLang {rel.version}: its resolution was not read, speclint "
            f"follows SGLang {follows.version}"
        )


def test_cli_correct_eagle3_launch_on_a_pinned_older_release(tmp_path):
    script = tmp_path / "serve.sh"
    script.write_text(EAGLE3.replace("\n", " --max-running-requests 48\n"))
    result = CliRunner().invoke(main, ["check", "--sglang-version", "0.5.22", str(script)])
    assert result.exit_code == 0, result.output
    assert "DRF010" not in result.output
    assert "All checks passed" in result.output


def test_explain_json_says_whether_resolution_is_exact(tmp_path, one_unmodelled):
    script = tmp_path / "serve.sh"
    script.write_text(EAGLE3)
    rel = borrowing()[-1]
    for version, follows, exact in ((rel.version, rel.resolution_follows, False), ("0.5.23", "0.5.23", True)):
        result = CliRunner().invoke(
            main, ["explain", "--sglang-version", version, "--output-format", "json", str(script)]
        )
        assert result.exit_code == 0, result.output
        (entry,) = json.loads(result.output)
        assert (entry["resolution_modelled_on"], entry["resolution_exact"]) == (follows, exact)


REFUSED = (
    "python -m sglang.launch_server --model-path m --tp-size 3 --nnodes 2 --node-rank 0 "
    "--dist-init-addr 10.0.0.1:5000\n"
)


def test_error_on_a_borrowed_resolution_is_a_warning_that_says_unverified(one_unmodelled):
    """check_server_args refuses a TP size the nodes do not divide (read, and recorded, in the
    release a borrowing one follows): an error there. A release that borrows that resolution:
    the same finding, as a warning that says so."""
    rel = borrowing()[-1]
    (own,) = [
        f
        for f in lint_text(REFUSED, "a.sh", LintOptions(sglang_version=rel.resolution_follows)).findings
        if f.code == "PAR005"
    ]
    assert own.severity == Severity.ERROR and "unverified" not in own.message
    (borrowed,) = [
        f
        for f in lint_text(REFUSED, "a.sh", LintOptions(sglang_version=rel.version)).findings
        if f.code == "PAR005"
    ]
    assert borrowed.severity == Severity.WARNING
    assert borrowed.message.endswith(
        f"unverified for SGLang {rel.version}: its resolution was "
        f"not read, speclint follows SGLang {rel.resolution_follows}"
    )
    assert f"SGLang {rel.version}'s check_server_args stops every node" in borrowed.message


def test_par003_agrees_with_explain_when_dp_size_is_one():
    """--enable-dp-attention without --dp-size: PAR003 exactly where the resolution changes
    or refuses the flag, on the releases the issue names."""
    text = "python -m sglang.launch_server --model-path m --tp-size 8 --enable-dp-attention\n"
    for version in ("0.5.7", "0.5.10", "0.5.19", "0.5.22", "0.5.23"):
        result = lint_text(text, "a.sh", LintOptions(sglang_version=version))
        (ctx,) = result.contexts
        changed = (
            ctx.resolution.adjustment("enable_dp_attention") is not None
            or ctx.resolution.rejection is not None
        )
        par003 = [f for f in result.findings if f.code == "PAR003"]
        assert changed and len(par003) == 1, (version, [f.message for f in result.findings])
        assert f"SGLang {version}" in par003[0].message


@pytest.mark.oracle
@pytest.mark.parametrize("version", ["0.4.4.post2", "0.5.10", "0.5.22"])
def test_regenerating_reproduces_the_stored_registry(version):
    """Reads the wheel again (downloads it into .cache/sglang-wheels/ when missing)."""
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    from gen_sglang_facts import load, read_release
    from gen_sglang_schema import wheel_path

    stored = load()
    raw = stored["releases"][version]
    names = stored["names"]
    fresh = read_release(wheel_path(version))
    assert [names[i] for i in raw["architectures"]] == fresh["architectures"]
    assert {k: [names[i] for i in v] for k, v in raw["capture"].items()} == fresh["capture"]
    assert raw["speculative_algorithms"] == fresh["speculative_algorithms"]


def _codes(text: str, version: str) -> set[str]:
    return {f.code for f in lint_text(text, "a.sh", LintOptions(sglang_version=version)).findings}


def test_entry_point_facts_come_from_each_releases_own_source():
    """`sglang serve MODEL` (positional model path), `--model-type` dropping and `--config
    FILE`, from the release the source first has them (tools/gen_sglang_schema.py notes)."""
    positional = first_release(lambda r: r.serve_positional_model_path)
    drops = first_release(lambda r: r.serve_drops_model_type)
    config = first_release(lambda r: r.merges_config_file)
    assert (config.version, drops.version, positional.version) == ("0.5.3", "0.5.10", "0.5.16")
    serve = "sglang serve fixtures/models/llama-3.1-8b-instruct --tp-size 1\n"
    assert _codes(serve, "0.5.16") == set()
    assert _codes(serve, "0.5.15.post1") == {"FLG010", "FLG011"}
    typed = "sglang serve --model-type llm --model-path m\n"
    assert _codes(typed, "0.5.10") == set()
    assert _codes(typed, "0.5.9") == {"FLG001"}


def test_speclint_run_argv_lint_caps_borrowed_resolution_errors_too(one_unmodelled):
    """`speclint run` lints argv through the same cap: a refusal read for a release is an error
    there and a warning on a release that borrows its resolution."""
    from speclint.gate.launch import lint_argv

    argv = shlex.split(REFUSED)
    rel = borrowing()[-1]
    for version, severity in ((rel.resolution_follows, Severity.ERROR), (rel.version, Severity.WARNING)):
        found = lint_argv(argv, {}, LintOptions(sglang_version=version)).result.findings
        (par005,) = [f for f in found if f.code == "PAR005"]
        assert par005.severity == severity, version
        assert ("unverified for SGLang" in par005.message) == (severity == Severity.WARNING)
