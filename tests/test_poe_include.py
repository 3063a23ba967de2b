"""poe's `include` (pyproject `[tool.poe] include = [...]`, a name or `{ path = ... }`): a TOML
file on disk beside the pyproject is read, its tasks added after the project's (a name the
project has keeps the project's task: the included one is said not read), its `env` applied to
every task, its envfiles named from the project's folder; findings in its tasks point into it.
Before: an included file naming the launcher was only said not read (SLM005). A YAML or JSON
include is still said not read, with why, and so is `include_script` (tasks a Python function
makes; before: nothing said)."""

from __future__ import annotations

from pathlib import Path

from fixture_file import FixtureFile

from speclint.engine import lint_text
from speclint.frontends import extract_file

FILE = FixtureFile("commands/poe_include/pyproject.toml")
INCLUDED = FILE.path.parent / "tasks" / "serve.toml"


def _findings() -> list[tuple[str, str, int, int, str, str]]:
    """(code, file name, line, column, text at the span, message)."""
    found = []
    for f in lint_text(FILE.text, str(FILE.path)).findings:
        path = Path(f.span.file or FILE.path)
        line = path.read_text().splitlines()[f.span.line - 1]
        text = line[f.span.column - 1 : f.span.end_column - 1]
        found.append((f.code, path.name, f.span.line, f.span.column, text, f.message))
    return found


def test_the_included_files_tasks_are_read_and_point_into_it() -> None:
    findings = _findings()
    assert [f[:5] for f in findings] == [
        ("SLM005", "pyproject.toml", 9, 41, '"tasks/router.yaml"'),
        ("SLM005", "pyproject.toml", 10, 18, '"serve_split.tasks:generated()"'),
        ("FLG006", "pyproject.toml", 16, 107, "${SCHED}"),  # SCHED from the included file's env
        (
            "SLM005",
            "serve.toml",
            6,
            7,
            '"python3 -m sglang.launch_server --model-path /models/qwen --tp-szie 2"',
        ),
        ("FLG006", "serve.toml", 9, 80, "halff"),
        ("FLG006", "serve.toml", 13, 107, "${FORMAT}"),  # from serve.env beside the pyproject
    ]
    assert findings[0][5] == (
        "speclint did not read the tasks poe includes from `tasks/router.yaml` (line 9), which names "
        "`sglang_router.launch_server`: poe reads it as YAML or JSON, which speclint does not read here, "
        "so nothing in it was checked"
    )
    assert findings[1][5] == (
        "speclint did not read the tasks poe makes by calling `serve_split.tasks:generated()` "
        "(`include_script`, line 10): poe imports and calls it in Python, which speclint never does, "
        "so no launch among them was checked"
    )
    assert "invalid choice: 'fifo'" in findings[2][5]
    assert findings[3][5] == (
        "speclint did not read this task: poe runs the task `serve` of pyproject.toml or of a file "
        "included before this one (the first task of a name), never this one, so nothing in it was checked"
    )
    assert "invalid choice: 'halff'" in findings[4][5]
    assert "invalid choice: 'safetensor'" in findings[5][5]


def test_env_order_and_positions() -> None:
    launches = extract_file(str(FILE.path), FILE.text).launches
    assert [(launch.path, launch.span.line) for launch in launches] == [
        (str(FILE.path), 16),
        (str(INCLUDED), 9),
        (str(INCLUDED), 13),
    ]
    serve, small, big = launches
    assert serve.span.file is None
    assert (small.span.file, big.args[-1].span.file) == (str(INCLUDED), str(INCLUDED))
    # the project's env reaches the included tasks, pointing at the pyproject
    assert big.env["SGLANG_TP"].text == "2"
    assert (big.env["SGLANG_TP"].span.file, big.env["SGLANG_TP"].span.line) == (str(FILE.path), 13)
    # the included file's env reaches the project's tasks, pointing at the included file
    assert serve.env["SCHED"].text == "fifo"
    assert (serve.env["SCHED"].span.file, serve.env["SCHED"].span.line) == (str(INCLUDED), 3)
    assert big.env["FORMAT"].text == "safetensor"


def test_poe_root_is_the_projects_folder_and_another_variable_is_said() -> None:
    text = (
        '[tool.poe]\ninclude = ["${POE_ROOT}/tasks/serve.toml", "${POE_GIT_DIR}/shared/tasks.toml"]\n'
        '[tool.poe.env]\nSGLANG_TP = "2"\n[project]\ndependencies = ["sglang[all]"]\n'
    )
    result = extract_file(str(FILE.path), text)
    assert [(launch.path, launch.span.line) for launch in result.launches] == [
        (str(INCLUDED), 6),  # `serve`: no task of that name here, the included one runs
        (str(INCLUDED), 9),
        (str(INCLUDED), 13),
    ]
    findings = lint_text(text, str(FILE.path)).findings
    unread = [(f.code, f.span.line, f.span.column, f.message) for f in findings if f.span.file is None]
    assert unread == [
        (
            "SLM005",
            2,
            44,
            "speclint did not read the tasks poe includes from `${POE_GIT_DIR}/shared/tasks.toml` (line 2): "
            "its name holds a variable poe works out when it runs, so no launch among them was checked",
        )
    ]
