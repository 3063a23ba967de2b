"""A launch on a prose line that the sentence closes right after its last value: a `?` or
`!` (`... --speculative-num-draft-tokens 8?`), the quote, emphasis or bracket the prose opened
before the launcher (`"python3 -m ... 8"`, `**...8**`, `_..._`, `[... 8]`, curly quotes), an
em dash (`8\u2014not`) or a lone `--` dash; a comma after a value mid-command is the sentence's. The
value is read up to it. Before, the whole word was taken for prose and the flag was said to
get no value (a false FLG004 error); a launch in `_..._` was not found at all."""

from __future__ import annotations

from fixture_file import FixtureFile

DOC = FixtureFile("markdown/issue_prose_sentence_ends.md")


def test_each_launch_is_read_to_its_last_value() -> None:
    found = [f[:4] for f in DOC.findings() if f[0] == "SPD001"]
    assert found == [
        ("SPD001", 3, 205, "8"),
        ("SPD001", 5, 204, "8"),
        ("SPD001", 7, 195, "8"),
        ("SPD001", 9, 176, "8"),
        ("SPD001", 11, 175, "8"),
        ("SPD001", 13, 193, "8"),
        ("SPD001", 15, 197, "8"),
        ("SPD001", 17, 180, "8"),  # `1, --next-flag`: the comma is the sentence's
        ("SPD001", 19, 191, "8"),  # `8\u2014not 8`: an em dash right after the value
        ("SPD001", 21, 191, "8"),  # `8 -- not 8`: `--` alone is a dash in the sentence
    ]


def test_no_flag_is_said_to_miss_its_value() -> None:
    assert not [f for f in DOC.findings() if f[0] in ("FLG004", "FLG010")]


def test_the_message_says_what_sglang_runs_with() -> None:
    message = next(f[4] for f in DOC.findings() if f[0] == "SPD001")
    assert message == (
        "`--speculative-num-draft-tokens 8` is ignored: with `--speculative-eagle-topk 1` SGLang sets "
        "speculative_num_draft_tokens to speculative_num_steps + 1 = 3 and runs with 3, not 8 (it logs "
        "one warning)"
    )
