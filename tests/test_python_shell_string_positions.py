"""Shell code held in a Python variable and run by a shell (`subprocess.Popen(cmd,
shell=True)`, `os.system(cmd)`, SGLang's `launch_server_cmd(cmd)`): each word read where it is
written in the string (a `\"\"\"...\"\"\"` command, an f-string, implicit concatenation, `%`,
`.format()`, `+`), not at the name handed to the call (`Evaluator.written`); a `.split(" ")`
that splits as `.split()` does is read as it."""

from __future__ import annotations

from fixture_file import FixtureFile

FILE = FixtureFile("python/shell_string_positions.py")


def test_each_finding_is_at_its_token_in_the_string() -> None:
    found = [(code, line, column, text) for code, line, column, text, _ in FILE.findings()]
    assert found == [
        ("FLG005", 14, 15, "two"),  # the module's """...""" command, run in start_default()
        ("FLG006", 15, 25, "flashinfers"),
        ("SLM004", 24, 60, "{model_path}"),  # the f-string's unknown part, where it is written
        ("FLG005", 24, 83, "two"),
        ("FLG005", 31, 35, "high"),  # implicit concatenation and `+`, through os.system
        ("FLG005", 36, 67, "eighty"),  # `"..." % MODEL`
        ("FLG005", 41, 70, "two"),  # `"...".format(MODEL)` through launch_server_cmd
        ("FLG005", 46, 82, "many"),  # `cmd.split(" ")`, one blank between words: as `.split()`
    ]


def test_split_on_one_blank_with_a_double_blank_is_not_read_as_words() -> None:
    from speclint.engine import lint_text

    text = (
        "import subprocess\n"
        'cmd = "python3 -m sglang.launch_server  --model-path m --tp-size x"\n'
        'subprocess.Popen(cmd.split(" "))\n'
    )
    found = [(f.code, f.span.line, f.span.column) for f in lint_text(text, "x.py").findings]
    assert found == [("SLM005", 2, 19)]  # an empty word in the argv: not guessed, said unread


def test_the_message_names_the_value_and_the_flag() -> None:
    messages = {(line, column): message for _, line, column, _, message in FILE.findings()}
    assert messages[14, 15] == (
        "`two` is not a valid value for `--tp-size`: argparse stops the launch with "
        "'argument --tp-size: invalid int value: 'two''"
    )
    assert messages[24, 60].startswith(
        "launch only partly read: speclint cannot know the value of `--model-path` (parameter "
        "`model_path` of start()"
    )
