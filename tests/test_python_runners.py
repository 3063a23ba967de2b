"""uv, uvx and pipx in front of the server: the command they run is the launch (`uv run [options]
[-m] ...`, `uv tool run` / `uvx [options] COMMAND`, `pipx run [options] APP`), and a requirement
pinning SGLang exactly (`--with`, `--from`, `--spec`, uvx's `COMMAND@VERSION`) picks the release
it is checked against, as an image tag does (before: uvx, `uv tool run` and pipx were no launch
found, SLM005; `uv run --with sglang==X` was checked against the newest release)."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text
from speclint.frontends import extract_file

FILE = FixtureFile("shell/python_runners.sh")


def test_each_launch_is_checked_against_the_release_its_pin_names() -> None:
    findings = FILE.findings()
    assert [f[:4] for f in findings] == [
        ("FLG009", 5, 30, "--enable-dp-lm-head"),
        ("FLG001", 6, 98, "--tp-sise"),
        ("FLG005", 7, 94, "high"),
        ("FLG009", 8, 51, "--enable-dp-lm-head"),
        ("FLG001", 10, 78, "--tp-sise"),
        ("FLG001", 11, 66, "--tp-sise"),
        ("FLG001", 12, 75, "--tp-sise"),  # `uv run --module=NAME`
    ]
    assert "does not exist yet in SGLang 0.4.6.post1" in findings[0][4]
    assert "is not an SGLang 0.5.6 flag" in findings[1][4]
    assert "does not exist yet in SGLang 0.4.6 " in findings[3][4]
    assert "is not an SGLang 0.5.6 flag" in findings[4][4]
    assert "is not an SGLang 0.5.23 flag" in findings[5][4]  # a range pins nothing: the newest


def test_the_pin_is_the_launchs_image_at_the_requirement() -> None:
    launches = extract_file(str(FILE.path), FILE.text).launches
    assert [launch.image for launch in launches] == [
        "sglang[all]==0.4.6.post1",
        "sglang==0.5.6",
        "sglang[all]==0.5.6",
        "sglang@0.4.6",
        "sglang==0.3.0",
        "sglang[all]==0.5.6",
        None,
        None,
    ]
    assert FILE.at(launches[1].image_span) == (6, 15, "sglang==0.5.6")
    assert FILE.at(launches[3].image_span) == (8, 5, "sglang@0.4.6")
    assert [launch.entry for launch in launches[2:4]] == ["sglang serve", "sglang serve"]
    assert launches[7].entry == "python -m sglang.launch_server"


def test_the_release_chosen_says_which_pin_and_where() -> None:
    reasons = [
        (ctx.version.version, ctx.version.reason) for ctx in lint_text(FILE.text, str(FILE.path)).contexts
    ]
    assert reasons[0] == ("0.4.6.post1", "from the package pin sglang[all]==0.4.6.post1 (line 4)")
    assert reasons[4] == (
        "0.4.0",
        "the package pin sglang==0.3.0 names 0.3.0, older than every release speclint knows (the "
        "oldest is 0.4.0): checked against 0.4.0, unverified for 0.3.0 (line 9)",
    )
    assert reasons[6][0] == "0.5.23" and "package pin" not in reasons[6][1]


PIPX = FixtureFile("shell/pipx_run_requirement.sh")


def test_pipx_run_with_a_requirement_as_the_app_runs_its_package_name() -> None:
    # pipx's run.py: the app run is `Requirement(APP).name`, installed from APP (or --spec)
    findings = PIPX.findings()
    assert [f[:4] for f in findings] == [
        ("FLG001", 4, 56, "--tp-szie"),  # before: `sglang==0.4.6` as the program, no launch
        ("FLG006", 5, 69, "halff"),
        ("FLG001", 6, 77, "--mem-fraction-statc"),
    ]
    assert "is not an SGLang 0.4.6 flag" in findings[0][4]  # the requirement's pin
    assert "did you mean `--tp-size`?" in findings[0][4]
    launches = extract_file(str(PIPX.path), PIPX.text).launches
    assert [launch.image for launch in launches] == ["sglang==0.4.6", None, "sglang[all]==0.4.6"]
    assert [PIPX.at(launch.image_span)[:2] for launch in launches if launch.image_span] == [(4, 10), (6, 17)]


def test_a_spec_names_the_package_even_when_the_app_has_a_pin() -> None:
    text = "pipx run --spec sglang==0.4.6 sglang==0.5.0 serve --model-path /m --tp-szie 2\n"
    (finding,) = lint_text(text, "serve.sh").findings
    assert "is not an SGLang 0.4.6 flag" in finding.message
