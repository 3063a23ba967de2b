"""A word speclint cannot read standing where a flag could be (`$OPT`, `f"{to_flag(k)} {v}"`
joined from a dict) may be a flag taking the plain words after it: they are not reported as
stray arguments (FLG010). Before, `$OPT 2` gave "`2` is not attached to any flag", an error on
a launch argparse may take. `" ".join(... for k, v in cfg.items())` (a generator, as a list
comprehension) and `k.replace("_", "-")`, `.lower()`, `.upper()` of a known text are worked
out."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.frontends import extract_file

SHELL = FixtureFile("shell/unknown_flag_then_value.sh")
JOINED = FixtureFile("python/flag_string_join.py")


def test_the_words_after_an_unknown_flag_are_not_stray() -> None:
    findings = SHELL.findings()
    assert [f[:4] for f in findings] == [("SLM004", 5, 60, "$OPT"), ("FLG005", 5, 77, "two")]
    assert "`two` is not a valid value for `--dp-size`" in findings[1][4]  # a literal flag after


def test_a_dict_joined_into_flags() -> None:
    findings = JOINED.findings()
    assert [f[:4] for f in findings] == [("FLG005", 11, 36, "two"), ("SLM004", 13, 54, "other")]
    assert (
        "a word that may hold any flags (`to_flag(...)` is computed when the program runs)" in findings[1][4]
    )
    worked_out, _unknown = extract_file(str(JOINED.path), JOINED.text).launches
    assert [w.text for w in worked_out.args][:6] == [
        "--model-path",
        "Qwen/Qwen3-8B",
        "--tp-size",
        "2",
        "--mem-fraction-static",
        "0.85",
    ]
