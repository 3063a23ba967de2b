"""Two readings that gave false `unrecognized arguments` errors on issue text:

- a prose launch whose sentence goes on after a switch (`... --enable-torch-compile is much
  slower`): a lower-case word after a flag that takes no value in any SGLang release is prose,
  not a stray argument;
- a launch in a GFM table cell's code span piped to `tee` (`2>&1 \\| tee server.log`): the
  table's `\\|` is a `|` in the cell as shown, so the command is a pipeline."""

from __future__ import annotations

from fixture_file import FixtureFile

DOC = FixtureFile("markdown/issue_switch_prose_and_table_pipe.md")

IGNORED = (
    "`--speculative-num-draft-tokens 8` is ignored: with `--speculative-eagle-topk 1` SGLang sets "
    "speculative_num_draft_tokens to speculative_num_steps + 1 = 3 and runs with 3, not 8 (it logs "
    "one warning)"
)


def test_a_sentence_going_on_after_a_switch_is_not_an_argument() -> None:
    assert ("SPD001", 3, 182, "8", IGNORED) in DOC.findings()


def test_an_escaped_pipe_in_a_table_cell_is_a_pipe() -> None:
    assert ("SPD001", 7, 186, "8", IGNORED) in DOC.findings()


def test_no_word_is_said_unattached() -> None:
    assert not [f for f in DOC.findings() if f[0] == "FLG010"]
