"""The Python front-end reads a string literal's value itself when nothing in it is decoded
(libcst's `evaluated_value` compiles every literal); it must read what Python reads."""

from __future__ import annotations

import libcst as cst
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from speclint.frontends.python.evaluator import string_value
from speclint.frontends.python.extract import extract_python

BODIES = [
    "",
    "plain --tp-size 2",
    "é✓ 日本 \u2028 \u00a0 \ufeff \x0c \x1a \x7f \t",
    "a\\nb",
    "a\\\nb",
    "\\x41\\u00e9\\N{BULLET}\\101",
    "a\rb",
    "a\r\nb",
    "a\nb",
    '"inner" quotes',
    "{not} {{a}} field",
]
# Python warns about `\q` when it reads such a literal; the warning is not what is tested.
pytestmark = pytest.mark.filterwarnings("ignore:invalid escape sequence:DeprecationWarning")
PREFIXES = ["", "r", "u", "R", "U", "b", "rb", "Br"]
QUOTES = ["'", '"', "'''", '"""']


def _literal(prefix: str, quote: str, body: str) -> cst.SimpleString | None:
    if len(quote) == 1 and ("\n" in body or "\r" in body or quote in body):
        return None  # not one literal
    if "b" in prefix.lower() and not body.isascii():
        return None  # bytes literals hold ASCII only
    return cst.SimpleString(prefix + quote + body + quote)


LITERALS = [
    (node, body)
    for prefix in PREFIXES
    for quote in QUOTES
    for body in BODIES
    if (node := _literal(prefix, quote, body)) is not None
]


@pytest.mark.parametrize(("node", "body"), LITERALS, ids=lambda value: repr(getattr(value, "value", value)))
def test_a_literals_value_is_what_python_reads(node, body):
    assert string_value(node, body) == node.evaluated_value


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.text(st.characters(blacklist_categories=["Cs"]), max_size=12), st.sampled_from(PREFIXES[:5]))
def test_any_text_body_reads_as_python_reads_it(body, prefix):
    node = _literal(prefix, '"""', body)
    if node is None or body.endswith(('"', "\\")) or "\\N" in body:
        return
    try:
        expected = node.evaluated_value
    except (SyntaxError, ValueError):
        with pytest.raises((SyntaxError, ValueError)):
            string_value(node, body)
        return
    assert string_value(node, body) == expected


def test_a_nul_in_a_literal_still_leaves_the_value_unknown():
    text = "import subprocess\nsubprocess.run(['python', '-m', 'sglang.launch_server', '--tp', 'a\0b'])\n"
    launch = extract_python(text, "x.py").launches[0]
    assert [w.text for w in launch.args] == ["--tp", None]
