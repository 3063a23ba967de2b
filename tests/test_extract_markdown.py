"""Markdown front-end: fenced shell, console and Python blocks, positions in the .md file."""

from __future__ import annotations

from pathlib import Path

from findings_at import text_at

from speclint.engine import lint_text
from speclint.frontends import extract_file

ROOT = Path(__file__).resolve().parent.parent
TEXT = (ROOT / "fixtures/markdown/README_launch.md").read_text()


def test_blocks_found_with_positions_in_the_markdown_file():
    bash, console, python, listed = extract_file("R.md", TEXT).launches
    assert bash.args[0].span.line == 6 and text_at(TEXT, bash.args[0].span) == "--model-path"
    assert [w.text for w in console.args] == [
        "--model-path",
        "/models/llama",
        "--speculative-eagle-top-k",
        "4",
    ]
    assert text_at(TEXT, console.args[0].span) == "--model-path" and console.args[2].span.line == 15
    assert python.kwargs_style and python.kwargs[0][0].span.line == 25
    assert listed.entry == "sglang serve" and text_at(TEXT, listed.args[-2].span) == "--tp-szie"


def test_findings_point_into_the_markdown():
    found = {(f.code, f.span.line, f.span.column) for f in lint_text(TEXT, "R.md").findings}
    assert ("SPD001", 8, 87) in found  # bash block
    assert ("FLG001", 15, 5) in found  # console block, continuation line
    assert ("SPD001", 28, 47) in found  # python block
    assert ("FLG001", 34, 43) in found  # indented block inside a list item


def test_console_output_and_other_languages_are_not_read():
    text = "```console\n$ echo hi\nsglang.launch_server --bogus\n```\n```text\npython -m sglang.launch_server --x\n```\n"
    assert extract_file("a.md", text).launches == []


def test_untagged_block_without_syntax_complaints():
    text = "```\npython -m sglang.launch_server --model-path m --tp 2 (\n```\n"
    result = extract_file("a.md", text)
    assert result.diagnostics == []


def test_tagged_block_syntax_error_and_python_syntax_error_are_warnings():
    text = '```bash\npython -m sglang.launch_server --model-path m "\n```\n\n```python\nimport sglang\nx = (\n```\n'
    kinds = [(d.kind, d.span.line) for d in extract_file("a.md", text).diagnostics]
    assert [k for k, _ in kinds] == ["doc-syntax-error", "doc-syntax-error"]
    assert all(line >= 2 for _, line in kinds)
    found = [(f.span.line, f.severity.label) for f in lint_text(text, "a.md").findings if f.code == "SLM001"]
    assert found == [(2, "warning"), (7, "warning")], found
