"""SGLang's benchmark scripts (`python -m sglang.bench_one_batch`, `bench_offline_throughput`,
`bench_one_batch_server`, their `sglang.benchmark.*` homes) are read as launches in every
front-end: SGLang's flags are checked and resolved as for `sglang.launch_server`, the script's
own options (from each release's source, tools/gen_sglang_bench.py) are never unknown."""

from __future__ import annotations

from pathlib import Path

from speclint.engine import lint_path, lint_text
from speclint.settings.options import LintOptions

ROOT = Path(__file__).resolve().parent.parent


def found(path: str, version: str | None = None) -> list[tuple[str, int, int]]:
    """Findings as the command line shows them (DRF011, config.json not on disk, is opt-in)."""
    findings = lint_path(str(ROOT / path), LintOptions(sglang_version=version)).findings
    return [(f.code, f.span.line, f.span.column) for f in findings if f.code != "DRF011"]


def messages(text: str, path: str = "a.sh", version: str | None = None) -> list[tuple[str, int, str]]:
    findings = lint_text(text, path, LintOptions(sglang_version=version)).findings
    return [(f.code, f.span.column, f.message) for f in findings if f.code != "DRF011"]


def test_the_shell_fixture_gets_sglangs_checks_and_no_unknown_bench_options():
    shell = "fixtures/shell/bench_one_batch_eagle.sh"
    # 0.5.6.post2 has no sglang.benchmark.one_batch yet (0.5.15 on: the last launch)
    assert found(shell, "0.5.6.post2") == [("SPD001", 8, 87), ("FLG001", 13, 66), ("FLG009", 18, 1)]
    # 0.5.23 no longer ships sglang.bench_one_batch / bench_offline_throughput
    assert found(shell) == [("FLG009", 5, 1), ("SPD001", 8, 87), ("FLG009", 12, 1), ("FLG001", 13, 66)]


def test_a_misspelt_server_flag_is_unknown_naming_the_script():
    [finding] = [
        f
        for f in lint_path(str(ROOT / "fixtures/shell/bench_one_batch_eagle.sh")).findings
        if f.code == "FLG001"
    ]
    assert finding.message == (
        "`--tp-szie` is neither an SGLang 0.5.23 flag nor an option of `sglang.bench_offline_throughput` "
        "(SGLang 0.5.20's): argparse stops the launch with 'unrecognized arguments'; did you mean `--tp-size`?"
    )


def test_speculative_rewrites_apply_as_for_launch_server():
    [spd] = [
        f
        for f in lint_path(str(ROOT / "fixtures/shell/bench_one_batch_eagle.sh")).findings
        if f.code == "SPD001"
    ]
    assert spd.message.startswith(
        "`--speculative-num-draft-tokens 8` is ignored: with `--speculative-eagle-topk 1` SGLang sets "
        "speculative_num_draft_tokens to speculative_num_steps + 1 = 4"
    )
    assert found("fixtures/k8s/bench_offline_throughput_job.yaml") == [("SPD001", 31, 16)]


def test_python_argv_and_markdown_read_the_scripts():
    assert found("fixtures/python/bench_one_batch_argv.py", "0.5.6.post2") == [("FLG001", 22, 10)]
    assert found("fixtures/python/bench_one_batch_argv.py") == [
        ("FLG009", 6, 1),
        ("FLG002", 20, 10),
        ("FLG001", 22, 10),
    ]
    assert found("fixtures/markdown/bench_scripts.md", "0.5.20") == [("FLG001", 9, 196), ("FLG006", 14, 122)]
    [choice] = [
        f for f in lint_path(str(ROOT / "fixtures/markdown/bench_scripts.md")).findings if f.code == "FLG006"
    ]
    assert choice.message.startswith("`sharegpt2` is not a valid value for `--dataset-name`")


