"""Positional parameters in the forms launch scripts write them: `${@: -1}` and `${@:(-1)}`
(the last argument: a negative offset counts back from the end), `${@: -2:1}`, `${10}`
(the tenth) beside `$10` (bash reads it as `${1}0`), and `${#}`; read with the words of a
function call, or of `set --`, and unknown where those are."""

from __future__ import annotations

from findings_at import findings_at

LAUNCH = "python3 -m sglang.launch_server --model-path /m"


def findings(text: str) -> list[tuple]:
    """(code, line, column, the text it points at, message) of each finding."""
    return findings_at(text, "serve.sh", message=True)


def test_the_last_argument_is_the_calls_last_word():
    text = f'serve() {{\n  {LAUNCH} --port "${{@: -1}}"\n}}\nserve a b 3000x\n'
    ((code, line, column, _, message),) = findings(text)
    assert (code, line, column) == ("FLG005", 4, 11)
    assert message.startswith("`3000x` is not a valid value for `--port`")


def test_a_parenthesised_offset_and_a_length_count_from_the_end():
    text = f"serve() {{\n  {LAUNCH} --port ${{@:(-2):1}} --tp-size ${{@: -1}}\n}}\nserve 3000x 2y\n"
    assert [(c, line, col) for c, line, col, _, _ in findings(text)] == [("FLG005", 4, 7), ("FLG005", 4, 13)]


def test_an_offset_before_the_first_argument_gives_nothing():
    text = f'serve() {{\n  {LAUNCH} --port "${{@: -3}}"\n}}\nserve 1\n'
    ((code, line, column, _, message),) = findings(text)
    assert (code, line, column) == ("FLG004", 2, 51)
    assert message.startswith("`--port` needs a value and gets none")


def test_the_tenth_argument_is_braced_and_dollar_ten_is_the_first_then_zero():
    args = "a 2 3 4 5 6 7 8 9 3000x"
    text = f"serve() {{\n  {LAUNCH} --port ${{10}} --tp-size $10\n}}\nserve {args}\n"
    got = findings(text)
    assert [(c, line, col) for c, line, col, _, _ in got] == [("FLG005", 2, 74), ("FLG005", 4, 25)]
    assert got[0][4].startswith("`a0` is not a valid value for `--tp-size`")
    assert got[1][4].startswith("`3000x` is not a valid value for `--port`")


def test_braced_count_is_the_number_of_words():
    text = f"serve() {{\n  {LAUNCH} --tp-size ${{#}}x\n}}\nserve a b\n"
    ((code, line, column, _, message),) = findings(text)
    assert (code, line, column) == ("FLG005", 2, 61)
    assert message.startswith("`2x` is not a valid value for `--tp-size`")


def test_set_words_of_the_script_are_read_and_an_unknown_word_stays_unknown():
    text = f'set -- /m 3000x\n{LAUNCH} --port "${{@: -1}}"\nset -- $ARGS\n{LAUNCH} --port "${{@: -1}}"\n'
    got = findings(text)
    assert [(c, line, col) for c, line, col, _, _ in got] == [("FLG005", 1, 11), ("SLM004", 4, 56)]
    assert "$ARGS is not assigned in this file" in got[1][4]
