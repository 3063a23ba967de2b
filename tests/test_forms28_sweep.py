"""Launch forms seen in public SGLang launch files (SkyPilot's `sky launch ... -- COMMAND`,
commands kept in variables run by a login shell, CI files, Slurm, process managers, task
runners), each described by a fixture of our own (fixtures/shell/forms28): every launch is
found and read whole, or what speclint could not read is said (SLM004 partly read, SLM005 not
read), and no finding is a false error. Each finding is asserted at the token it names."""

from __future__ import annotations

import pytest
from fixture_file import FixtureFile

from speclint.frontends import extract_file

EXPECTED = {
    # `sky launch ... -- python -m sglang.launch_server ...` and `sky exec CLUSTER 'CODE'` read
    # as the task's bash command (before: SLM005 not read); `sky jobs launch` still said not read
    "shell/forms28/s01_sky_launch_command.sh": [
        ("FLG003", 10, 3, "--tp"),
        ("FLG005", 10, 60, "0.85x"),
        ("FLG005", 14, 92, "eight"),
        ("SLM005", 17, 41, "python -m sglang.launch_server"),
    ],
    # `CMD+=" --port 30x0"`, then `CMD="${CMD} --tp ${TP}"` in an `if`, run by `sh -lc "${CMD}"`:
    # the value where it is written, on both paths (before: at `${CMD}` on the path with TP)
    "shell/forms28/s02_login_shell_command_variable.sh": [
        ("FLG005", 6, 15, "30x0"),
        ("FLG003", 8, 15, "--tp"),
        ("SLM004", 10, 9, "${CMD}"),
        ("FLG005", 12, 90, "4k"),
    ],
}


@pytest.mark.parametrize("relative", sorted(EXPECTED))
def test_each_public_launch_form_is_read_or_said_unread(relative: str) -> None:
    assert [f[:4] for f in FixtureFile(relative).findings()] == EXPECTED[relative]


def test_sky_gives_the_command_the_variables_of_env_and_no_others() -> None:
    script = FixtureFile("shell/forms28/s01_sky_launch_command.sh")
    first, second = extract_file(str(script.path), script.text).launches
    assert {name: word.text for name, word in first.env.items()} == {
        "HF_TOKEN": None,  # `--env HF_TOKEN`: this shell's value, which the environment gives
        "SGLANG_DISABLE_CUDNN_CHECK": "1",
    }
    assert second.env == {}


def test_sky_with_an_option_not_known_is_not_read_and_its_env_file_is_said_unread() -> None:
    from speclint.engine import lint_text

    script = (
        "sky launch -c c --unknown-option x -- python -m sglang.launch_server --model-path m --port 1x\n"
        "sky launch -c c --env-file .env -- python -m sglang.launch_server --model-path m --port 2x\n"
    )
    found = [(f.code, f.span.line) for f in lint_text(script, "run.sh").findings]
    assert found == [("SLM005", 1), ("SLM004", 2), ("FLG005", 2)]  # (2: its env file not read)
    launch = extract_file("run.sh", script).launches[0]
    assert launch.env_unread is not None and "--env-file .env" in (launch.env_unread.dynamic_reason or "")
