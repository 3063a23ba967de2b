"""A launch on a prose line with a quoted value (`--served-model-name "qwen3 eagle"`,
`--json-model-override-args='{...}'`): the value is read whole, through its closing quote on
the line, and the flags after it are read. Before, the command ended at the quote (a false
FLG004 "needs a value and gets none", the flags after it unread); a quote that does not close
on its line now leaves the value unknown (SLM004), not missing."""

from __future__ import annotations

from fixture_file import FixtureFile

DOC = FixtureFile("markdown/prose_quoted_values.md")


def test_a_quoted_value_with_a_space_is_one_value_and_the_flags_after_it_are_read() -> None:
    found = DOC.findings()
    assert not [f for f in found if f[0] == "FLG004" and f[1] == 3]
    assert (
        "SPD001",
        3,
        266,
        "10",
        "`--speculative-num-draft-tokens 10` is ignored: with `--speculative-eagle-topk 1` SGLang "
        "sets speculative_num_draft_tokens to speculative_num_steps + 1 = 4 and runs with 4, "
        "not 10 (it logs one warning)",
    ) in found


def test_a_quoted_value_after_a_flag_s_equals_sign_is_read_whole() -> None:
    assert ("SPD001", 5, 264, "5") in [f[:4] for f in DOC.findings()]


def test_an_unclosed_quote_leaves_the_value_unknown_not_missing() -> None:
    assert [f for f in DOC.findings() if f[1] == 7] == [
        (
            "SLM004",
            7,
            141,
            '"qwen3',
            "launch only partly read: speclint cannot know the value of `--served-model-name` (a "
            "quoted value whose closing quote is not on its line in the documentation; unquoted, "
            "read as one word); checks that need this value did not run",
        )
    ]
