"""VS Code multi-root workspace files (`*.code-workspace`): the `tasks` section read as a
`tasks.json` is, the `launch` section as a `launch.json` is; folder walks pick them up.
Before, a workspace file's tasks were not read, and one without `"configurations"` was not
read at all (SLM001: no front-end)."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text
from speclint.frontends import extract_file, file_kind, is_lintable_path

WORKSPACE = FixtureFile("vscode/workspace/inference.code-workspace")


def test_a_workspaces_tasks_and_launch_configurations_are_checked_at_their_words() -> None:
    findings = WORKSPACE.findings()
    assert [f[:4] for f in findings] == [
        ("FLG005", 17, 102, "one"),
        ("FLG006", 25, 114, "lpmm"),
        ("FLG001", 37, 63, "--chunked-prefil-size"),
    ]
    assert "invalid int value: 'one'" in findings[0][4]  # (a `shell` task)
    assert "invalid choice: 'lpmm'" in findings[1][4]  # (a `process` task's args)
    assert "did you mean `--chunked-prefill-size`?" in findings[2][4]  # (the `launch` section)


def test_a_workspaces_task_options_env_is_the_launchs_environment() -> None:
    launches = extract_file(str(WORKSPACE.path), WORKSPACE.text).launches
    assert len(launches) == 3
    shell_task = next(launch for launch in launches if launch.args and launch.args[1].span.line == 17)
    assert shell_task.args[1].text == "Qwen/Qwen2.5-7B-Instruct"  # ($SGLANG_MODEL of `options.env`)


def test_a_workspace_file_is_read_by_its_suffix_and_a_folder_walk_picks_it_up(tmp_path) -> None:
    from speclint.runner.walk import iter_lint_paths

    assert file_kind("x/team.code-workspace") == "vscode-workspace"
    assert is_lintable_path("x/team.code-workspace")
    (tmp_path / "team.code-workspace").write_text('{"folders": [{"path": "."}]}\n')
    (tmp_path / "notes.json").write_text("{}\n")
    found = [path for path, problem in iter_lint_paths([str(tmp_path)]) if problem is None]
    assert found == [str(tmp_path / "team.code-workspace")]
    text = (
        '{"tasks": {"tasks": [{"type": "shell", "command": "python -m sglang.launch_server --tp-size x"}]}}\n'
    )
    (finding,) = [f for f in lint_text(text, "a.code-workspace").findings if f.code == "FLG005"]
    assert (finding.span.line, finding.span.column) == (1, 93)  # (`x`)
