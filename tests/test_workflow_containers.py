"""Kubernetes Container specs outside a `containers:` list: an Argo Workflows template's
`container:` and `script:` (its `source:` run by a shell `command`; a step's `{{...}}` parameters are unknown
values), and Tekton Task `steps:`
(`command`/`args`, or a `script:` run by `/bin/sh` or the shell its shebang names). Each is read
as a Kubernetes container is (before, no launch was found in such files: SLM005)."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.frontends import extract_file

ARGO = FixtureFile("k8s/argo_workflow.yaml")
TEKTON = FixtureFile("k8s/tekton_task.yaml")


def test_argo_container_and_script_templates_are_launches_with_exact_positions() -> None:
    findings = ARGO.findings()
    assert [f[:4] for f in findings] == [
        ("FLG001", 20, 61, "--mem-fraction-statics"),
        ("FLG005", 32, 77, "high"),
        ("SLM004", 32, 92, "{{inputs.parameters.tp}}"),
    ]
    assert "is not an SGLang 0.5.6 flag" in findings[0][4]  # the template's image tag
    assert "invalid int value: 'high'" in findings[1][4]


def test_a_steps_parameters_are_unknown_values_not_text() -> None:
    (finding,) = [f for f in ARGO.findings() if f[0] == "SLM004"]
    assert (
        "the value of `--tp-size` (`{{inputs.parameters.tp}}` is filled in by the workflow engine"
        in finding[4]
    )


def test_an_argo_container_keeps_its_env_image_and_gpus() -> None:
    container, script = extract_file(str(ARGO.path), ARGO.text).launches
    assert [w.text for w in container.args][:4] == ["--model-path", "/models/qwen3", "--tp-size", "2"]
    assert container.env["CUDA_VISIBLE_DEVICES"].text == "0,1"
    assert container.image == "lmsysorg/sglang:v0.5.6"
    assert container.gpu_count is not None and container.gpu_count.text == "2"
    assert script.span.line == 32


def test_tekton_steps_command_args_and_shell_scripts_are_read() -> None:
    findings = TEKTON.findings()
    assert [f[:4] for f in findings] == [
        ("FLG006", 11, 59, "float64"),
        ("FLG001", 17, 68, "--tp-sise"),
    ]
    assert "invalid choice: 'float64'" in findings[0][4]
    assert "did you mean `--tp-size`?" in findings[1][4]
    assert len(extract_file(str(TEKTON.path), TEKTON.text).launches) == 2
