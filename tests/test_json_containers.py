"""JSON files of a container's commands: a Dev Container's lifecycle commands
(`devcontainer.json`: a string run by `/bin/sh`, an array as argv, an object's values each,
`containerEnv` as their environment, `image` the release) and an Amazon ECS task definition
(`containerDefinitions`: `entryPoint` then `command`, `environment`, `image`). Before, a named
one was an `unsupported-input` error and a folder walk skipped `.devcontainer`."""

from __future__ import annotations

from fixture_file import FIXTURES, FixtureFile

from speclint.frontends import extract_file, file_kind, is_lintable_path
from speclint.runner.walk import iter_lint_paths

DEV = FixtureFile("json/.devcontainer/devcontainer.json")
ECS = FixtureFile("json/ecs-task-definition.json")


def test_devcontainer_lifecycle_commands_are_launches() -> None:
    findings = DEV.findings()
    assert [f[:4] for f in findings] == [
        ("PAR001", 7, 29, '"0"'),
        ("FLG001", 12, 92, "--batch-sise"),
    ]
    assert "CUDA_VISIBLE_DEVICES=0 leaves 1 GPU visible" in findings[0][4]
    assert "is neither an SGLang 0.5.6 flag nor an option of `sglang.bench_one_batch`" in findings[1][4]
    server, bench = extract_file(str(DEV.path), DEV.text).launches
    assert server.image == bench.image == "lmsysorg/sglang:v0.5.6"
    assert [w.text for w in server.args][:2] == ["--model-path", "Qwen/Qwen3-8B"]


def test_ecs_task_definition_runs_entry_point_then_command() -> None:
    findings = ECS.findings()
    assert [f[:4] for f in findings] == [("FLG001", 9, 71, "--mem-fraction-statics")]
    assert "is not an SGLang 0.5.4 flag" in findings[0][4]
    (launch,) = extract_file(str(ECS.path), ECS.text).launches
    assert launch.image == "lmsysorg/sglang:v0.5.4"
    assert launch.env["CUDA_VISIBLE_DEVICES"].text == "0,1"


def test_kinds_and_folder_walks() -> None:
    assert file_kind(str(DEV.path), DEV.text) == "devcontainer"
    assert file_kind(str(ECS.path), ECS.text) == "ecs-task"
    assert is_lintable_path(str(DEV.path))
    walked = [path.rsplit("/", 2)[-2:] for path, _ in iter_lint_paths([str(FIXTURES / "json")])]
    # a task definition by its shape (tests/test_walk_ecs_task.py)
    # a package.json naming sglang is walked; other JSON (a template) only when named
    assert walked == [
        ["json", "ecs-task-definition.json"],
        [".devcontainer", "devcontainer.json"],
        ["webapp", "package.json"],
    ]


RUNPOD = FixtureFile("json/templates/runpod-template.json")
VAST = FixtureFile("json/templates/vast-template.json")
PACKAGE = FixtureFile("json/webapp/package.json")


def test_a_template_command_string_is_read_in_its_image() -> None:
    # RunPod's `dockerArgs` (was: an `unsupported-input` error, nothing checked)
    assert file_kind(str(RUNPOD.path), RUNPOD.text) == "json-commands"
    findings = RUNPOD.findings()
    assert [f[:4] for f in findings] == [
        ("FLG001", 4, 147, "--speculative-ngram-max-window-size"),
    ]
    assert "is not an SGLang 0.5.4 flag" in findings[0][4]
    (launch,) = extract_file(str(RUNPOD.path), RUNPOD.text).launches
    assert launch.image == "lmsysorg/sglang:v0.5.4-cu126"


def test_a_string_and_an_argv_list_of_a_template_are_each_a_launch() -> None:
    findings = VAST.findings()
    assert [f[:4] for f in findings] == [
        ("FLG005", 4, 96, "two"),
        ("FLG005", 5, 112, "0.9O"),
    ]
    assert "`two` is not a valid value for `--dp-size`" in findings[0][4]
    launches = extract_file(str(VAST.path), VAST.text).launches
    assert [launch.image for launch in launches] == ["lmsysorg/sglang:v0.5.6"] * 2


def test_a_package_json_script_is_a_shell_command() -> None:
    findings = PACKAGE.findings()
    assert [f[:4] for f in findings] == [("PAR001", 6, 40, "0")]
    assert "CUDA_VISIBLE_DEVICES=0 leaves 1 GPU visible" in findings[0][4]
    assert is_lintable_path(str(PACKAGE.path))
    assert not is_lintable_path(str(RUNPOD.path))
