"""SGLang's offline benchmark helpers `run_bench_one_batch(model, other_args)` and
`run_bench_offline_throughput(model, other_args)`, as tools/gen_sglang_helpers.py reads each
release's sglang/test/test_utils.py: which module the helper runs (`sglang.bench_one_batch`,
`sglang.benchmark.one_batch` since 0.5.15), the flags it adds, where the caller's flags go. A
call is read as the command the newest release's helper builds (before: said not read); checked
against a release whose helper runs another module, its errors are warnings that say so."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.core.findings import Severity
from speclint.engine import lint_text
from speclint.settings.options import LintOptions
from speclint.sglang.helpers import HelperWord, newest_helper, reading

FIXTURE = "python/forms28/p01_bench_helpers_model.py"


def test_each_release_records_the_module_its_helper_runs():
    old, moved = reading("0.5.14", "run_bench_one_batch"), reading("0.5.15", "run_bench_one_batch")
    assert old is not None and moved is not None
    assert old.entry() == ("python3", "-m", "sglang.bench_one_batch")
    assert moved.entry() == ("python3", "-m", "sglang.benchmark.one_batch")
    first = reading("0.4.0", "run_bench_one_batch")
    assert first is not None  # the model right after the module, `*other_args` without str()
    assert first.command[3:5] == (HelperWord(text="--model-path"), HelperWord(param="model"))
    assert first.command[-1] == HelperWord(splat="other_args", str_items=False)
    assert first.given_after() == ()


def test_the_model_added_after_the_flags_when_not_none_is_recorded():
    new = newest_helper("run_bench_one_batch")
    assert new is not None and new.given_after() == ((("--model-path",), "model"),)
    assert new.other_args_appended[0][1][0].text == "--device"  # auto-detected at run time


def test_the_offline_throughput_helper_first_ships_in_0_4_6_post1():
    assert reading("0.4.6", "run_bench_offline_throughput") is None
    helper = newest_helper("run_bench_offline_throughput")
    assert helper is not None and helper.entry()[-1] == "sglang.benchmark.offline_throughput"
    assert helper.command[-2:] == (HelperWord(param="model"), HelperWord(splat="other_args", str_items=True))


def test_each_call_is_read_with_the_flags_it_passes():
    found = [f[:4] for f in FixtureFile(FIXTURE).findings()]
    assert found == [
        ("FLG005", 13, 90, "eight"),
        ("FLG003", 16, 60, "--tp"),  # (the helper's own `--input 128`: not the file's to fix)
        ("FLG005", 16, 98, "0.8x"),  # model None: the one among the flags is the model
        ("SLM005", 19, 9, "run_bench_one_batch"),  # `--model` given, the helper's model after it
        ("FLG001", 22, 84, "--tp-szie"),
    ]


def test_the_finding_says_which_helper_was_read_and_what_it_runs():
    fixture = FixtureFile(FIXTURE)
    finding = lint_text(fixture.text, str(fixture.path)).findings[0]
    assert [n.message for n in finding.notes][0] == (
        "launch read from run_bench_one_batch of SGLang 0.5.23 (sglang/test/test_utils.py), which "
        "runs `python3 -m sglang.benchmark.one_batch`"
    )
    said = fixture.findings()[3][4]
    assert "passes arguments that set `--model-path` too, which `run_bench_one_batch` sets again" in said


def test_an_older_release_whose_helper_runs_the_old_module_gets_warnings_not_a_missing_module():
    fixture = FixtureFile(FIXTURE)
    result = lint_text(fixture.text, str(fixture.path), LintOptions(sglang_version="0.5.10"))
    found = [(f.code, f.span.line, f.severity) for f in result.findings]
    assert all(code != "FLG009" for code, _, _ in found)  # (the helper names the module, not the file)
    assert ("FLG005", 13, Severity.WARNING) in found
    notes = [n.message for n in result.findings[0].notes]
    assert (
        "unverified for SGLang 0.5.10: its run_bench_one_batch runs `python3 -m sglang.bench_one_batch`"
        in notes
    )


def test_a_plain_command_of_the_moved_module_still_says_it_is_missing():
    script = "python -m sglang.benchmark.one_batch --model-path m --batch-size 1\n"
    found = lint_text(script, "run.sh", LintOptions(sglang_version="0.5.10")).findings
    assert [f.code for f in found] == ["FLG009"]
