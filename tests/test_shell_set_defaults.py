"""`if [ $# -eq 0 ]; then set -- FLAGS; fi` before `python -m sglang.launch_server "$@"` (a launch
script with defaults for a bare run): the launch is read once with the words `set --` gives, on
the path that sets them, and said unknown (the script's arguments) on the other."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text

LAUNCH = "python3 -m sglang.launch_server --model-path /m"


def findings(text: str) -> list[tuple[str, int, int, str]]:
    return [(f.code, f.span.line, f.span.column, f.message) for f in lint_text(text, "serve.sh").findings]


def test_set_defaults_when_called_without_arguments_are_linted_and_the_caller_words_said_unknown():
    fixture = FixtureFile("shell/set_defaults_without_arguments.sh")
    got = fixture.findings()
    assert [g[:4] for g in got] == [("FLG005", 7, 66, "2x"), ("SLM004", 10, 38, '"$@"')]
    assert got[0][4].startswith("`2x` is not a valid value for `--tp-size`")
    assert "script argument (not known statically)" in got[1][4]
    notes = {
        f.code: [n.message for n in f.notes] for f in lint_text(fixture.text, str(fixture.path)).findings
    }
    assert "when the `then` branch at line 6 runs" in notes["FLG005"]
    assert "when the `if` at line 6 is not taken" in notes["SLM004"]


def test_set_defaults_after_an_or_list_are_linted_on_the_path_where_the_test_fails():
    text = f'[ $# -gt 0 ] || set -- --model-path /m --quantization fp9\n{LAUNCH} "$@"\n'
    got = findings(text)
    assert [(c, line, col) for c, line, col, _ in got] == [("FLG006", 1, 55), ("SLM004", 2, 49)]
    assert got[0][3].startswith("`fp9` is not a valid value for `--quantization`")


def test_a_default_model_set_when_the_first_argument_is_empty_is_read_through_its_variable():
    text = (
        'if [[ -z "$1" ]]; then\n  set -- /m\nfi\nMODEL=$1\nshift\n'
        'python3 -m sglang.launch_server --model-path "$MODEL" --tp-size 2x "$@"\n'
    )
    got = findings(text)
    assert [(c, line, col) for c, line, col, _ in got] == [("SLM004", 6, 46), ("FLG005", 6, 65)]
    assert "--model-path` (script argument (not known statically))" in got[0][3]
