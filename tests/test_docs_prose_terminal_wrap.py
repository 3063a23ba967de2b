"""A command pasted as text from a terminal that wrapped it inside a word (`... --por` then
`t 8998` on the next line of the paragraph): the flag that ends the line may be cut, so it
is an unknown word (SLM004, launch partly read), not `--por` missing its value. Before: a
false FLG004 error ("argparse stops the launch") for a launch that ran with `--port 8998`.
A flag followed on the next line by a word that is no flag but prose at the first column
is treated the same way (the paragraph may be hard-wrapped between flag and value)."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text

DOC = FixtureFile("markdown/issue_terminal_wrap.md")


def test_a_flag_cut_by_a_terminal_wrap_is_unknown_not_missing_its_value() -> None:
    found = DOC.findings()
    assert not [f for f in found if f[0] == "FLG004"]
    wrapped = [f for f in found if f[:4] == ("SLM004", 3, 139, "--por")]
    assert len(wrapped) == 1
    assert "`--por` ends its line and the paragraph goes on with `t 8998`" in wrapped[0][4]
    assert "the line may have been wrapped inside the command" in wrapped[0][4]


def test_a_paragraph_hard_wrapped_between_a_flag_and_prose_is_said_partly_read() -> None:
    found = [f for f in DOC.findings() if f[:4] == ("SLM004", 9, 105, "--port")]
    assert len(found) == 1
    assert "the paragraph goes on with `is missing`" in found[0][4]


def test_the_launch_is_still_read_and_counted() -> None:
    result = lint_text(DOC.text, str(DOC.path))
    assert len(result.contexts) == 2


def test_a_flag_at_the_end_of_a_paragraph_still_misses_its_value() -> None:
    text = "Run this: python -m sglang.launch_server --model-path Qwen/Qwen3-8B --port\n\nThen more.\n"
    (finding,) = [f for f in lint_text(text, "doc.md").findings if f.code == "FLG004"]
    assert (finding.span.line, finding.span.column) == (1, 69)
    assert "`--port` needs a value and gets none" in finding.message
