"""`docker run --entrypoint "" IMAGE COMMAND...` (the image's ENTRYPOINT cleared: COMMAND runs as
written), `--entrypoint=python3` (the entrypoint attached to its option) and `nerdctl run`
(containerd's Docker-compatible CLI): each is the launch in the container, with the image's
release (before, all three were no launch found: SLM005)."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.frontends import extract_file

FILE = FixtureFile("shell/docker_entrypoint_forms.sh")


def test_each_container_command_is_checked_against_the_images_release() -> None:
    findings = FILE.findings()
    assert [f[:4] for f in findings] == [
        ("FLG001", 4, 85, "--mem-fraction-statics"),
        ("FLG001", 6, 118, "--tp-sise"),
        ("FLG005", 8, 113, "high"),
    ]
    assert "is not an SGLang 0.5.6 flag" in findings[0][4]
    assert "did you mean `--tp-size`?" in findings[1][4]
    assert "invalid int value: 'high'" in findings[2][4]


def test_the_entrypoint_is_not_a_word_of_the_launch() -> None:
    cleared, attached, nerdctl = extract_file(str(FILE.path), FILE.text).launches
    assert cleared.image == attached.image == nerdctl.image == "lmsysorg/sglang:v0.5.6"
    for launch in (cleared, attached, nerdctl):
        assert launch.entry == "python -m sglang.launch_server"
        assert [w.text for w in launch.args][:2] == ["--model-path", "/models/qwen3"]
