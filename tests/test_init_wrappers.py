"""Container init processes and user switchers in front of the server (`exec tini -- ...`,
`dumb-init`, `gosu USER`, `su-exec USER`, an image's `ENTRYPOINT ["/usr/bin/tini", "--"]`): the
command after their options is the launch, read as it would be without them (before, no launch
was found in such files: SLM005)."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.frontends import extract_file

SCRIPT = FixtureFile("shell/init_wrappers.sh")
DOCKERFILE = FixtureFile("docker/tini.Dockerfile")


def test_the_command_after_each_wrapper_is_the_launch_with_exact_positions() -> None:
    findings = SCRIPT.findings()
    assert [f[:4] for f in findings] == [
        ("FLG001", 5, 79, "--mem-fraction-statics"),
        ("FLG001", 7, 84, "--tp-sise"),
        ("FLG005", 8, 76, "high"),
        ("FLG006", 9, 90, "float64"),
    ]
    assert "did you mean `--mem-fraction-static`?" in findings[0][4]
    assert "did you mean `--tp-size`?" in findings[1][4]
    assert "invalid int value: 'high'" in findings[2][4]
    assert "invalid choice: 'float64'" in findings[3][4]


def test_the_wrappers_options_and_user_are_not_the_launchs_words() -> None:
    launches = extract_file(str(SCRIPT.path), SCRIPT.text).launches
    assert [launch.entry for launch in launches] == [
        "python -m sglang.launch_server",
        "python -m sglang.launch_server",
        "sglang serve",
        "python -m sglang.launch_server",
    ]
    assert [[w.text for w in launch.args][:2] for launch in launches] == [
        ["--model-path", "/models/qwen3"]
    ] * 4


def test_a_tini_entrypoint_runs_the_cmd_as_its_child() -> None:
    (finding,) = DOCKERFILE.findings()
    assert finding[:4] == ("FLG001", 5, 81, "--mem-fraction-statics")
    assert "is not an SGLang 0.5.6 flag" in finding[4]
