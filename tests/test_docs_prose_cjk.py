"""A launch on a prose line of an issue written in Chinese: the sentence goes on right after
the command's last value with full-width punctuation and no space (`--speculative-num-draft-tokens
16，启动后...`, `--tp-size 2。`). The value is read up to the punctuation. Before, the whole
word was taken for prose, so the flag was said to get no value: a false FLG004 error."""

from __future__ import annotations

from fixture_file import FixtureFile

DOC = FixtureFile("markdown/issue_cjk_prose.md")


def test_the_last_value_before_fullwidth_punctuation_is_read() -> None:
    found = DOC.findings()
    assert (
        "SPD001",
        3,
        236,
        "16",
        "`--speculative-num-draft-tokens 16` is ignored: with `--speculative-eagle-topk 1` SGLang "
        "sets speculative_num_draft_tokens to speculative_num_steps + 1 = 4 and runs with 4, "
        "not 16 (it logs one warning)",
    ) in found


def test_no_flag_is_said_to_miss_its_value() -> None:
    assert not [f for f in DOC.findings() if f[0] == "FLG004"]
