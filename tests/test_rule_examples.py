"""Every rule carries examples: its `invalid` ones and its page's "Example" blocks must
trigger it; its `valid` ones and "Use instead" blocks must not. An invalid example also states
what the user sees: where the finding points, a fragment of its message, and the launch after
its fix (or that it has none)."""

from __future__ import annotations

from pathlib import Path

import pytest

from speclint.engine import lint_text
from speclint.rules import all_rules
from speclint.rules.base import NO_FIX
from speclint.rules.pages import page_example_gpu, page_examples, rule_page
from speclint.runner.fix import apply_edits, edits_of
from speclint.settings.options import LintOptions
from speclint.sglang.resolve.gpu_profiles import parse_gpu_setting

ROOT = Path(__file__).resolve().parent.parent
RULES = all_rules()


@pytest.fixture(autouse=True)
def _in_repo_root(monkeypatch):
    """Examples name model folders under fixtures/ relative to the project root."""
    monkeypatch.chdir(ROOT)


def _codes(source: str, version: str | None, gpu: str | None = None) -> set[str]:
    profile = parse_gpu_setting(gpu) if gpu else None
    result = lint_text(source, "example.sh", LintOptions(sglang_version=version, gpu=profile))
    return {f.code for f in result.findings}


def _cases(which: str):
    for rule in RULES:
        for index, example in enumerate(rule.examples(which)):
            yield pytest.param(rule, example, id=f"{rule.code}-{which}-{index}")


@pytest.mark.parametrize("rule, example", list(_cases("invalid")))
def test_invalid_examples_trigger_their_rule(rule, example):
    assert rule.code in _codes(example.source, example.sglang_version, example.gpu)


@pytest.mark.parametrize("rule, example", list(_cases("invalid")))
def test_invalid_examples_show_position_message_and_fix(rule, example):
    assert example.at and example.says and example.fixed, (
        "an invalid example states at= (line:column), says= (message fragment) and fixed="
    )
    profile = parse_gpu_setting(example.gpu) if example.gpu else None
    result = lint_text(
        example.source, "example.sh", LintOptions(sglang_version=example.sglang_version, gpu=profile)
    )
    found = {f"{f.span.line}:{f.span.column}": f for f in result.findings if f.code == rule.code}
    assert example.at in found, f"{rule.code} reports at {sorted(found)}, not {example.at}"
    finding = found[example.at]
    assert example.says in finding.message
    edits = edits_of(finding)
    fixed = apply_edits(example.source, edits)[0] if edits else NO_FIX
    assert fixed == example.fixed


@pytest.mark.parametrize("rule, example", list(_cases("valid")))
def test_valid_examples_do_not_trigger_their_rule(rule, example):
    assert rule.code not in _codes(example.source, example.sglang_version, example.gpu)


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_every_rule_has_examples_and_a_page(rule):
    assert list(rule.examples("invalid")) and list(rule.examples("valid"))
    page = rule_page(rule)
    for section in ("What it does", "Why it matters", "Example", "Use instead"):
        assert f"## {section}" in page, f"{rule.code} page lacks '{section}'"
    on_disk = ROOT / "rules" / f"{rule.name}.md"
    assert on_disk.is_file(), f"run `python tools/gen_rule_docs.py` to write {on_disk.name}"
    assert on_disk.read_text() == page, f"{on_disk.name} is stale: run tools/gen_rule_docs.py"


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_page_examples_behave_as_documented(rule):
    blocks = page_examples(rule_page(rule))
    assert blocks.get("Example") and blocks.get("Use instead")
    for source, version in blocks["Example"]:
        assert rule.code in _codes(source, version, page_example_gpu(source)), source
    for source, version in blocks["Use instead"]:
        assert rule.code not in _codes(source, version, page_example_gpu(source)), source


def test_codes_and_names_are_unique_and_well_formed():
    import re

    codes = [r.code for r in RULES]
    names = [r.name for r in RULES]
    assert len(set(codes)) == len(codes) and len(set(names)) == len(names)
    for rule in RULES:
        assert re.fullmatch(r"[A-Z]{3}\d{3}", rule.code)
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", rule.name)


@pytest.mark.parametrize("rule, example", list(_cases("invalid")))
def test_every_finding_names_its_rule_and_says_how_to_fix_it(rule, example):
    profile = parse_gpu_setting(example.gpu) if example.gpu else None
    result = lint_text(
        example.source, "example.sh", LintOptions(sglang_version=example.sglang_version, gpu=profile)
    )
    for finding in result.findings:
        assert finding.name and finding.message and finding.fix_hint.strip(), finding
