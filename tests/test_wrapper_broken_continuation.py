"""SLM002 names who loses the cut-off flags: SGLang for a launch, "the command" for another
tool's command (an evaluation harness run beside the server), whose flags were never SGLang's."""

from __future__ import annotations

from fixture_file import FixtureFile

SCRIPT = FixtureFile("shell/wrapper_broken_continuation.sh")


def test_a_blank_after_a_backslash_in_a_harness_command_names_the_command() -> None:
    blank = SCRIPT.findings()[0]
    assert blank[:4] == ("SLM002", 6, 41, "\\  ")
    assert blank[4] == (
        "`\\` followed by trailing whitespace is not a line continuation: the command ends here "
        "and `--tasks` on the next line is not passed to the command"
    )


def test_a_comment_inside_a_harness_command_names_the_command() -> None:
    comment = SCRIPT.findings()[1]
    assert comment[:4] == ("SLM002", 9, 5, "# the tasks to run")
    assert comment[4] == (
        "this comment ends the `\\`-continued command above it: `--tasks` and the flags after it "
        "on the following lines are not passed to the command (bash runs them as a separate command)"
    )


def test_only_the_two_breaks_are_reported() -> None:
    assert [finding[0] for finding in SCRIPT.findings()] == ["SLM002", "SLM002"]