def test_the_script_missing_from_the_release_checked_is_flag_not_in_version_with_its_new_home():
    [finding] = lint_text(
        "python -m sglang.bench_one_batch --model-path m --batch-size 1 16\n", "a.sh"
    ).findings
    assert (finding.code, finding.span.line, finding.span.column) == ("FLG009", 1, 1)
    assert finding.message == (
        "`sglang.bench_one_batch` does not exist in SGLang 0.5.23 (SGLang 0.4.0 to 0.5.20 have it): "
        "`python -m` stops with 'No module named sglang.bench_one_batch', so nothing starts"
    )
    assert (
        finding.fix_hint == "run `python -m sglang.benchmark.one_batch`, the script's home in SGLang 0.5.23"
    )


def test_an_option_of_the_script_in_other_releases_only_is_flag_not_in_version():
    text = "python -m sglang.bench_one_batch --model-path m --batch-size 1 16 --profile\n"
    assert messages(text, version="0.4.0") == [
        (
            "FLG009",
            text.index("--profile") + 1,
            "`--profile` is not an option of `sglang.bench_one_batch` in SGLang 0.4.0 (SGLang 0.4.1.post7 to "
            "0.5.20 have it): argparse stops the launch with 'unrecognized arguments'",
        )
    ]
    assert messages(text, version="0.5.20") == []


def test_bench_options_are_unknown_to_launch_server_and_bench_serving_is_no_launch():
    text = "python -m sglang.launch_server --model-path m --batch-size 16\n"
    assert [(code, column) for code, column, _ in messages(text)] == [("FLG001", 47)]
    result = lint_text("python -m sglang.bench_serving --backend sglang --num-prompts 10\n", "a.sh")
    assert (len(result.contexts), result.findings, result.launch_not_found) == (0, [], False)


def test_a_bench_launch_is_one_launch_with_no_finding_where_main_said_nothing():
    result = lint_text(
        "python -m sglang.bench_one_batch_server --model m --batch-size 1 16 --input-len 256 --output-len 32\n",
        "a.sh",
    )
    assert len(result.contexts) == 1 and [f.code for f in result.findings] == []


def test_a_release_whose_scripts_were_not_read_is_unverified(monkeypatch):
    """Bench data regenerated without 0.5.6: findings say so, errors as warnings."""
    from speclint.sglang import bench
    from speclint.sglang.linedata import LineData

    class Without056(LineData):
        def versions(self) -> tuple[str, ...]:
            return tuple(v for v in super().versions() if v != "0.5.6")

        def row(self, version: str):
            return None if version == "0.5.6" else super().row(version)

    def clear() -> None:
        for cached in (bench.reading, bench.releases_with, bench.option_releases):
            cached.cache_clear()
        bench._SCHEMAS.clear()

    monkeypatch.setattr(bench, "_FILE", Without056(bench._DATA))
    clear()
    try:
        text = "python -m sglang.bench_one_batch --model-path m --batch-size 1 --tp-sise 2\n"
        [finding] = lint_text(text, "a.sh", LintOptions(sglang_version="0.5.6")).findings
    finally:
        clear()
    assert (finding.code, finding.severity.label, finding.span.column) == ("FLG001", "warning", 64)
    assert [n.message for n in finding.notes][-1] == (
        "unverified for SGLang 0.5.6: its sglang.bench_one_batch was not read; read as SGLang "
        "0.5.5.post3's script parses them"
    )


def test_explain_says_which_script_parsed_the_words():
    from speclint.engine import explain_facts

    (ctx,) = lint_text(
        "python -m sglang.bench_one_batch --model-path m --batch-size 1\n",
        "a.sh",
        LintOptions(sglang_version="0.5.20"),
    ).contexts
    [note] = explain_facts(ctx).fixture_notes
    assert note.startswith(
        "sglang.bench_one_batch of SGLang 0.5.20 (runs sglang.benchmark.one_batch) parses SGLang's flags "
        "and 16 options of its own (`--run-name`, `--batch-size`,"
    )
