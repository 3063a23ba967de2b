"""A launch written on prose lines of an issue thread and read on past its first line: in
a block quote (a reply quoting the reporter's command, `> ` before each line) continued
with `\\`, and a long command the paste wrapped before a flag with no `\\`. Before, the quoted
one was read up to the first `>` (its flags unchecked, yet "All checks passed") and the
wrapped one up to the line end (an SPD002 error for a `--speculative-eagle-topk` it has)."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text

DOC = FixtureFile("markdown/issue_quoted_and_wrapped.md")


def test_a_quoted_command_is_read_past_the_quote_markers_of_its_continued_lines() -> None:
    found = DOC.findings()
    assert (
        "SPD001",
        10,
        38,
        "16",
        "`--speculative-num-draft-tokens 16` is ignored: with `--speculative-eagle-topk 1` SGLang "
        "sets speculative_num_draft_tokens to speculative_num_steps + 1 = 4 and runs with 4, "
        "not 16 (it logs one warning)",
    ) in found
    assert ("SPD003", 8, 31, "EAGLE3") in [f[:4] for f in found]


def test_a_command_wrapped_before_a_flag_is_one_launch_not_one_missing_its_topk() -> None:
    found = DOC.findings()
    assert not [f for f in found if f[0] == "SPD002"]  # --speculative-eagle-topk is on line 16
    assert (
        "SPD001",
        16,
        59,
        "64",
        "`--speculative-num-draft-tokens 64` is ignored: with `--speculative-eagle-topk 1` SGLang "
        "sets speculative_num_draft_tokens to speculative_num_steps + 1 = 6 and runs with 6, "
        "not 64 (it logs one warning)",
    ) in found


def test_a_quoted_line_that_does_not_start_with_a_flag_ends_the_command() -> None:
    text = (
        "> python3 -m sglang.launch_server --model-path /m --speculative-algorithm EAGLE "
        "--speculative-num-steps 2\n> and then --speculative-eagle-topk 1 fails\n"
    )
    codes = [(f.code, f.span.line, f.span.column) for f in lint_text(text, "issue.md").findings]
    assert ("SPD002", 1, text.index(" 2\n") + 2) in codes  # `and` is prose: the launch ends there
