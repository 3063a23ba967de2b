"""A session pasted without its first prompt but with bash's PS2 (`> `) on the lines the
command goes on (`python -m sglang.launch_server \\` then `> --model-path ...`): the `> `
markers are prompts, not redirections. Before, a `bash` or untagged block read `> --model-path`
as a redirection to a file named `--model-path` and reported a false FLG011 ("no
--model-path"), and a `console`/`text` block dropped the launch (SLM005)."""

from __future__ import annotations

import pytest
from findings_at import findings_at

from speclint.engine import lint_text

SESSION = (
    "python -m sglang.launch_server \\\n"
    "> --model-path meta-llama/Llama-3.1-8B-Instruct \\\n"
    "> --port 30000 --speculative-algorithm EAGLE --speculative-num-steps 3 \\\n"
    "> --speculative-eagle-topk 1 --speculative-num-draft-tokens 16\n"
)


def found(text: str) -> list[tuple]:
    return findings_at(text, "issue.md")


@pytest.mark.parametrize("tag", ["bash", "", "console", "shell", "text"])
def test_ps2_lines_under_an_unprompted_launch_are_its_flags(tag: str) -> None:
    text = f"Start the server:\n\n```{tag}\n{SESSION}```\n"
    result = found(text)
    column = text.splitlines()[6].rindex("16") + 1
    assert ("SPD001", 7, column, "16") in result
    assert not [f for f in result if f[0] in ("FLG011", "SLM005", "SLM004")]


def test_the_finding_says_what_sglang_does_with_the_value() -> None:
    text = f"```bash\n{SESSION}```\n"
    (spd,) = [f for f in lint_text(text, "issue.md").findings if f.code == "SPD001"]
    assert "`--speculative-num-draft-tokens 16` is ignored" in spd.message
    assert "runs with 4, not 16" in spd.message


def test_an_indented_redirection_on_a_continued_line_stays_a_redirection() -> None:
    text = (
        "```bash\nnohup python -m sglang.launch_server --model-path Qwen/Qwen3-8B \\\n"
        "  > server.log 2>&1 &\n```\n"
    )
    assert found(text) == []


def test_a_redirection_at_the_line_start_to_a_file_is_not_a_prompt() -> None:
    text = "```bash\npython -m sglang.launch_server --model-path Qwen/Qwen3-8B \\\n> server.log 2>&1 &\n```\n"
    assert found(text) == []  # (`> server.log`: no flag after the marker)
