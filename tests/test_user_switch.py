"""`su [-] USER -c 'CODE'` and `runuser -u USER [--] COMMAND`: the command they run is the
launch. A login shell (`su -`) starts with a fresh environment, so the
script's exported variables do not reach it; `su USER -c` keeps them (before, each was no launch
found: SLM005)."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.frontends import extract_file

FILE = FixtureFile("shell/user_switch.sh")


def test_each_switched_command_is_a_launch_with_exact_positions() -> None:
    findings = FILE.findings()
    assert [f[:4] for f in findings] == [
        ("PAR001", 3, 29, "0,1"),
        ("FLG001", 4, 76, "--mem-fraction-statics"),
        ("FLG001", 6, 81, "--tp-sise"),
        ("FLG005", 7, 85, "high"),
    ]
    assert "but tp 4 makes SGLang start 4 workers" in findings[0][4]  # `su sglang -c` at line 5


def test_a_login_shell_gets_none_of_the_scripts_variables() -> None:
    login, kept, runuser, runuser_plain = extract_file(str(FILE.path), FILE.text).launches
    assert login.env == {}
    for launch in (kept, runuser, runuser_plain):
        assert launch.env["CUDA_VISIBLE_DEVICES"].text == "0,1"
