"""An `if` test the file's own values decide (`if value is True:` in a pass over a dict's
items, written out): only the arm that runs is read, as the shell front-end does. Before, both
arms were kept as alternatives and impossible combinations gave errors: `--model-path` "needs
a value and gets none" (its string value taken down the `is True` arm) and `True` "not attached
to any flag" (the switch's `True` taken down the `else` arm)."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.frontends import extract_file

WRAPPER = FixtureFile("python/flag_dict_loop.py")


def test_each_launch_is_one_argv():
    loop, side, *_ = extract_file(str(WRAPPER.path), WRAPPER.text).launches
    assert loop.alternative is None and side.alternative is None
    texts = [word.text for word in loop.args]
    assert texts == ["--model-path", "deepseek-ai/DeepSeek-V3", "--tp", "8", "--trust-remote-code"]
    # `if USE_SPEC and ...` (False), `if MODE in (...) and not USE_SPEC` (True), `elif MODE is None`
    assert [word.text for word in side.args] == [
        "--model-path",
        "Qwen/Qwen3-8B",
        "--disaggregation-mode",
        "decode",
    ]


def test_no_finding_from_an_arm_that_never_runs():
    found = WRAPPER.findings()
    assert [f[0] for f in found if f[1] < 40] == ["FLG003"]  # `--tp` abbreviates `--tp-size`: true
    assert found[0][1:4] == (19, 23, "--{key}")
    # (before: FLG004 x2, FLG010, and from arms that never run SPD002/SPD003 and FLG006 `nul`)


def test_a_name_a_function_rebinds_decides_nothing():
    maybe_spec = extract_file(str(WRAPPER.path), WRAPPER.text).launches[2]
    assert maybe_spec.alternative is not None  # `global SPEC_ON` in turn_spec_on(): both arms
    found = [f for f in WRAPPER.findings() if 20 < f[1] < 52]
    assert [(f[0], f[1], f[2], f[3]) for f in found] == [("SPD003", 49, 46, "EAGLE"), ("SPD002", 49, 83, "1")]


def test_a_flag_the_loop_body_changes_decides_nothing():
    # `first = True` before the loop, `first = False` in its body (read once for every pass)
    found = [f for f in WRAPPER.findings() if f[1] > 52]
    assert [f[:4] for f in found] == [("SLM004", 56, 74, "model"), ("FLG005", 60, 36, "two")]
