"""VS Code tasks (`.vscode/tasks.json`, JSON with comments): a `shell` task's command line as
VS Code builds it (`command` alone as written; with `args`, one with a space strong-quoted,
a `{"value", "quoting"}` argument one word), a `process` task's `command` and `args` as argv,
`options.env` (the file's, then the task's, then its `linux` section's) as the environment;
each word at its place in the file. Before, tasks.json was not read: SLM001 (no front-end)."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text
from speclint.frontends import extract_file, file_kind, is_lintable_path

TASKS = FixtureFile("vscode/tasks/tasks.json")


def test_shell_and_process_tasks_are_checked_at_their_words() -> None:
    findings = TASKS.findings()
    assert [f[:4] for f in findings] == [
        ("SLM004", 9, 63, "${workspaceFolder}/models/qwen3"),
        ("FLG005", 9, 105, "two"),
        ("FLG001", 17, 80, "--mem-fraction-statics"),
        ("FLG006", 27, 60, "fp9"),
        ("SLM005", 40, 30, '"python -m sglang.launch_server --model-path C:/models/qwen3"'),
    ]
    assert "`${workspaceFolder}` is filled in by VS Code" in findings[0][4]
    assert "invalid int value: 'two'" in findings[1][4]  # (a shell task's `command` alone)
    assert "did you mean `--mem-fraction-static`?" in findings[2][4]  # (a process task's `args`)
    assert "invalid choice: 'fp9'" in findings[3][4]  # (after a `{"value", "quoting"}` argument)
    assert findings[4][4] == (
        "speclint did not read this string, which runs `sglang.launch_server`: only the `command` and "
        "`args` of `shell` and `process` tasks (as they run on Linux) are read, so nothing in it was checked"
    )


def test_an_argument_with_a_space_is_one_word_and_options_env_is_the_environment() -> None:
    launches = extract_file(str(TASKS.path), TASKS.text).launches
    assert len(launches) == 3  # (`pkill -f sglang.launch_server` is not a launch)
    assert launches[2].args[1].text == "/models/my model"  # (VS Code quotes it: one word)
    assert launches[0].env["HF_HOME"].text == "/data/hf"
    assert launches[1].env["CUDA_VISIBLE_DEVICES"].text == "0,1"
    assert launches[1].env["TOKEN"].text is None
    assert launches[2].env["CUDA_VISIBLE_DEVICES"].text == "2"  # (its `linux` section's)


def test_a_quote_in_a_quoted_argument_is_unknown_and_a_file_of_other_tasks_says_not_read() -> None:
    text = (
        '{"tasks": [{"type": "shell", "command": "python", "args": ["-m", "sglang.launch_server",'
        ' "--model-path", "/models/my qwen\'s", "--tp", "2"]}]}\n'
    )
    (launch,) = extract_file("tasks.json", text).launches
    assert launch.args[1].text is None and "its own `'` ends" in (launch.args[1].dynamic_reason or "")
    text = '{"tasks": [{"type": "npm", "script": "serve", "detail": "python -m sglang.launch_server"}]}\n'
    (finding,) = lint_text(text, ".vscode/tasks.json").findings
    assert (finding.code, finding.span.line, finding.span.column) == ("SLM005", 1, 68)
    assert "names `sglang.launch_server` but speclint found no launch in it" in finding.message


def test_tasks_json_is_read_by_name() -> None:
    assert file_kind("x/.vscode/tasks.json") == "vscode-tasks"
    assert is_lintable_path("x/.vscode/tasks.json")
    assert not is_lintable_path("data/tasks.json")  # (a folder walk reads only VS Code's)


def test_a_shell_task_run_by_powershell_is_said_not_read() -> None:
    text = (
        '{"tasks": [{"type": "shell", "command": "python -m sglang.launch_server --model-path m",\n'
        '  "options": {"shell": {"executable": "C:\\\\Program Files\\\\PowerShell\\\\7\\\\pwsh.exe"}}},\n'
        '  {"type": "shell", "command": "python -m sglang.launch_server --model-path m --tp-size two",\n'
        '  "options": {"shell": {"executable": "/bin/bash"}}}]}\n'
    )
    codes = [(f.code, f.span.line, f.span.column) for f in lint_text(text, "tasks.json").findings]
    assert codes == [("SLM005", 1, 41), ("FLG005", 3, 89)]


def test_a_folder_walk_enters_vscode_and_reads_its_launch_and_tasks_files(tmp_path) -> None:
    """`.vscode` is walked as `.github` is (other hidden folders are not); only the files a
    front-end reads are linted there."""
    from speclint.runner.walk import iter_lint_paths

    for folder in (".vscode", ".idea"):
        (tmp_path / folder).mkdir()
        for name in ("launch.json", "tasks.json", "settings.json"):
            (tmp_path / folder / name).write_text("{}\n")
    found = sorted(path for path, problem in iter_lint_paths([str(tmp_path)]) if problem is None)
    assert found == [str(tmp_path / ".vscode" / "launch.json"), str(tmp_path / ".vscode" / "tasks.json")]
