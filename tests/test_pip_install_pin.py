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


BRANCHES = FixtureFile("shell/pip_pin_branches.sh")


def test_a_pin_installed_in_one_arm_makes_one_alternative_per_arm() -> None:
    findings = BRANCHES.findings()
    assert [f[:4] for f in findings] == [
        ("FLG009", 10, 60, "--enable-dp-lm-head"),  # the `then` arm: 0.4.6
        ("FLG001", 10, 80, "--tp-sise"),
        ("FLG001", 10, 80, "--tp-sise"),  # the `else` arm: 0.5.6
        ("FLG009", 13, 60, "--enable-dp-lm-head"),  # `A || B`: A's 0.4.6 when it succeeds
        ("SLM001", 19, 1, "$SERVE --enable-dp-lm-head"),
    ]
    assert "does not exist yet in SGLang 0.4.6 " in findings[0][4]
    assert "is not an SGLang 0.4.6 flag" in findings[1][4]
    assert "is not an SGLang 0.5.6 flag" in findings[2][4]
    assert findings[4][4] == (
        "the `pip install sglang==X` (line 17) before this launch runs on some paths only: the "
        "SGLang release it runs is not known, so its flags are checked against the release the "
        "summary names, unverified for the one installed"
    )
    found = lint_text(BRANCHES.text, str(BRANCHES.path)).findings
    assert [f.severity.label for f in found if f.code == "SLM001"] == ["warning"]
    assert "install one release on every path" in next(f.fix_hint for f in found if f.code == "SLM001")


def test_each_alternative_carries_its_arms_pin() -> None:
    launches = extract_file(str(BRANCHES.path), BRANCHES.text).launches
    assert [(launch.span.line, launch.image) for launch in launches] == [
        (10, "sglang[all]==0.4.6"),
        (10, "sglang==0.5.6"),
        (13, "sglang==0.5.6"),
        (13, "sglang==0.4.6"),
        (19, None),  # only some paths install one, and `$SERVE` is not walked per path
    ]
    notes = [launch.alternative.conditions[0].description for launch in launches[:4] if launch.alternative]
    assert notes[0] == "the `then` branch at line 5 runs"
    assert notes[3] == "`pip install sglang==0.4.6` at line 12 succeeds"


def test_a_pin_on_every_path_is_certain() -> None:
    text = (
        'if [ -n "$X" ]; then\n  pip install sglang==0.4.6\nelse\n  pip install sglang==0.4.6\nfi\n'
        "python3 -m sglang.launch_server --model-path /m --enable-dp-lm-head\n"
    )
    (finding,) = lint_text(text, "setup.sh").findings
    assert (finding.code, finding.span.line, finding.notes) == ("FLG009", 6, [])  # no "when ..."
    assert "does not exist yet in SGLang 0.4.6 " in finding.message


def test_a_dockerfile_pin_on_some_paths_of_a_run_is_said_not_known() -> None:
    docker = FixtureFile("docker/pip-pin-branches.Dockerfile")
    (finding,) = docker.findings()
    assert finding[:4] == ("SLM001", 5, 83, "sglang==0.5.6")
    assert finding[4].startswith("this `pip install` of an SGLang release runs on some paths of the RUN only")
    (launch,) = extract_file(str(docker.path), docker.text).launches
    assert launch.image == "lmsysorg/sglang:v0.5.6"  # not the pin: which one runs is not known
    plain = docker.text.replace('if [ "$LEGACY" = 1 ]; then pip install "sglang[all]==0.4.6"; else ', "")
    plain = plain.replace("; fi", "")
    assert lint_text(plain, "Dockerfile").findings == []  # one path: the pin holds, no warning
    (pinned,) = extract_file("Dockerfile", plain).launches
    assert pinned.image == "sglang==0.5.6"


def test_a_python_here_document_after_a_pin_on_some_paths_says_its_release_is_not_known() -> None:
    program = (
        "python3 - <<'PY'\nimport subprocess\n"
        'subprocess.run(["python3", "-m", "sglang.launch_server", "--model-path", "/m", "--enable-dp-lm-head"])\n'
        "PY\n"
    )
    text = 'if [ "$OLD" = 1 ]; then\n  pip install sglang==0.4.6\nfi\n' + program
    text += "pip install sglang==0.4.6\n" + program
    found = lint_text(text, "serve.sh").findings
    assert [(f.code, f.span.line, f.span.column) for f in found] == [("SLM001", 6, 1), ("FLG009", 11, 81)]
    assert found[0].message.startswith("the `pip install sglang==X` (line 2) before this launch runs on some")
    assert "does not exist yet in SGLang 0.4.6 " in found[1].message  # after a pin on every path
