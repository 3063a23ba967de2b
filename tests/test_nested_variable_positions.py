"""A command kept in a shell variable and run through `bash -c "$CMD"`, `eval "$CMD"` or
`sh -c "${CMD}"`: the inner shell's words point where the variable's string writes them
(`nested.put_expansion`, from `VarValue.written`), as an unquoted `$CMD` already did; they
pointed at the quoted expansion."""

from __future__ import annotations

from fixture_file import FixtureFile

SCRIPT = FixtureFile("shell/nested_variable_positions.sh")


def test_each_finding_is_at_its_word_in_the_variable() -> None:
    found = [(code, line, column, text) for code, line, column, text, _ in SCRIPT.findings()]
    assert found == [
        ("FLG005", 7, 70, "two"),  # `bash -c "$SERVE"`, a string with `$MODEL` in it
        ("FLG006", 12, 23, "flashinfers"),  # `eval "$EVAL_CMD"`, a string over three lines
        ("FLG005", 16, 20, "eighty"),  # `BASE="$BASE --port eighty"`, `sh -c "${BASE}"`
    ]


def test_the_value_is_still_what_bash_expands() -> None:
    from speclint.frontends import extract_file

    launches = extract_file(str(SCRIPT.path), SCRIPT.text).launches
    assert [launch.args[1].text for launch in launches] == ["meta-llama/Llama-3.1-8B-Instruct", "m", "m"]
    assert SCRIPT.at(launches[0].args[1].span) == (7, 53, "$MODEL")  # a value's word: at its expansion
