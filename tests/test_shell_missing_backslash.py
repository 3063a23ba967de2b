"""A launch line that ends without `\\` while the next line holds more of its flags: bash ends
the command there and runs the flags as a command of their own (`command not found`), so they
never reach SGLang. Before, the launch was checked without them and "All checks passed"."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text

SCRIPT = FixtureFile("shell/missing_backslash.sh")


def test_the_line_without_a_backslash_is_reported_at_its_last_character():
    found = SCRIPT.findings()
    assert [f[:4] for f in found if f[0] == "SLM002"] == [("SLM002", 6, 8, "2")]
    (message,) = [f[4] for f in found if f[0] == "SLM002"]
    assert message.startswith("this line ends the command without a `\\`: `--speculative-algorithm`")
    assert "not passed to SGLang" in message


def test_the_fix_says_to_end_the_line_with_a_backslash():
    (finding,) = [f for f in lint_text(SCRIPT.text, str(SCRIPT.path)).findings if f.code == "SLM002"]
    assert finding.fix_hint == "end this line with ` \\` so that the command goes on to the next line"


def test_an_issue_paste_that_lost_every_backslash_is_reported_once():
    text = (
        "```bash\n"
        "python -m sglang.launch_server\n"
        "  --model-path Qwen/Qwen3-30B-A3B\n"
        "  --speculative-algorithm EAGLE3\n"
        "```\n"
    )
    broken = [f for f in lint_text(text, "issue.md").findings if f.code == "SLM002"]
    assert [(f.span.line, f.span.column) for f in broken] == [(2, 30)]
    assert "`--model-path` and the flags after it" in broken[0].message


def test_text_split_into_words_is_not_a_broken_continuation():
    """SGLang's `launch_server_cmd` splits its text on blanks (no shell), and so does
    `shlex.split`: a line end there does not end the command."""
    text = (
        "import shlex, subprocess\n"
        "from sglang.utils import launch_server_cmd\n"
        'launch_server_cmd("""\npython3 -m sglang.launch_server --model-path /m\n --tp 2\n""")\n'
        'subprocess.Popen(shlex.split("""python3 -m sglang.launch_server --model-path /m\n --tp 2"""))\n'
    )
    assert not [f for f in lint_text(text, "serve.py").findings if f.code == "SLM002"]


def test_help_output_and_other_commands_are_not_reported():
    text = (
        "python -m sglang.launch_server --help\n"
        "--model-path MODEL_PATH  The path of the model weights.\n"
        "echo done\n"
        "--not-a-launch\n"
    )
    assert not [f for f in lint_text(text, "notes.sh").findings if f.code == "SLM002"]


def test_a_doc_line_of_words_left_out_is_not_a_missing_backslash():
    text = "```bash\npython3 -m sglang.launch_server \\\n  ...\n  --tp 1 \\\n  ...\n```\n"
    assert not [f for f in lint_text(text, "before.md").findings if f.code == "SLM002"]
