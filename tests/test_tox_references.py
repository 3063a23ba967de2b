"""tox's `{[section]key}` substitution (tox's documentation, "Substitutions": the value of any
section's key): the referenced text, its own substitutions worked out in the environment that
runs it, each character at its place in tox.ini; a value of several lines in `commands` is a
command a line."""

from __future__ import annotations

from pathlib import Path

from findings_at import place

from speclint.engine import lint_text
from speclint.frontends import extract_file

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "commands" / "tox-references" / "tox.ini"
TEXT = FIXTURE.read_text()
LINES = TEXT.splitlines()


def _value(launch, flag: str) -> str | None:
    words = [w.text for w in launch.args]
    return words[words.index(flag) + 1]


def test_findings_point_into_the_referenced_and_the_referring_text() -> None:
    findings = lint_text(TEXT, str(FIXTURE)).findings
    assert [(f.code, *place(LINES, f.span)) for f in findings] == [
        ("FLG001", 9, 22, "--tp-sise"),
        ("FLG005", 18, 44, "high"),
        ("SLM004", 19, 49, "{[server]missing}"),
    ]
    assert "`{[server]missing}` names a key speclint did not find in this file" in findings[2].message


def test_references_are_substituted_in_the_environment_that_runs_them() -> None:
    serve, small, missing = extract_file(str(FIXTURE), TEXT).launches
    # `{[server]commands}`: two lines, two commands; the launch is the second
    assert (serve.span.line, small.span.line, missing.span.line) == (6, 6, 19)
    assert _value(serve, "--model-path") == "Qwen/Qwen2.5-7B-Instruct"
    assert place(LINES, serve.args[1].span) == (5, 9, "Qwen/Qwen2.5-7B-Instruct")
    # {env:PORT:30000} inside the referenced text: serve's setenv, serve-small's default
    assert _value(serve, "--port") == "31000"
    assert _value(small, "--port") == "30000"
    assert [w.text for w in serve.args][-2:] == ["--tp-sise", "2"]


def test_a_reference_to_itself_is_unknown_not_followed_forever() -> None:
    text = (
        "[a]\nx = {[a]x} --tp 2\n[testenv]\ncommands = python -m sglang.launch_server --model-path {[a]x}\n"
    )
    (launch,) = extract_file("tox.ini", text).launches
    assert launch.args[1].text is None
    assert "`{[a]x}` refers to itself through other references" in (launch.args[1].dynamic_reason or "")
