"""`pip install sglang==X` (`pip3`, `python -m pip`, `uv pip`) pins the release the later
launches run: in a shell script, the launches after it (a `docker run IMAGE` launch keeps its
image); in a Dockerfile, the stage's (and a stage built FROM it) over its base image's tag
(before: checked against the base image's release, or the newest)."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text
from speclint.frontends import extract_file

SCRIPT = FixtureFile("shell/pip_pin.sh")
DOCKERFILE = FixtureFile("docker/pip-pin.Dockerfile")


def test_a_script_launch_after_pip_install_runs_the_pinned_release() -> None:
    findings = SCRIPT.findings()
    assert [f[:4] for f in findings] == [
        ("FLG009", 5, 60, "--enable-dp-lm-head"),
        ("FLG001", 7, 60, "--tp-sise"),
    ]
    assert "does not exist yet in SGLang 0.4.6.post1" in findings[0][4]
    assert "is not an SGLang 0.5.6 flag" in findings[1][4]
    first, second, container = extract_file(str(SCRIPT.path), SCRIPT.text).launches
    assert SCRIPT.at(first.image_span) == (4, 24, '"sglang[all]==0.4.6.post1"')
    assert (second.image, SCRIPT.at(second.image_span)) == ("sglang==0.5.6", (6, 16, "sglang==0.5.6"))
    assert container.image == "lmsysorg/sglang:v0.4.6.post4"  # its own image, not the host's pin


def test_a_dockerfile_run_pip_install_is_the_stages_release() -> None:
    (finding,) = lint_text(DOCKERFILE.text, str(DOCKERFILE.path)).findings
    assert (finding.code, *DOCKERFILE.at(finding.span)) == ("FLG009", 7, 81, "--enable-dp-lm-head")
    (ctx,) = lint_text(DOCKERFILE.text, str(DOCKERFILE.path)).contexts
    assert ctx.version.reason == "from the package pin sglang[all]==0.4.6.post1 (line 5)"
    (launch,) = extract_file(str(DOCKERFILE.path), DOCKERFILE.text).launches
    assert DOCKERFILE.at(launch.image_span) == (5, 43, "sglang[all]==0.4.6.post1")
