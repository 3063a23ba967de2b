"""Two forms of deployment scripts: a launcher function called without arguments is read
with its parameters' defaults at that call (before: its parameters stayed unknown), and a
local copy of SGLang's `execute_shell_command` (`.replace("\\\\\\n", " ")` then `.split()`)
keeps each word where the caller writes it, so its launch is one finding at the caller's
token (before: a second one at the `.replace(...)` inside the helper)."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text

FILE = FixtureFile("python/launch_function_defaults.py")


def test_the_findings_a_user_sees() -> None:
    assert [f[:4] for f in FILE.findings()] == [
        ("SLM004", 12, 25, "model_path"),
        ("FLG005", 14, 26, "tp"),
        ("FLG001", 32, 18, "--chunked-prefil-size"),
    ]


def test_a_default_is_the_value_at_a_call_that_leaves_it_out() -> None:
    (finding,) = [f for f in lint_text(FILE.text, str(FILE.path)).findings if f.code == "FLG005"]
    assert "`one` is not a valid value for `--tp-size`" in finding.message
    assert [(n.span.line, n.span.column, n.message) for n in finding.notes] == [
        (9, 75, "value assigned here"),
        (28, 14, "when launch_server() is called at line 28"),
    ]


def test_the_own_reading_still_says_its_parameters_are_unknown() -> None:
    (slm,) = [f for f in FILE.findings() if f[0] == "SLM004"]
    assert "the value of `--tp-size` (parameter `tp` of launch_server())" in slm[4]


def test_replace_keeps_the_words_where_the_caller_wrote_them() -> None:
    text = FILE.text.replace("--port 30001 --chunked-prefil-size 4096", "--port 30001 --tp-size 1")
    assert [f[:2] for f in ((f.code, f.span.line) for f in lint_text(text, str(FILE.path)).findings)] == [
        ("SLM004", 12),
        ("FLG005", 14),
    ]
