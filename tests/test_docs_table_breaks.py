"""A command in a Markdown table cell written over several code spans joined by `<br>` (a
cell cannot hold a line end): the spans after the launcher that start with a flag are the
same command. Before, the first span was read as the whole launch ("All checks passed"
with its speculative flags unread); a `\\` closing a span (`` `... \\`<br>`--flag` ``) also
broke the spans apart, since a backslash escapes nothing inside a code span (CommonMark)."""

from __future__ import annotations

from fixture_file import FixtureFile

DOC = FixtureFile("markdown/table_br_command.md")


def test_spans_joined_by_br_are_one_launch() -> None:
    assert (
        "SPD001",
        5,
        264,
        "16",
        "`--speculative-num-draft-tokens 16` is ignored: with `--speculative-eagle-topk 1` SGLang "
        "sets speculative_num_draft_tokens to speculative_num_steps + 1 = 4 and runs with 4, "
        "not 16 (it logs one warning)",
    ) in DOC.findings()


def test_a_span_ending_in_a_backslash_goes_on_after_its_br() -> None:
    found = DOC.findings()
    spd002 = [f for f in found if f[0] == "SPD002"]
    assert [f[:4] for f in spd002] == [("SPD002", 6, 159, "5")]
    assert "--speculative-num-steps is given without --speculative-eagle-topk" in spd002[0][4]
    assert not [f for f in found if f[0] == "SLM004"]  # no `<br/>` read as a placeholder


def test_a_flag_named_in_the_prose_after_a_launch_is_not_joined_to_it() -> None:
    assert not [f for f in DOC.findings() if f[1] == 7]  # `(see `--speculative-algorithm` ...)`
