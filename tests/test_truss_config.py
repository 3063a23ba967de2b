"""A Truss `config.yaml` whose `docker_server: start_command:` starts SGLang: the command is
read as the shell code truss runs (`bash -c "$START_COMMAND"`), at its YAML positions, in the
`base_image: image:` (which picks the release) with the `environment_variables:` (before: no
launch found, SLM005)."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text
from speclint.frontends import extract_file

FILE = FixtureFile("tasks/truss/config.yaml")


def test_the_start_command_is_checked_against_the_base_images_release() -> None:
    findings = FILE.findings()
    assert findings == [
        (
            "FLG001",
            15,
            5,
            "--tp-sise",
            "`--tp-sise` is not an SGLang 0.5.6 flag: argparse stops the launch with 'unrecognized "
            "arguments'; did you mean `--tp-size`?",
        )
    ]
    (ctx,) = lint_text(FILE.text, str(FILE.path)).contexts
    assert ctx.version.reason == "from the image lmsysorg/sglang:v0.5.6 (line 5)"


def test_the_environment_variables_reach_the_launch() -> None:
    (launch,) = extract_file(str(FILE.path), FILE.text).launches
    assert launch.env["SGLANG_LOG_LEVEL"].text == "debug"
    assert FILE.at(launch.env["SGLANG_LOG_LEVEL"].span) == (7, 21, "debug")
    assert launch.env["HF_TOKEN"].text is None  # no value: given at deploy time
    assert FILE.at(launch.args[1].span) == (13, 18, "/app/model_cache/qwen3")
