"""Launches made by SGLang's test fixture bases (`class TestX(EagleServerBase)`): read with the
base's source from the newest release that has it (speclint.sglang.fixtures), each word placed
where the user can change it (their value, or the base's name where the file writes it)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from speclint.cli import main
from speclint.core.findings import Severity
from speclint.engine import lint_path
from speclint.settings.options import LintOptions, Selection
from speclint.sglang.fixtures import newest_fixture

ROOT = Path(__file__).resolve().parent.parent
FORMS = ROOT / "tests" / "data" / "fixture_bases"
EAGLE = "sglang.test.server_fixtures.eagle_fixture"


@pytest.fixture(autouse=True)
def _no_model_cache(monkeypatch, tmp_path):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "no-cache"))


def _lint(name: str, version: str | None = None, select: str | None = None):
    options = LintOptions(sglang_version=version)
    if select is not None:
        options = LintOptions(sglang_version=version, selection=Selection(select=(select,)))
    return lint_path(str(FORMS / name), options)


def _where(finding) -> tuple[int, int, int]:
    return finding.span.line, finding.span.column, finding.span.end_column


def _stored_default(name: str) -> str:
    """A DEFAULT_* constant as the newest release's test_utils.py gives it (the stored data)."""
    source = newest_fixture(EAGLE, "EagleServerBase")
    assert source is not None
    found = re.search(rf"^{name} = '([^']*)'$", source.text, re.M)
    assert found is not None
    return found.group(1)


def test_subclass_choosing_eagle_for_an_eagle3_drafter_gets_the_finding_a_plain_launch_gets():
    sub = {f.code: f for f in _lint("eagle_subclass.py").findings}
    plain = {f.code: f for f in _lint("eagle_plain.py").findings}
    assert set(sub) == set(plain) and "DRF012" in sub
    assert sub["DRF012"].message == plain["DRF012"].message
    assert _where(sub["DRF012"]) == (9, 17, 24)  # `"EAGLE"` in `spec_algo = "EAGLE"`
    notes = [note.message for note in sub["DRF012"].notes]
    assert any("launch read from EagleServerBase of SGLang 0.5.23" in note for note in notes)


def test_explain_shows_the_flags_the_base_passes_with_the_subclass_values():
    out = CliRunner().invoke(main, ["explain", str(FORMS / "eagle_subclass.py")]).output
    flags = out.split("flags as given:")[1].split("effective configuration:")[0]
    assert [line.strip() for line in flags.strip().splitlines()] == [
        f"--model-path {_stored_default('DEFAULT_TARGET_MODEL_EAGLE')}",
        "--speculative-algorithm EAGLE",
        "--speculative-draft-model-path jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B",
        "--speculative-num-steps 5",
        "--speculative-eagle-topk 8",
        "--speculative-num-draft-tokens 16",
        "--mem-fraction-static 0.7",
        "--tp-size 2  (as --tp)",
    ]


def test_words_of_the_base_point_at_its_name_and_user_values_at_theirs():
    (ctx,) = _lint("eagle_subclass.py").contexts
    spans = {word.text: (word.span.line, word.span.column) for word in ctx.launch.args}
    assert spans["--speculative-num-steps=5"] == (8, 28)  # `EagleServerBase` in the class statement
    assert spans["--speculative-num-draft-tokens=16"] == (11, 19)
    assert spans["--tp"] == (12, 20)
    assert ctx.launch.fixture is not None and ctx.launch.fixture.release == "0.5.23"


def test_an_intermediate_class_and_its_subclass_are_alternatives_of_one_launch():
    result = _lint("intermediate.py")
    assert len(result.contexts) == 2
    whens = [ctx.launch.alternative.conditions[0].description for ctx in result.contexts]
    assert whens == ["the class is Eagle3Base (line 4)", "the class is TestEagle3Tokens (line 9)"]
    draft_tokens = [
        next(w.text for w in ctx.launch.args if w.text.startswith("--speculative-num-draft-tokens"))
        for ctx in result.contexts
    ]
    assert draft_tokens == ["--speculative-num-draft-tokens=64", "--speculative-num-draft-tokens=16"]
    spd001 = sorted(_where(f) for f in result.findings if f.code == "SPD001")
    assert spd001 == [(4, 18, 33), (10, 19, 21)]  # the base's own 64 at its name; the user's 16


