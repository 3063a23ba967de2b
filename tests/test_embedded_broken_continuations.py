"""A comment line or a blank after `\\` that ends a continued command is reported (SLM002)
wherever shell code is read, not only in shell scripts: a doc's ```bash block, a workflow's
`run:` script (before, such a launch was read without the lines after the break, and nothing
was said)."""

from __future__ import annotations

from fixture_file import FixtureFile

DOC = FixtureFile("markdown/broken_continuation.md")
WORKFLOW = FixtureFile("actions/broken_continuation.yml")


def test_a_comment_inside_a_continued_command_in_a_doc_block_is_reported() -> None:
    comment, blank = DOC.findings()
    assert comment[:4] == ("SLM002", 7, 3, "# the EAGLE-3 drafter")
    assert comment[4] == (
        "this comment ends the `\\`-continued command above it: `--speculative-algorithm` and the "
        "flags after it on the following lines are not passed to SGLang (bash runs them as a "
        "separate command)"
    )
    assert blank[:4] == ("SLM002", 14, 60, "\\  ")
    assert blank[4] == (
        "`\\` followed by trailing whitespace is not a line continuation: the command ends here "
        "and `--tp-size` on the next line is not passed to SGLang"
    )


def test_a_comment_inside_a_continued_command_in_a_run_step_is_reported() -> None:
    (finding,) = WORKFLOW.findings()
    assert finding[:4] == ("SLM002", 9, 13, "# --enable-metrics \\")
    assert "`--tp-size` and the flags after it on the following lines are not passed to SGLang" in finding[4]
