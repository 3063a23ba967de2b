"""PDM scripts, Hatch scripts (`pyproject.toml`) and mise tasks (`mise.toml`): each command is
checked at its words. Before, a pyproject.toml's PDM and Hatch scripts were only said not read
(SLM005) and a `mise.toml` was an `unsupported-input` error (a folder walk skipped it)."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.frontends import extract_file, file_kind, is_lintable_path

PYPROJECT = FixtureFile("commands/pdm_hatch/pyproject.toml")
MISE = FixtureFile("commands/mise/mise.toml")


def test_pdm_and_hatch_scripts_are_checked_at_their_words() -> None:
    findings = PYPROJECT.findings()
    assert [f[:4] for f in findings] == [
        ("PAR001", 7, 34, '"0"'),
        ("FLG005", 9, 110, "two"),
        ("FLG005", 10, 106, "0.9O"),
        ("FLG005", 20, 81, "big"),
        ("SLM004", 20, 85, "{args}"),
        ("FLG006", 22, 75, "fa9"),
    ]
    # the `_` table's env is every PDM script's; a script's own env wins
    assert "CUDA_VISIBLE_DEVICES=0 leaves 1 GPU visible" in findings[0][4]
    assert "`{args}` is a Hatch context field, filled in when the script runs" in findings[4][4]
    launches = extract_file(str(PYPROJECT.path), PYPROJECT.text).launches
    assert len(launches) == 5
    assert launches[2].env["CUDA_VISIBLE_DEVICES"].text == "0,1"
    assert [w.text for w in launches[3].args][:2] == ["--model-path", "Qwen/Qwen3-8B"]  # env-vars


def test_mise_tasks_run_with_the_file_env_and_the_task_env() -> None:
    assert file_kind(str(MISE.path), MISE.text) == "mise" and is_lintable_path(str(MISE.path))
    findings = MISE.findings()
    assert [f[:4] for f in findings] == [
        ("FLG006", 9, 93, "flashinfr"),
        ("SLM004", 14, 48, "{{ vars.model }}"),
        ("FLG005", 14, 75, "two"),
        ("FLG005", 18, 88, "lots"),
    ]
    assert "`{{ vars.model }}` is filled in when mise runs the task;" in findings[1][4]
    serve = extract_file(str(MISE.path), MISE.text).launches[0]
    assert [w.text for w in serve.args][:4] == ["--model-path", "Qwen/Qwen3-8B", "--tp-size", "2"]


def test_a_hatch_field_with_a_default_is_one_unknown_word() -> None:
    from speclint.engine import lint_text

    text = '[tool.hatch.envs.x.scripts]\nup = "python -m sglang.launch_server --model-path m {args:--tp-size 2}"\n'
    (finding,) = lint_text(text, "pyproject.toml").findings
    assert (finding.code, finding.span.line, finding.span.column) == ("SLM004", 2, 53)
    assert "`{args:--tp-size 2}` is a Hatch context field, filled in when the script runs" in finding.message