def test_no_fix_edits_the_base_name_for_a_word_of_the_base():
    result = _lint("intermediate.py", select="ALL")
    on_base = [f for f in result.findings if f.code == "SPD001" and f.span.line == 4]
    assert on_base and all(f.fix is None for f in on_base)
    dsa = [f for f in _lint("base_values.py", select="ALL").findings if f.code == "FLG003"]
    assert {f.message.split("`")[1] for f in dsa} == {"--tp", "--mem-frac"}
    assert all(f.fix is None and _where(f) == (15, 18, 34) for f in dsa)


def test_user_words_keep_their_fix():
    (flg003,) = [f for f in _lint("eagle_subclass.py", select="ALL").findings if f.code == "FLG003"]
    assert _where(flg003) == (12, 20, 24) and flg003.fix is not None


def test_a_mixin_before_the_fixture_base():
    (ctx,) = _lint("mixin_first.py").contexts
    assert [w.text for w in ctx.launch.args] == [
        "--model-path",
        "Qwen/Qwen3-8B",
        "--tp",
        "2",
        "--chunked-prefill-size",
        "4096",
    ]
    assert ctx.launch.alternative is None  # SGLang's own `if cls.server_env:` names no branch of the file


def test_bases_used_without_overrides_and_through_their_helpers():
    result = _lint("base_values.py")
    by_line = {ctx.launch.span.line: ctx for ctx in result.contexts}
    eagle, ngram, dsa = by_line[7], by_line[11], by_line[15]
    assert all(w.span.line == 7 for w in eagle.launch.args)
    assert [w.text for w in ngram.launch.args][-2:] == ["--attention-backend", "triton"]
    assert ngram.launch.args[-1].span.line == 12  # `cls.get_server_args()` reads the subclass's value
    assert dsa.launch.partly_read  # `args += [...]` under `if cls.attn_dp_size > 1`: both paths


def test_a_release_without_that_fixture_makes_errors_warnings_that_say_unverified():
    (error,) = _lint("bad_backend.py").findings
    assert error.code == "FLG006" and error.severity == Severity.ERROR and _where(error) == (5, 26, 33)
    (older,) = [f for f in _lint("bad_backend.py", version="0.5.6").findings if f.code == "FLG006"]
    assert older.severity == Severity.WARNING
    notes = [note.message for note in older.notes]
    assert any(
        "unverified for SGLang 0.5.6: it has no sglang.test.server_fixtures.ngram_fixture.NgramServerBase"
        in n
        for n in notes
    )


def test_json_output_carries_the_notes_and_no_fix_on_base_words():
    out = (
        CliRunner()
        .invoke(main, ["check", "--output-format", "json", "--select", "ALL", str(FORMS / "base_values.py")])
        .output
    )
    findings = json.loads(out)
    on_dsa = [f for f in findings if f["line"] == 15]
    assert on_dsa and all(f["fix_applicability"] is None for f in on_dsa)
    assert all(any("DsaMtpServerBase of SGLang" in n["message"] for n in f["notes"]) for f in on_dsa)


def test_a_fixture_class_no_release_ships_is_still_reported_unread():
    result = lint_path(str(ROOT / "fixtures" / "unread" / "fixture_subclass.py"))
    assert result.contexts == []
    (finding,) = result.findings
    assert finding.code == "SLM005"


