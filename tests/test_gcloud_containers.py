"""`gcloud ai models upload --container-command=... --container-args=...` (a Vertex AI model's
serving container) and `gcloud run deploy --command=... --args=...` (Cloud Run): the list
options split as gcloud's ArgList splits them (commas, or the `^X^` delimiter), `$(NAME)` from
the container's env options, the image's release (before, SLM005: no launch read through
`gcloud`)."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.frontends import extract_file

FILE = FixtureFile("shell/gcloud_containers.sh")


def test_each_container_is_checked_item_by_item() -> None:
    findings = FILE.findings()
    assert [f[:4] for f in findings] == [
        ("SLM004", 9, 88, "--port=$(AIP_HTTP_PORT)"),
        ("FLG001", 9, 112, "--mem-fraction-statics=0.8"),
        ("FLG005", 16, 81, "1,2,4"),
        ("FLG005", 16, 97, "two"),
    ]
    assert "`$(AIP_HTTP_PORT)`: expanded from the container's environment when it starts" in findings[0][4]
    assert "is not an SGLang 0.5.6 flag" in findings[1][4]
    assert "invalid int value: '1,2,4'" in findings[2][4]
    assert "invalid int value: 'two'" in findings[3][4]


def test_images_and_env_values() -> None:
    vertex, run = extract_file(str(FILE.path), FILE.text).launches
    assert (vertex.image, run.image) == ("lmsysorg/sglang:v0.5.6", "lmsysorg/sglang:v0.5.4")
    assert [w.text for w in vertex.args][:2] == ["--model-path=Qwen/Qwen3-8B", "--tp-size=2"]
    assert vertex.env["HF_HOME"].text == run.env["HF_HOME"].text == "/models"
    assert FILE.at(vertex.args[1].span)[:3] == (9, 72, "--tp-size=$(TP)")


def test_other_gcloud_commands_start_nothing() -> None:
    for text in ("gcloud run jobs\n", "gcloud\n", "gcloud ai models upload --container-command\n"):
        assert extract_file("run.sh", text).launches == []
