"""`kubectl [options] run NAME --image=IMAGE [options] -- COMMAND...`: the pod's command is the
launch, its image picks the SGLang release and its `--env` values are the environment (the
pod's, not this shell's); `kubectl exec` is read as before (before, `kubectl run` was no launch
found: SLM005)."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.frontends import extract_file

FILE = FixtureFile("shell/kubectl_run.sh")


def test_the_pods_command_is_checked_against_its_images_release() -> None:
    findings = FILE.findings()
    assert [f[:4] for f in findings] == [
        ("FLG001", 5, 77, "--mem-fraction-statics"),
        ("FLG005", 6, 115, "high"),
        ("FLG001", 7, 89, "--tp-sise"),
    ]
    assert "is not an SGLang 0.5.6 flag" in findings[0][4]  # the image's release
    assert "is not an SGLang 0.5.23 flag" in findings[2][4]  # `kubectl exec`: no image known


def test_env_options_are_the_pods_environment() -> None:
    run, command, exec_ = extract_file(str(FILE.path), FILE.text).launches
    assert (run.image, command.image, exec_.image) == (
        "lmsysorg/sglang:v0.5.6",
        "lmsysorg/sglang:v0.5.6",
        None,
    )
    assert {name: word.text for name, word in run.env.items()} == {
        "CUDA_VISIBLE_DEVICES": "0",
        "SGLANG_LOG_LEVEL": "debug",
    }
    assert command.entry == "sglang serve" and command.env == {}
