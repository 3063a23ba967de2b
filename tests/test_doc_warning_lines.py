"""A Python warning pasted in a doc's code block with the command that printed it (an issue's
server log): `FILE:LINE: CATEGORY: MESSAGE` and the lines indented under it are output, not
commands. SGLang prints one on every `python -m sglang.launch_server` run, naming `python -m
sglang.launch_server` and `Example: sglang serve --model-path <model> [options]`; before, each
gave a false SLM005 ("speclint did not read this command ...")."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text
from speclint.frontends import extract_file

ISSUE = FixtureFile("markdown/issue_log_warning.md")


def test_the_warning_in_the_log_is_not_reported() -> None:
    assert ISSUE.findings() == []


def test_the_launch_above_it_is_read() -> None:
    (launch,) = extract_file(str(ISSUE.path), ISSUE.text).launches
    assert (launch.span.line, launch.span.column) == (6, 1)


def test_a_command_after_the_warning_is_still_read() -> None:
    text = (
        "```bash\n"
        "/srv/app/run.py:12: DeprecationWarning: the old path\n"
        "  warnings.warn(\n"
        "python -m sglang.launch_server --model-path Qwen/Qwen3-8B --tp-size two\n"
        "```\n"
    )
    found = [(f.code, f.span.line, f.span.column) for f in lint_text(text, "after.md").findings]
    assert found == [("FLG005", 4, 69)]


def test_a_line_that_only_mentions_a_warning_is_kept() -> None:
    text = (
        "```bash\necho 'UserWarning: x' && python -m sglang.launch_server --model-path m --tp-size two\n```\n"
    )
    assert [f.code for f in lint_text(text, "kept.md").findings] == ["FLG005"]
