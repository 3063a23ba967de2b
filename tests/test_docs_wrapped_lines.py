"""A pasted launch line split in two (a terminal wrap inside a path, a tracker's wrap before a
value, a lost `\\` before a flag in a `$ ` session): the break is said at the end of the line
(SLM002), naming the word the next line starts with, not passed over as output or silence."""

from __future__ import annotations

from fixture_file import FixtureFile


def test_split_launch_lines_are_said():
    found = FixtureFile("markdown/issue_wrapped_lines.md").findings()
    assert [(code, line, column, token) for code, line, column, token, _ in found] == [
        ("SLM002", 6, 141, "8"),  # wrapped inside the model path, after a `$ ` prompt
        ("SLM002", 15, 73, "0"),  # `--tp-szie 2` under the prompted line: not output
        ("FLG004", 23, 101, "--context-length"),
        ("SLM002", 23, 116, "h"),  # the value `131072` wrapped to the next line
        ("FLG012", 30, 34, "--help"),  # the help's lines after it stay output: no SLM002
    ]
    messages = {line: message for code, line, _, _, message in found if code == "SLM002"}
    assert messages[6].startswith(
        "this line ends the command: `b195040accf22693501bc/` (the rest of a wrapped line?) and the "
        "flags after it on the next line are not passed to SGLang"
    )
    assert messages[15].startswith("this line ends the command without a `\\`: `--tp-szie` and the flags")
    assert messages[23].startswith("this line ends the command: `131072` (the rest of a wrapped line?)")


def test_the_fix_says_to_join_a_wrapped_line():
    from speclint.engine import lint_text

    fixture = FixtureFile("markdown/issue_wrapped_lines.md")
    fixes = {(f.span.line, f.code): f.fix_hint for f in lint_text(fixture.text, str(fixture.path)).findings}
    assert fixes[(6, "SLM002")] == "join the next line to this one (the paste split one line in two)"
    assert fixes[(15, "SLM002")] == "end this line with ` \\` so that the command goes on to the next line"
