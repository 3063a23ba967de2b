"""An argv flattened from pieces built over a dict the file writes out (fixtures/python/forms26):
`sum([[flag, str(value)] for flag, value in D.items()], [])`,
`itertools.chain.from_iterable(...)`, `chain(a, b)` / `chain(*pieces)`. Read as the list Python
makes where every piece is known; over a dict the program is given, still partly read."""

from __future__ import annotations

import pytest
from fixture_file import FixtureFile

from speclint.engine import lint_text


def test_each_flattened_argv_is_read_or_said_partly_read() -> None:
    found = [f[:4] for f in FixtureFile("python/forms26/p01_flattened_flag_dicts.py").findings()]
    assert found == [
        ("FLG005", 8, 76, "0.85x"),  # in SERVER, where the dict writes it (before: at `value`)
        ("FLG005", 9, 37, "lots"),  # in EXTRA
        ("FLG005", 23, 61, "3o000"),
        ("SLM004", 29, 95, "argv"),  # `settings` is the caller's: not known
    ]


HEAD = 'import itertools\nimport subprocess\nD = {"--model-path": "m", "--port": "3o000"}\n'
RUN = 'subprocess.Popen(["python3", "-m", "sglang.launch_server", *argv])\n'


@pytest.mark.parametrize(
    "argv",
    [
        "sum([[k, v] for k, v in D.items()], [])",
        "list(itertools.chain.from_iterable([k, v] for k, v in D.items()))",
        "list(itertools.chain(*[(k, v) for k, v in D.items()]))",
        'itertools.chain(["--model-path", "m"], ("--port", "3o000"))',
    ],
)
def test_the_flattened_words_are_checked(argv: str) -> None:
    codes = [f.code for f in lint_text(f"{HEAD}argv = {argv}\n{RUN}", "serve.py").findings]
    assert codes == ["FLG005"], argv


@pytest.mark.parametrize(
    "argv",
    [
        "sum([[k, v] for k, v in D.items()], ['--x'])",  # a start other than `[]`: not read
        "sum([[k, v] for k, v in D.items() if v], [])",  # an `if` clause: not followed
        "list(itertools.chain.from_iterable(pairs()))",
    ],
)
def test_what_is_not_followed_stays_partly_read(argv: str) -> None:
    codes = [f.code for f in lint_text(f"{HEAD}argv = {argv}\n{RUN}", "serve.py").findings]
    assert codes == ["SLM004"], argv
