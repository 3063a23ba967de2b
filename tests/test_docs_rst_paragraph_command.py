"""A launch written in a reStructuredText paragraph (not an inline literal, not a code
block: text as Sphinx shows it) is not checked, but said not read: before, a page with
another launch read was "No findings" over it. A mention of the launcher without a flag
after it is not a command."""

from __future__ import annotations

from fixture_file import FixtureFile

DOC = FixtureFile("rst/paragraph_command.rst")


def test_a_paragraph_command_is_said_not_read() -> None:
    assert DOC.findings() == [
        (
            "SLM005",
            4,
            23,
            "python3 -m sglang.launch_server",
            "speclint did not read the command that runs `python3 -m sglang.launch_server` in this "
            "reStructuredText paragraph (shown as text, not in a code block), so nothing in this "
            "launch was checked",
        )
    ]
