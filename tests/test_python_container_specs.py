"""Container specs written in Python (`kubernetes.client.V1Container`, Pulumi's
`ContainerArgs`, Vertex AI's `Model.upload(serving_container_command=...)`, the AWS CDK's
ECS `add_container(entry_point=..., command=...)`): the command then its args is the launch,
`$(NAME)` expanded from the container's `env` as Kubernetes does (not for ECS), the image
picking the release (before, each was no launch found: SLM005)."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.frontends import extract_file

FILE = FixtureFile("python/container_specs.py")


def test_each_container_is_checked_against_its_images_release() -> None:
    findings = FILE.findings()
    assert [f[:4] for f in findings] == [
        ("FLG005", 14, 56, "$(TP)"),
        ("FLG001", 25, 56, "--mem-fraction-statics"),
        ("FLG006", 32, 85, "qwen4"),
        ("SLM004", 32, 104, "$(AIP_HTTP_PORT)"),
        ("FLG005", 47, 67, "1,2"),
    ]
    assert "invalid int value: 'two'" in findings[0][4]
    assert "is not an SGLang 0.5.4 flag" in findings[1][4]
    assert "invalid choice: 'qwen4'" in findings[2][4]
    assert "`$(AIP_HTTP_PORT)`: set by Kubernetes from the container's environment" in findings[3][4]


def test_env_values_expand_and_a_spec_without_command_is_not_a_launch() -> None:
    client, pulumi, vertex, cdk = extract_file(str(FILE.path), FILE.text).launches
    assert (client.image, pulumi.image, vertex.image) == (
        "lmsysorg/sglang:v0.5.6",
        "lmsysorg/sglang:v0.5.4",
        "lmsysorg/sglang:v0.5.6",
    )
    assert [w.text for w in client.args][:4] == [
        "--model-path",
        "Qwen/Qwen2.5-7B-Instruct",
        "--tp-size",
        "two",
    ]
    assert client.env["TP"].text == "two"
    assert vertex.env["HF_HOME"].text == "/models"
    assert cdk.image == "lmsysorg/sglang:v0.5.4" and cdk.env["CUDA_VISIBLE_DEVICES"].text == "0"
    assert [w.text for w in cdk.args][:2] == ["--model-path", "Qwen/Qwen3-8B"]
    assert FILE.at(client.span)[:2] == (10, 10)
