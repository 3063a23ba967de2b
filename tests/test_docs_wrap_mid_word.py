"""A pasted launch line that the terminal wrapped inside a word (`...-EAG` then `LE3 --flags`):
the tail starts with a capital letter, which no shell command does, so the break is said at
the end of the line (SLM002), as for a wrapped path or value; a command after the launch
(`curl --retry ...`) is not taken for a tail."""

from __future__ import annotations

from fixture_file import FixtureFile


def test_a_line_wrapped_inside_a_word_is_said():
    found = FixtureFile("markdown/issue_wrap_mid_word.md").findings()
    breaks = [
        (line, column, token, message) for code, line, column, token, message in found if code == "SLM002"
    ]
    assert [b[:3] for b in breaks] == [(6, 215, "G")]
    assert breaks[0][3].startswith(
        "this line ends the command: `LE3` (the rest of a wrapped line?) and the flags after it on "
        "the next line are not passed to SGLang"
    )


def test_a_lowercase_command_after_a_launch_is_its_own_command():
    found = FixtureFile("markdown/issue_wrap_mid_word.md").findings()
    assert not [f for f in found if f[0] == "SLM002" and f[1] >= 12]
