"""`A or B` / `A and B` in a Python launcher evaluate as Python does when A's truth is known:
`*(extra_args or [])` with `extra_args` bound to a list by the file's call of the function,
`str(port or 30000)` with `port` left at its default None. Before: "computed when the program
runs", so the call's flags were never checked (a missed FLG002 here)."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text

OR_DEFAULT = FixtureFile("python/or_default_argv.py")


def test_a_parameter_or_a_default_takes_the_call_s_value() -> None:
    findings = [f for f in OR_DEFAULT.findings() if f[0] != "FLG003"]
    assert [f[:4] for f in findings] == [
        ("SLM004", 10, 25, "model"),  # the function walked alone: parameters unknown
        ("FLG002", 18, 43, "--cuda-graph-max-bs"),
    ]
    assert "`--cuda-graph-max-bs` is ambiguous in SGLang 0.5.23" in findings[1][4]
    own, called = lint_text(OR_DEFAULT.text, str(OR_DEFAULT.path)).contexts
    words = [word.text for word in called.launch.args]
    assert words[words.index("--port") + 1] == "30000"
    assert words[-4:] == ["--tp", "2", "--cuda-graph-max-bs", "8"]
    assert own.launch.args[-1].text is None  # `(extra_args or [])` unknown where nothing calls it


def test_an_unknown_left_side_stays_unknown() -> None:
    text = OR_DEFAULT.text.replace('start("Qwen/Qwen3-8B", [', 'start("Qwen/Qwen3-8B", sys.argv[1:] + [')
    (finding,) = [f for f in lint_text(text, str(OR_DEFAULT.path)).findings if f.code == "SLM004"]
    assert "(`(extra_args or [])` is computed when the program runs)" in finding.message
