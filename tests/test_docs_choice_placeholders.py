"""Doc placeholders that name alternatives or a path: `{fa3|flashinfer}`, `[fa3|triton]`,
`{trained/model/path}`. Before, bash's reading of `{fa3|flashinfer}` (a pipe) cut the launch
there (a false FLG006 for `{fa3`, the flags after it unread) and `[fa3|triton]` was a glob;
now each is one unknown value, said to be the documentation's placeholder."""

from __future__ import annotations

from fixture_file import FixtureFile

DOC = FixtureFile("markdown/choice_placeholders.md")


def test_alternatives_in_braces_are_a_placeholder_not_a_pipe() -> None:
    found = DOC.findings()
    assert not [f for f in found if f[0] == "FLG006"]
    partly = next(f for f in found if f[0] == "SLM004" and f[1] == 8)
    assert partly[:4] == ("SLM004", 8, 25, "{trained/model/name}")
    assert (
        "the value of `--attention-backend` (a placeholder in the documentation "
        "(`{fa3|flashinfer}`): the reader fills in the value)"
    ) in partly[4]
    assert (
        "the value of `--model-path` (a placeholder in the documentation (`{trained/model/path}`)"
        in partly[4]
    )
    assert ("SPD001", 12, 63, "8") in [f[:4] for f in found]  # read on past the placeholder


def test_alternatives_in_brackets_are_a_placeholder_not_a_glob() -> None:
    assert (
        "SLM004",
        15,
        95,
        "[fa3|triton]",
        "launch only partly read: speclint cannot know the value of `--attention-backend` (a "
        "placeholder in the documentation (`[fa3|triton]`): the reader fills in the value); "
        "checks that need this value did not run",
    ) in DOC.findings()


def test_words_in_braces_or_angle_brackets_are_one_placeholder() -> None:
    """`{target model}` was two words to bash (`model}` a stray argument, FLG010) and
    `<path to your EAGLE checkpoint>` a redirection; each is the reader's value."""
    found = DOC.findings()
    assert not [f for f in found if f[0] in ("FLG010", "FLG011") or f[0] == "SLM001"]
    partly = next(f for f in found if f[0] == "SLM004" and f[1] == 21)
    assert partly[:4] == ("SLM004", 21, 13, "{target model}")
    assert (
        "the value of `--speculative-draft-model-path` (a placeholder in the documentation "
        "(`<path to your EAGLE checkpoint>`): the reader fills in the value)"
    ) in partly[4]
    assert ("SPD001", 24, 89, "8") in [f[:4] for f in found]  # read on past the placeholders
