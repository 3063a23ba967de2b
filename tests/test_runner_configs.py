"""CI and task-runner configs whose command keys start SGLang (`manifests.runner_configs`):
Buildkite pipelines, CircleCI configs, Taskfiles and Gitpod workspaces. Before, each named one
was "no launch found" (a CircleCI config misread as a GitHub Actions excerpt) and folder walks
skipped `.buildkite/` and `.circleci/` without a word."""

from __future__ import annotations

from fixture_file import FIXTURES, FixtureFile

from speclint.frontends import extract_file
from speclint.runner.walk import iter_lint_paths

BUILDKITE = FixtureFile("runners/.buildkite/pipeline.yml")
CIRCLECI = FixtureFile("runners/.circleci/config.yml")
TASKFILE = FixtureFile("runners/Taskfile.yml")
GITPOD = FixtureFile("runners/.gitpod.yml")


def test_buildkite_step_commands_run_in_the_docker_plugin_image() -> None:
    findings = BUILDKITE.findings()
    assert [f[:4] for f in findings] == [
        ("FLG001", 14, 105, "--speculative-ngram-max-window-size"),
        ("FLG005", 22, 82, '"$TP"'),
    ]
    assert "is not an SGLang 0.5.4 flag" in findings[0][4]
    assert "`two` is not a valid value for `--tp-size`" in findings[1][4]
    served, grouped = extract_file(str(BUILDKITE.path), BUILDKITE.text).launches
    assert served.image == "lmsysorg/sglang:v0.5.4-cu126" and grouped.image is None
    assert [w.text for w in served.args][:2] == ["--model-path", "Qwen/Qwen3-8B"]  # the pipeline's env


def test_circleci_run_steps_are_shells_with_the_job_environment() -> None:
    findings = CIRCLECI.findings()
    assert [f[:4] for f in findings] == [("PAR001", 10, 29, '"0"'), ("FLG005", 17, 95, "0.9O")]
    assert "CUDA_VISIBLE_DEVICES=0 leaves 1 GPU visible" in findings[0][4]
    launches = extract_file(str(CIRCLECI.path), CIRCLECI.text).launches
    assert [launch.image for launch in launches] == ["lmsysorg/sglang:v0.5.6"] * 2


def test_taskfile_templates_are_filled_from_vars() -> None:
    findings = TASKFILE.findings()
    assert [f[:4] for f in findings] == [
        ("PAR001", 12, 29, '"0,1"'),
        ("SLM004", 14, 72, "{{.PORT}}"),
        ("FLG005", 15, 76, "two"),
    ]
    assert "`{{.PORT}}` is a Task template, filled in when the task runs" in findings[1][4]
    serve, _bench = extract_file(str(TASKFILE.path), TASKFILE.text).launches
    assert [w.text for w in serve.args][:2] == ["--model-path", "Qwen/Qwen3-8B"]


def test_gitpod_task_runs_init_then_command_in_the_workspace_image() -> None:
    findings = GITPOD.findings()
    assert [f[:4] for f in findings] == [("FLG006", 8, 134, "fa9")]
    (launch,) = extract_file(str(GITPOD.path), GITPOD.text).launches
    assert launch.image == "lmsysorg/sglang:v0.5.4-cu126"


def test_folder_walks_enter_buildkite_and_circleci_folders() -> None:
    walked = sorted(path.rsplit("/", 2)[-2:] for path, _ in iter_lint_paths([str(FIXTURES / "runners")]))
    assert walked == [
        [".buildkite", "pipeline.yml"],
        [".circleci", "config.yml"],
        ["runners", ".gitpod.yml"],
        ["runners", "Taskfile.yml"],
    ]
