"""Words split from an unquoted `$VAR` (or `eval $VAR`) whose value is a string written as it
stands (`CMD="python -m sglang.launch_server --tp 2 ..."`, `'...'`) point at their token inside
the string, as an array's elements do, with a note where the variable is expanded; a value
that is one word keeps pointing where it is used, its assignment noted."""

from __future__ import annotations

from pathlib import Path

import pytest
from findings_at import findings_at, place

from speclint.engine import lint_text
from speclint.frontends import extract_file

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "shell" / "split_string_positions.sh"
TEXT = FIXTURE.read_text()
LINES = TEXT.splitlines()


def test_findings_point_inside_the_string_the_words_were_split_from() -> None:
    findings = lint_text(TEXT, str(FIXTURE)).findings
    assert [(f.code, *place(LINES, f.span)) for f in findings] == [
        ("FLG001", 3, 78, "--tp-sise"),
        ("FLG005", 6, 29, "high"),
        ("FLG005", 9, 58, "$TP"),
    ]
    notes = [[(n.span.line, n.span.column, n.message) for n in f.notes] for f in findings]
    assert (4, 1, "expanded into the command here") in notes[0]
    assert notes[1] == [(7, 48, "expanded into the command here")]
    assert notes[2] == [(8, 4, "value assigned here")]


def test_each_split_word_and_the_eval_words_keep_their_place() -> None:
    evaluated, direct, options, _ = extract_file(str(FIXTURE), TEXT).launches  # (eval: from the string on)
    for launch in (direct, evaluated):
        spans = {w.text: place(LINES, w.span) for w in launch.args}
        assert spans["--model-path"] == (3, 40, "--model-path")
        assert spans["Qwen/Qwen2.5-7B-Instruct"] == (3, 53, "Qwen/Qwen2.5-7B-Instruct")
    assert place(LINES, direct.args[-1].span) == (4, 15, "30000")
    assert place(LINES, evaluated.args[-1].span) == (5, 20, "30001")
    assert place(LINES, options.args[-1].span) == (6, 41, "30002")
    assert place(LINES, options.args[-1].expanded_at) == (7, 48, "$OPTS")


@pytest.mark.parametrize(
    ("text", "found"),
    [
        pytest.param(
            'M=m\nCMD="python3 -m sglang.launch_server --model-path $M --tp-sise 2"\n$CMD\n',
            [("FLG001", 2, 54, "--tp-sise")],
            id="double-quoted-with-an-expansion",
        ),
        pytest.param(
            'M=m\nCMD="python3 -m sglang.launch_server \\\n  --model-path $M \\\n  --tp-sise 2"\neval $CMD\n',
            [("FLG001", 4, 3, "--tp-sise")],
            id="double-quoted-over-escaped-newlines",
        ),
        pytest.param(
            'TP=two\nM=m\nCMD="python3 -m sglang.launch_server --model-path $M --tp-size $TP"\n$CMD\n',
            [("FLG005", 3, 64, "$TP")],
            id="a-word-of-an-expansion-points-at-the-expansion",
        ),
        pytest.param(
            'CMD="python3 -m sglang.launch_server --model-path $(cat m) --tp-sise 2"\n$CMD\n',
            [("FLG001", 1, 60, "--tp-sise"), ("SLM004", 2, 1, "$CMD")],
            id="an-unknown-part-points-where-it-is-used-the-known-runs-inside-the-string",
        ),
        pytest.param(
            "CMD='python3 -m sglang.launch_server\n  --model-path m --tp-sise 2'\n$CMD\n",
            [("FLG001", 2, 18, "--tp-sise")],
            id="single-quoted-over-lines",
        ),
    ],
)
def test_a_string_with_expansions_or_over_lines_points_inside_it(text: str, found: list[tuple]) -> None:
    """The words of a double-quoted string with an expansion (`$M`) or written over lines
    with `\\<newline>`, or of a single-quoted string over lines, point at their characters
    there; a word of an expansion's value at the expansion; a string with an unknown part
    keeps pointing where it is used."""
    assert findings_at(text, "a.sh") == found
