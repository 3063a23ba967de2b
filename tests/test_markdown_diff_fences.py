"""A ```diff fence (a pull request's review thread) is read as the text the diff leaves: its
added and context lines without their marker column, the removed lines left out (so a
`\\`-continued command joins its next kept line), headers and a diffed Markdown file's fence
lines blank (before, its launcher was reported as not read: SLM005)."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text
from speclint.frontends import extract_file

FILE = FixtureFile("markdown/pull_request_diff.md")


def test_the_changed_commands_are_checked_at_their_place_in_the_thread() -> None:
    findings = FILE.findings()
    assert [f[:4] for f in findings] == [
        ("FLG001", 9, 4, "--mem-fraction-statics"),
        ("FLG005", 19, 11, "high"),
    ]
    assert "did you mean `--mem-fraction-static`?" in findings[0][4]


def test_removed_lines_are_not_words_of_the_launch() -> None:
    first, second = extract_file(str(FILE.path), FILE.text).launches
    assert [w.text for w in first.args] == [
        "--model-path",
        "/models/qwen3",
        "--tp-size",
        "4",
        "--mem-fraction-statics",
        "0.85",
    ]
    assert [w.text for w in second.args] == [
        "--model-path",
        "/models/llama",
        "--speculative-algorithm",
        "EAGLE3",
        "--port",
        "high",
    ]


def test_a_diff_that_leaves_no_command_still_says_so() -> None:
    text = "```diff\n-python -m sglang.launch_server --model-path m --tp 2\n```\n"
    (finding,) = lint_text(text, "README.md").findings
    assert (finding.code, finding.span.line) == ("SLM005", 2)
