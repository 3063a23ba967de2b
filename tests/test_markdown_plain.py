"""A plain Markdown file (headings, paragraphs, fences at the margin) is read without
markdown-it: the findings are the ones markdown-it's reading gives, at the same places."""

from __future__ import annotations

import pytest
from findings_at import findings_at

from speclint.frontends.docs import markdown

LAUNCH = (
    "python -m sglang.launch_server \\\n  --model-path /m --tp-szie 2 \\\n  --speculative-eagle-top-k 4\n"
)
PLAIN_DOCS = {
    "heading, sentence, fence": f"# Serve\n\nStart it:\n\n```bash\n{LAUNCH}```\n\nThen `curl` it.\n",
    "no newline at the end": f"Start it:\n```sh\n{LAUNCH}```",
    "blank lines and spaces at the end": f"```bash\n{LAUNCH}```\n\n   \n  ",
    "unclosed fence": f"# Serve\n```bash\n{LAUNCH}",
    "unclosed fence, no newline": f"```bash\n{LAUNCH.rstrip()}",
    "tilde fence, longer closer, indented closer": f"~~~ console\n$ {LAUNCH}~~~~\n\n````bash\n{LAUNCH}   ````  \n",
    "shorter run and indented run inside a fence": f"````bash\n```\n    ````\n{LAUNCH}````\n",
    "tab-indented closer is code": f"```bash\n{LAUNCH}\t```\n{LAUNCH}```\n",
    "heading and fence interrupt a paragraph": f"Text\n## Serve\nmore text\n```bash\n{LAUNCH}```\nend\n",
    "not headings": f"#hashtag line\n####### seven\n`code` first\n~~strike~~\n\n```bash\n{LAUNCH}```\n",
    "closing hashes and an empty heading": f"## Serve ##\n#\n```\n{LAUNCH}```\n",
    "prose launch on a paragraph line": "Run: python -m sglang.launch_server --model-path /m --tp-szie 2 then wait.\n",
    "code span launch in a heading": "# `python -m sglang.launch_server --model-path /m --tp-szie 2`\n",
}
OTHER_DOCS = {
    "list": f"- item\n\n```bash\n{LAUNCH}```\n",
    "indented fence": f"  ```bash\n{LAUNCH}```\n",
    "backtick in a backtick fence's info": f"```bash`\n{LAUNCH}```\n",
    "setext heading": f"Serve\n---\n```bash\n{LAUNCH}```\n",
    "carriage returns": f"# Serve\r\n```bash\r\n{LAUNCH}```\r\n",
}


@pytest.mark.parametrize("text", PLAIN_DOCS.values(), ids=PLAIN_DOCS.keys())
def test_a_plain_file_gives_markdown_its_findings(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    assert markdown.plain_blocks(text) is not None
    plain = findings_at(text, "README.md", message=True)
    monkeypatch.setattr(markdown, "plain_blocks", lambda _text: None)  # markdown-it reads it
    assert plain == findings_at(text, "README.md", message=True)
    assert any(code == "FLG001" for code, *_ in plain)


@pytest.mark.parametrize("text", OTHER_DOCS.values(), ids=OTHER_DOCS.keys())
def test_other_blocks_are_read_by_markdown_it(text: str) -> None:
    assert markdown.plain_blocks(text) is None
    assert any(code == "FLG001" for code, *_ in findings_at(text, "README.md"))


def test_findings_in_a_plain_file_point_into_the_fence() -> None:
    text = PLAIN_DOCS["heading, sentence, fence"]
    assert ("FLG001", 7, 19) in [
        (code, line, column) for code, line, column, _ in findings_at(text, "README.md")
    ]
