"""`environ_calls.called_names`: the names a function's text calls, read back from each `(`,
are the ones the pattern it replaced finds, in the same order (which functions a call is
followed into for what they set in `os.environ`)."""

from __future__ import annotations

import random
import re

import pytest

from speclint.frontends.python.environ_calls import called_names

_PATTERN = re.compile(r"\b(\w+)\s*\(")


@pytest.mark.parametrize(
    "text",
    [
        "def main():\n    cmd = [sys.executable, str(PORT)]\n    subprocess.run(cmd)\n",
        "setup_env ()\nf((g))\n  h\t\n(\n",
        "a b(c)(d) e_1 (f2(",
        "x = '(' + y('z')",
        "(((",
        "",
        "é_ü\u00a0(  ٣(\u3000k\x1c(",
    ],
)
def test_the_names_the_pattern_finds(text: str) -> None:
    assert called_names(text) == _PATTERN.findall(text)


def test_random_text_reads_as_the_pattern_does() -> None:
    rng = random.Random(13)
    alphabet = "ab_1 \t\n(()é٣\u00a0\u2028x\x1c\u3000"
    for _ in range(20_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 14)))
        assert called_names(text) == _PATTERN.findall(text), repr(text)


def test_a_function_whose_helper_sets_the_environment_is_followed() -> None:
    """What a user sees: `main()` names no `os.environ`, but the `setup ()` it calls sets
    one; the launch after `main()` runs with it."""
    from speclint.frontends.python.extract import extract_python

    text = (
        "import os, subprocess, sys\n"
        "def setup():\n"
        "    os.environ['SGLANG_X'] = '1'\n"
        "def main():\n"
        "    setup ()\n"
        "main()\n"
        "subprocess.run([sys.executable, '-m', 'sglang.launch_server', '--tp', '2'])\n"
    )
    (launch,) = extract_python(text, "x.py").launches
    assert launch.env["SGLANG_X"].text == "1"
