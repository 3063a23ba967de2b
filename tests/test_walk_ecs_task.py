"""ECS task definitions in a folder walk: a `.json` file is linted when its first 4 KiB hold
`"containerDefinitions"` and its first 64 KiB name sglang (its shape, whatever its name), as
devcontainer.json is; `aws ecs describe-task-definition`'s form (under `taskDefinition`) is
read as the task definition. Before: only read when named on the command line. The folder
(fixtures/walk_ecs) also holds a task definition that starts no SGLang and a model's
config.json that mentions sglang without `containerDefinitions`: neither is linted."""

from __future__ import annotations

from pathlib import Path

from speclint.engine import lint_text
from speclint.frontends import file_kind, is_lintable_path
from speclint.runner.walk import iter_lint_paths

FOLDER = Path(__file__).resolve().parent.parent / "fixtures" / "walk_ecs"
TASK = FOLDER / "deploy" / "serving.taskdef.json"


def test_a_walk_finds_the_task_definition_by_its_shape() -> None:
    walked = [Path(path).relative_to(FOLDER).as_posix() for path, _ in iter_lint_paths([str(FOLDER)])]
    assert walked == ["deploy/serving.taskdef.json"]
    assert not is_lintable_path(str(FOLDER / "deploy" / "proxy.taskdef.json"))  # no sglang
    assert not is_lintable_path(str(FOLDER / "models" / "qwen" / "config.json"))  # not a task definition


def test_the_described_form_is_read() -> None:
    text = TASK.read_text()
    assert file_kind(str(TASK), text) == "ecs-task"
    (finding,) = lint_text(text, str(TASK)).findings
    line = text.splitlines()[finding.span.line - 1]
    assert (finding.code, finding.span.line, finding.span.column) == ("FLG006", 10, 71)
    assert line[finding.span.column - 1 : finding.span.end_column - 1] == "fp8"
    assert finding.message.startswith("`fp8` is not a valid value for `--kv-cache-dtype`")
