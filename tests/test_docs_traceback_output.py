"""A launch pasted into a `bash` fence with the Python traceback it ended in (issue threads
do): the traceback is output, not commands. Before, its `(most recent call last):` line gave
a doc syntax warning (SLM001, "bash would refuse to run this script") beside the launch."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text

DOC = FixtureFile("markdown/issue_command_and_traceback.md")


def test_the_launch_is_read_and_its_traceback_is_not_a_syntax_error() -> None:
    found = DOC.findings()
    assert (
        "SPD001",
        7,
        87,
        "12",
        "`--speculative-num-draft-tokens 12` is ignored: with `--speculative-eagle-topk 1` SGLang "
        "sets speculative_num_draft_tokens to speculative_num_steps + 1 = 4 and runs with 4, "
        "not 12 (it logs one warning)",
    ) in found
    assert not [f for f in found if f[0].startswith("SLM")]


def test_a_command_after_the_traceback_is_still_shell() -> None:
    text = DOC.text.replace(
        'echo "exit code: $?"', "python3 -m sglang.launch_server --model-path /m --tp 3 4"
    )
    found = [(f.code, f.span.line) for f in lint_text(text, "issue.md").findings]
    assert ("FLG010", 20) in found  # the `4` nothing takes: read, not blanked as output