def test_a_big_file_keeps_the_subclass_when_only_some_lines_are_parsed(tmp_path):
    """From 16 KiB libcst reads only the statements a launch needs (`select`)."""
    padding = "".join(
        f"def helper_{i}(x):\n    return x + {i}  # unrelated code of the suite\n\n\n" for i in range(300)
    )
    big = tmp_path / "test_big.py"
    big.write_text((FORMS / "intermediate.py").read_text() + "\n\n" + padding)
    assert big.stat().st_size > 16 * 1024
    result = lint_path(str(big))
    small = _lint("intermediate.py")
    assert [(f.code, _where(f)) for f in result.findings] == [(f.code, _where(f)) for f in small.findings]
    assert len(result.contexts) == 2


def test_explain_says_which_release_s_base_was_read_and_when_it_is_unverified():
    path = str(FORMS / "bad_backend.py")
    out = CliRunner().invoke(main, ["explain", "--sglang-version", "0.5.11", path]).output
    lines = [line.strip() for line in out.splitlines()]
    assert (
        "launch read from NgramServerBase of SGLang 0.5.23 (sglang.test.server_fixtures.ngram_fixture),"
        " which this class derives from" in lines
    )
    assert (
        "unverified for SGLang 0.5.11: it has no sglang.test.server_fixtures.ngram_fixture.NgramServerBase"
        in lines
    )
    (view,) = json.loads(CliRunner().invoke(main, ["explain", "--output-format", "json", path]).output)
    assert view["fixture_notes"] == [lines[lines.index("SGLang 0.5.11 (from --sglang-version)") + 3]]


def test_past_the_budget_of_fixture_reads_the_file_says_the_rest_is_not_read(tmp_path):
    from speclint.frontends.python.walking import MAX_FIXTURE_READS

    head = "from sglang.test.server_fixtures.eagle_fixture import EagleServerBase\n\n"
    classes = "".join(
        f"\nclass TestN{i}(EagleServerBase):\n    spec_tokens = {i + 2}\n"
        for i in range(MAX_FIXTURE_READS + 2)
    )
    path = tmp_path / "test_many.py"
    path.write_text(head + classes)
    result = lint_path(str(path))
    assert len(result.contexts) == MAX_FIXTURE_READS
    (too_many,) = [f for f in result.findings if f.code == "SLM001"]
    assert too_many.span.line == 3 + 3 * MAX_FIXTURE_READS + 1
    assert "the launches of the ones from here on are not read" in too_many.message


def test_super_set_up_class_walks_the_base_with_what_the_method_set_before():
    result = _lint("super_setup.py")
    assert len(result.contexts) == 2
    args = {
        ctx.launch.alternative.conditions[0].description: [(w.text, w.span.line) for w in ctx.launch.args]
        for ctx in result.contexts
    }
    mine = args["the class is TestEagle3Setup (line 4)"]
    assert ("--speculative-eagle-topk=1", 10) in mine  # `cls.spec_topk = 1` before `super().setUpClass()`
    assert mine[-2:] == [("--tp", 9), ("2", 9)]
    assert ("--speculative-num-draft-tokens=16", 15) in args["the class is TestEagle3SetupTokens (line 14)"]
    assert sorted(_where(f) for f in result.findings if f.code == "SPD001") == [(4, 23, 38), (15, 19, 21)]


@pytest.mark.parametrize("padded", [False, True])
def test_a_base_named_through_its_module(tmp_path, padded):
    text = (FORMS / "module_attribute.py").read_text()
    if padded:  # from 16 KiB `select` picks the lines libcst reads
        text += "".join(
            f"\n\ndef helper_{i}(x):\n    return x + {i}  # unrelated code of the suite\n" for i in range(300)
        )
    path = tmp_path / "test_module_attribute.py"
    path.write_text(text)
    (ctx,) = lint_path(str(path)).contexts
    assert ctx.launch.fixture is not None and ctx.launch.fixture.name == "EagleServerBase"
    # `EagleServerBase` after `eagle_fixture.`
    assert (ctx.launch.span.line, ctx.launch.span.column) == (4, 45)
    assert ("--speculative-algorithm=EAGLE3", 5) in [(w.text, w.span.line) for w in ctx.launch.args]
