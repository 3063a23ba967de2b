"""The words of plain command lines, `"${ARR[@]}"` and plain assignments, which the shell
front-end makes without its general expansion machinery (issue 19): each word keeps its text,
where it is written, where an array was expanded, and why it is unknown, as before."""

from __future__ import annotations

import dataclasses

import pytest

from speclint.core.spans import Span
from speclint.core.words import Word
from speclint.engine import lint_text
from speclint.frontends import extract_file
from speclint.frontends.shell.said_defaults import value_said
from speclint.frontends.shell.variables import VarValue

LAUNCH = "python3 -m sglang.launch_server"


def _args(text: str) -> list[tuple[str | None, tuple[int, int, int, int], object, object, bool]]:
    (launch,) = extract_file("serve.sh", text).launches
    return [
        (
            w.text,
            (w.span.line, w.span.column, w.span.end_line, w.span.end_column),
            w.expanded_at and (w.expanded_at.line, w.expanded_at.column, w.expanded_at.end_column),
            w.dynamic_reason,
            w.splat,
        )
        for w in launch.args
    ]


def test_array_elements_keep_where_they_are_written_and_where_the_array_is_expanded():
    text = f'ARGS=(--model-path /m "--tp" 2)\n{LAUNCH} "${{ARGS[@]}}" --port 1\n'
    expanded = (2, 33, 45)
    assert _args(text) == [
        ("--model-path", (1, 7, 1, 19), expanded, None, False),
        ("/m", (1, 20, 1, 22), expanded, None, False),
        ("--tp", (1, 23, 1, 29), expanded, None, False),
        ("2", (1, 30, 1, 31), expanded, None, False),
        ("--port", (2, 46, 2, 52), None, None, False),
        ("1", (2, 53, 2, 54), None, None, False),
    ]


def test_an_unknown_array_element_stays_one_unknown_word_at_its_element():
    text = f'ARGS=(--model-path "$M" $(cat flags))\n{LAUNCH} "${{ARGS[@]}}"\n'
    expanded = (2, 33, 45)
    assert _args(text) == [
        ("--model-path", (1, 7, 1, 19), expanded, None, False),
        (
            None,
            (1, 20, 1, 24),
            expanded,
            "$M is not assigned in this file (comes from the environment)",
            False,
        ),
        (None, (1, 25, 1, 37), expanded, "output of command substitution `$(cat flags)`", True),
    ]


def test_an_empty_array_gives_no_word_and_a_scalar_one():
    text = f'EMPTY=()\nONE=--trust-remote-code\n{LAUNCH} --model-path /m "${{EMPTY[@]}}" "${{ONE[@]}}"\n'
    assert _args(text)[2:] == [("--trust-remote-code", (2, 5, 2, 24), (3, 63, 74), None, False)]


def test_a_non_ascii_script_points_at_characters():
    text = f'# modèle\nARGS=(--model-path /modèles/x)\n{LAUNCH} "${{ARGS[@]}}" --tp 2\n'
    assert _args(text) == [
        ("--model-path", (2, 7, 2, 19), (3, 33, 45), None, False),
        ("/modèles/x", (2, 20, 2, 30), (3, 33, 45), None, False),
        ("--tp", (3, 46, 3, 50), None, None, False),
        ("2", (3, 51, 3, 52), None, None, False),
    ]


@pytest.mark.parametrize("value", ["/m", "'/m'", "/m\\ x", "1234"])
def test_a_plain_assignment_is_the_variable_s_text(value):
    text = f'M={value}\n{LAUNCH} --model-path "$M" --tp-szie 2\n'
    (launch,) = extract_file("serve.sh", text).launches
    word = launch.args[1]
    assert word.text == {"'/m'": "/m", "/m\\ x": "/m x"}.get(value, value)
    assert (word.origin.line, word.origin.column, word.origin.end_column) == (1, 3, 3 + len(value))
    (finding,) = lint_text(text, "serve.sh").findings
    assert (finding.code, finding.span.line) == ("FLG001", 2)


def test_a_marked_value_is_replace_with_every_field_kept():
    word = Word("x", Span(1, 1, 1, 2))
    value = VarValue(
        "t",
        (word,),
        "why",
        Span(1, 2, 1, 3),
        False,
        False,
        (),
        False,
        (("a", "", None),),
        word,
        None,
        "made",
        (),
    )
    assert value.marked(True, True) == dataclasses.replace(value, exported=True, assumed=True)
    assert value.marked(False, True) == dataclasses.replace(value, assumed=True)
    assert len(dataclasses.fields(VarValue)) == 14  # a new field: pass it on in `marked`
    said = value_said(value, "the default of ${T:-t}")
    assert said == dataclasses.replace(value, made_by="the default of ${T:-t}")


def test_a_word_said_made_by_is_replace_with_every_field_kept():
    word = Word(
        "x",
        Span(1, 1, 1, 2),
        Span(2, 1, 2, 2),
        "why",
        True,
        Span(3, 1, 3, 2),
        None,
        "--tp=",
        None,
        ((Span(1, 1, 1, 2), "\u2013"),),
    )
    assert word.said_made_by("made") == dataclasses.replace(word, made_by="made")
    assert len(dataclasses.fields(Word)) == 10  # a new field: pass it on in `said_made_by`
