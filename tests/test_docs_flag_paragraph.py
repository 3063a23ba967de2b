"""An issue's "**Server side**" line followed by one code span of flags over several lines:
a flag list shown without its command, checked as a bullet list of fragments is (the rest of
the launch unknown). Before, the file said it named `--speculative-algorithm` but held no
launch, and the flags were not checked."""

from __future__ import annotations

from fixture_file import FixtureFile

DOC = FixtureFile("markdown/issue_flag_paragraph.md")


def test_a_paragraph_of_one_flag_span_is_checked_as_a_flag_list() -> None:
    found = DOC.findings()
    ambiguous = next(f for f in found if f[0] == "FLG002")
    assert ambiguous[:4] == ("FLG002", 6, 62, "--cuda-graph-max-bs")
    assert ambiguous[4].startswith("`--cuda-graph-max-bs` is ambiguous in SGLang 0.5.23")
    assert ("FLG003", 6, 84, "--speculative-algo") in [f[:4] for f in found]
    assert (
        "SLM004",
        5,
        1,
        "",
        "launch only partly read: speclint cannot know a word that may hold any flags (the rest of "
        "the launch (its model, other flags) is not shown in the documentation); checks that need "
        "this value did not run",
    ) in found


def test_a_fragment_inside_a_sentence_and_a_span_without_flags_are_not_launches() -> None:
    assert not [f for f in DOC.findings() if f[1] >= 9]
