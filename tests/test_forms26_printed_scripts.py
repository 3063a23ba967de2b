"""A script piped into a shell from `echo -e "...\\n..."` or `printf "...\\n..."`
(fixtures/shell/forms26/s01_printed_scripts.sh): read as the shell reads it once echo or
printf has interpreted the escapes, each word where the file writes it; an escape or a
directive not interpreted here keeps the launch said not read (before: passed over in
silence beside other launches)."""

from __future__ import annotations

import pytest
from fixture_file import FixtureFile

from speclint.engine import lint_text


def test_printed_scripts_are_read_or_said_not_read() -> None:
    found = [f[:4] for f in FixtureFile("shell/forms26/s01_printed_scripts.sh").findings()]
    assert found == [
        ("FLG005", 4, 135, "3O000"),
        ("FLG005", 7, 90, "2x"),
        ("SLM005", 10, 9, "python3 -m sglang.launch_server"),
        ("SLM005", 13, 10, "python3 -m sglang.launch_server"),
    ]


def test_the_unread_escape_is_named() -> None:
    messages = [f[4] for f in FixtureFile("shell/forms26/s01_printed_scripts.sh").findings()]
    assert "is in the text `printf` prints for a shell to run, with escapes or directives" in messages[2]
    assert "is in the text `echo -e` prints" in messages[3]


LAUNCH = "python3 -m sglang.launch_server --model-path m"
READ = "python3 -m sglang.launch_server --model-path m --port 1x"


@pytest.mark.parametrize(
    "script",
    [
        f'echo -e "cd /srv\\n{READ}" | bash',
        f'echo -ne "cd /srv\\n{READ}\\n" | bash -s',
        f"printf '%%%% done\\n{READ}\\n' | sh",  # `%%` prints one `%`
        f'echo -e "cd /srv\\n{LAUNCH}\\t--port 1x" | bash',  # a tab between two words
        f'echo -e "echo \\$HOME\\n{READ}" | bash',  # `\\$`: printed as written
    ],
)
def test_the_launch_after_the_escapes_is_read(script: str) -> None:
    findings = lint_text(script + "\n", "run.sh").findings
    assert [(f.code, f.span.column) for f in findings] == [("FLG005", script.index("1x") + 1)], script


@pytest.mark.parametrize(
    "script",
    [
        f'echo -e "{LAUNCH} --port 30000\\c" | bash',  # `\\c` ends the output
        f'printf "{LAUNCH} --port %d\\n" 30000 | bash',
        f'echo -e "{LAUNCH}\\r" | bash',
    ],
)
def test_an_escape_not_interpreted_here_is_said(script: str) -> None:
    assert [f.code for f in lint_text(script + "\n", "run.sh").findings] == ["SLM005"], script


def test_echo_capital_e_keeps_the_backslashes() -> None:
    script = f'echo -e -E "{LAUNCH} --port 1x\\n" | bash'  # (the last of -e/-E wins)
    codes = [f.code for f in lint_text(script + "\n", "run.sh").findings]
    assert codes == ["FLG005"]  # `--port 1x\n`: one word, not an int
