"""Prefix wrappers with a fixed, documented form seen in public SGLang launch scripts
(fixtures/shell/forms26): `flock`, `caffeinate`, `enroot start`, `doppler run`. The command
after them is read where every option is one the tool's own table lists; any other option
(or a form not read) keeps the launch said not read (SLM005). Each finding is asserted at
the token it names."""

from __future__ import annotations

import pytest
from fixture_file import FixtureFile

from speclint.engine import lint_text

EXPECTED = {
    # `flock -n LOCK cmd...`; `flock -w 30 LOCK -c "STRING"` (run by the shell); an option
    # flock does not list: not read
    "shell/forms26/w01_flock_single_instance.sh": [
        ("FLG005", 4, 123, "0.9x"),
        ("FLG005", 7, 100, "3000l"),
        ("SLM005", 10, 39, "python3 -m sglang.launch_server"),
    ],
    # `enroot start --rw --mount ... --env ... NAME cmd...`: the container's environment is
    # enroot's configuration and the image's, said partly read
    "shell/forms26/w02_enroot_start.sh": [
        ("SLM004", 5, 1, "enroot"),
        ("FLG005", 6, 90, "2x"),
    ],
    # `doppler run [flags] -- cmd...` (secrets as variables: partly read); `--command STRING`
    "shell/forms26/w03_doppler_run.sh": [
        ("SLM004", 3, 1, "doppler"),
        ("FLG005", 4, 87, "many"),
        ("SLM005", 7, 24, "python -m sglang.launch_server"),
    ],
    # macOS `caffeinate -dims cmd...`, `caffeinate -t 3600 cmd...`
    "shell/forms26/w04_caffeinate_mac.sh": [
        ("FLG005", 3, 97, "3000o"),
        ("FLG005", 4, 106, "x"),
    ],
}


@pytest.mark.parametrize("relative", sorted(EXPECTED))
def test_each_wrapper_form_is_read_or_said_unread(relative: str) -> None:
    found = [f[:4] for f in FixtureFile(relative).findings() if f[0] != "DRF011"]
    assert found == EXPECTED[relative]


LAUNCH = "python3 -m sglang.launch_server --model-path m --port 1x"


def _codes(script: str) -> list[tuple[str, int]]:
    return [(f.code, f.span.column) for f in lint_text(script + "\n", "run.sh").findings]


@pytest.mark.parametrize(
    "prefix",
    [
        "flock -nw 10 /tmp/l",  # a switch and a valued option in one word, the value next
        "flock -w10 -E 3 /tmp/l",  # the value in the option's word
        "flock --timeout=10 --verbose -- /tmp/l",
        "caffeinate -i -w 4242",
        "enroot start -e A=1 --conf /etc/enroot/x.sh -- img",
        "doppler run -p proj -c dev --preserve-env=HF_TOKEN --watch --",
    ],
)
def test_the_wrapped_command_is_read_after_the_options_each_tool_lists(prefix: str) -> None:
    script = f"{prefix} {LAUNCH}"
    assert ("FLG005", script.index("1x") + 1) in _codes(script)


@pytest.mark.parametrize(
    "prefix",
    [
        "flock -q /tmp/l",  # not one of flock's options
        "flock /tmp/l --command",  # `--command` with no string
        "caffeinate -x",
        "enroot exec 4242",  # only `enroot start` is read
        "enroot start --bogus img",
        "doppler run",  # without `--`, cobra reads the command's options as its own
        "doppler run --unknown-flag --",
        "doppler run --watch=true --",  # a switch given a value: not guessed
    ],
)
def test_a_wrapper_option_speclint_does_not_know_keeps_the_launch_said_not_read(prefix: str) -> None:
    script = f"{prefix} {LAUNCH}"
    codes = [code for code, _ in _codes(script)]
    assert "FLG005" not in codes and "SLM005" in codes, script


def test_what_enroot_and_doppler_may_set_is_said_with_the_wrapper_and_its_line() -> None:
    enroot, doppler = (
        lint_text(f"\n{prefix} {LAUNCH}\n", "run.sh").findings[0].message
        for prefix in ("enroot start --env HF_TOKEN img", "doppler run --")
    )
    assert "may be set in the container by `enroot start` (line 2) from enroot's environment" in enroot
    assert "may be set by `doppler run` (line 2) from the project's secrets" in doppler
