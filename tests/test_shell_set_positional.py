"""`set -- $cfg` inside a loop: the positional parameters are the words each loop value splits
into (bash's "The Set Builtin"), so `$1` and `$2` after it are read once per iteration; the
words of a variable never assigned here stay unknown, with the reason."""

from __future__ import annotations

from findings_at import findings_at
from fixture_file import FixtureFile

from speclint.engine import lint_text

LAUNCH = "python3 -m sglang.launch_server --model-path /m"


def findings(text: str) -> list[tuple]:
    """(code, line, column, the text it points at, message) of each finding."""
    return findings_at(text, "serve.sh", message=True)


def test_each_loop_word_split_by_set_gives_dollar_one_and_two():
    fixture = FixtureFile("shell/loop_set_positional.sh")
    got = fixture.findings()
    assert [g[:4] for g in got] == [("FLG005", 5, 10, "$cfg"), ("SLM004", 11, 63, "$1")]
    assert got[0][4].startswith("`4096x` is not a valid value for `--chunked-prefill-size`")
    assert "$BENCH_ARGS is not assigned in this file" in got[1][4]
    (finding,) = [f for f in lint_text(fixture.text, str(fixture.path)).findings if f.code == "FLG005"]
    assert any("when $cfg is 2 4096x (the loop at line 4)" in note.message for note in finding.notes)


def test_shift_after_set_drops_the_first_word_of_each_iteration():
    text = f'for cfg in "80x 1" "90y 2z"; do\n  set -- $cfg\n  shift\n  {LAUNCH} --tp-size $1\ndone\n'
    got = findings(text)
    assert [(c, line, col) for c, line, col, _, _ in got] == [("FLG005", 2, 10)]
    assert got[0][4].startswith("`2z` is not a valid value for `--tp-size`")


def test_a_function_called_in_the_loop_reads_its_own_words_and_a_later_set_replaces_them():
    text = (
        f"serve() {{\n  {LAUNCH} --port $1\n}}\n"
        f'for cfg in "8x" "9y"; do\n  set -- $cfg\n  serve 3000\n  set -- 4z\n  {LAUNCH} --tp-size $1\ndone\n'
    )
    got = findings(text)
    assert [(c, line, col) for c, line, col, _, _ in got] == [("FLG005", 7, 10)]
    assert got[0][4].startswith("`4z` is not a valid value for `--tp-size`")


def test_a_shift_by_an_unknown_count_leaves_the_words_unknown():
    text = f'for cfg in "1 2" "3 4"; do\n  set -- $cfg\n  shift $N\n  {LAUNCH} --tp-size $1\ndone\n'
    ((code, line, column, _, message),) = findings(text)
    assert (code, line, column) == ("SLM004", 4, 61)
    assert "after the `shift` at line 3" in message
