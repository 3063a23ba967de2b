"""A notebook exported to Markdown (nbconvert, and SGLang's own rendered docs): each code cell
is a Python fence and what it printed follows as an indented block. That output is not run
(SGLang's warning "'python -m sglang.launch_server' is still supported ... Example: sglang serve
--model-path <model> [options]" is text it prints), so it is not read as commands; an indented
block after prose still is."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text
from speclint.frontends import extract_file

DOC = FixtureFile("markdown/nbconvert_cell_output.md")


def test_the_cell_output_is_not_reported_as_unread_commands() -> None:
    assert DOC.findings() == []


def test_the_cell_and_the_indented_command_after_prose_are_the_launches() -> None:
    launches = extract_file(str(DOC.path), DOC.text).launches
    assert [(launch.span.line, launch.span.column) for launch in launches] == [(9, 14), (22, 5)]


def test_the_indented_command_after_prose_is_checked() -> None:
    text = DOC.text.replace("--attention-backend flashinfer", "--attention-backend flashinfe")
    (finding,) = lint_text(text, str(DOC.path)).findings
    assert (finding.code, finding.span.line, finding.span.column) == ("FLG006", 22, 98)


def test_an_indented_block_after_a_shell_fence_is_still_read() -> None:
    text = "```bash\necho start\n```\n\n    python3 -m sglang.launch_server --model-path m --tp-size two\n"
    (finding,) = lint_text(text, "after_shell.md").findings
    assert (finding.code, finding.span.line) == ("FLG005", 5)
