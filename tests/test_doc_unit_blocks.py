"""Unit-like code blocks in a doc: a supervisord `[program:x]` section (an `ini` fence) is read
as the supervisord front-end reads the file; a systemd or supervisord command that leaves words
out (`ExecStart=... sglang.launch_server ...`) is said not read (SLM005 at the launcher),
where before the `...` gave two false errors (FLG011 "no --model-path", FLG010 "`...` is not
attached to any flag")."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text
from speclint.frontends import extract_file

DOC = FixtureFile("markdown/supervisord_and_elided_unit.md")
ELIDED = (
    "speclint did not read the command that runs `sglang.launch_server` in this code block "
    "(words are left out of it, `...`), so nothing in this launch was checked"
)


def test_the_elided_unit_is_said_not_read_and_the_program_is_clean() -> None:
    assert DOC.findings() == [("SLM005", 16, 31, "sglang.launch_server", ELIDED)]


def test_the_supervisord_program_is_the_launch() -> None:
    (launch,) = extract_file(str(DOC.path), DOC.text).launches
    assert launch.span.line == 7
    assert [word.text for word in launch.args][-2:] == ["--attention-backend", "flashinfer"]


def test_the_supervisord_program_is_checked() -> None:
    text = DOC.text.replace("--tp-size 2", "--tp-size two")
    found = [(f.code, f.span.line, f.span.column) for f in lint_text(text, str(DOC.path)).findings]
    assert found == [("FLG005", 7, 78), ("SLM005", 16, 31)]


def test_an_elided_unit_alone_is_the_file_without_launch() -> None:
    text = "```ini\n[Service]\nExecStart=/usr/bin/python3 -m sglang.launch_server ...\n```\n"
    (finding,) = lint_text(text, "unit.md").findings
    assert (finding.code, finding.span.line, finding.span.column) == ("SLM005", 3, 31)
    assert "FLG011" not in finding.message
