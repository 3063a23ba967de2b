"""depth: a file with too few operators, strings, keywords and brackets to pass the nesting
bounds skips the scan; the answer must be the scan's own, near the bounds and far from them."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from speclint.frontends.python import depth
from speclint.frontends.python.depth import MAX_BRACKETS, MAX_DEPTH, nesting_problem

FIXTURES = sorted((Path(__file__).resolve().parent.parent / "fixtures" / "python").glob("*.py"))
TOKENS = [
    "(", ")", "[", "]", "{", "}", ",", "\n", ";", " ", "a", "x.y", "-", "**", "+", "not ", " if ",
    " else ", " and ", "lambda:", "'s'", '"t"', "f'{", "}'", 'f"{x}"', "f'{a+b!r:>{w}}'", "#", "\\\n",
    "'''", "iffy", "_or_",
]  # fmt: skip


def test_most_fixtures_are_answered_without_a_scan():
    """Else the shortcut never runs on a real file (a fixture with many strings and calls,
    such as a Modal app's image chain, can pass the estimate: the scan answers it)."""
    answered = [path.name for path in FIXTURES if depth._shallow(path.read_text(), 0)]
    assert len(answered) >= 0.9 * len(FIXTURES)


@pytest.mark.parametrize(
    "text",
    [
        "x = " + "(" * (MAX_BRACKETS + 1) + ")" * (MAX_BRACKETS + 1) + "\n",
        "x = " + "(" * MAX_BRACKETS + ")" * MAX_BRACKETS + "\n",
        "x = " + " + ".join("a" * (MAX_DEPTH + 1)) + "\n",
        "x = " + " + ".join("a" * (MAX_DEPTH // 2)) + "\n",
        "x = " + "-" * (MAX_DEPTH - 5) + "y\n",
        "x = " + "-" * (MAX_DEPTH + 1) + "y\n",
        "x = f'" + "{a + " * 60 + "1" + "}" * 60 + "'\n",
        "x = f'" + "{a + " * 150 + "1" + "}" * 150 + "'\n",
        "x = " + " if y else ".join("a" * (MAX_DEPTH // 2 + 2)) + "\n",
    ],
)
def test_near_the_bounds_the_answer_is_the_scans(text):
    assert nesting_problem(text) == depth._scan(text, 0)


@settings(max_examples=400, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(TOKENS), max_size=400), st.integers(0, MAX_DEPTH))
def test_any_text_gets_the_scans_answer(tokens, base):
    text = "".join(tokens)
    assert nesting_problem(text, base) == depth._scan(text, base)
