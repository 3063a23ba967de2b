"""A word speclint cannot read standing where a flag could be (`$OPT`, `f"--{k} {v}"` joined
from a dict) may be a flag taking the plain words after it: they are not reported as stray
arguments (FLG010). Before, `$OPT 2` gave "`2` is not attached to any flag", an error on a
launch argparse may take."""

from __future__ import annotations

from fixture_file import FixtureFile

SHELL = FixtureFile("shell/unknown_flag_then_value.sh")
JOINED = FixtureFile("python/flag_string_join.py")


def test_the_words_after_an_unknown_flag_are_not_stray() -> None:
    findings = SHELL.findings()
    assert [f[:4] for f in findings] == [("SLM004", 5, 60, "$OPT"), ("FLG005", 5, 77, "two")]
    assert "`two` is not a valid value for `--dp-size`" in findings[1][4]  # a literal flag after


def test_a_dict_joined_into_flags_gives_no_stray_values() -> None:
    codes = [f[0] for f in JOINED.findings()]
    assert codes == ["SLM004", "FLG005"]
