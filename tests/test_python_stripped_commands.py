"""Command strings trimmed before they run: `s.strip()` (`lstrip`, `rstrip`) of a triple-quoted string and
`textwrap.dedent(...)` are read as Python computes them, each character left at its place in
the file (before, such a launch was not found: SLM005)."""

from __future__ import annotations

import textwrap

from fixture_file import FixtureFile

from speclint.frontends.python.whitespace import dedented, stripped
from speclint.frontends.shell.pieces import Piece, known_text

FILE = FixtureFile("python/stripped_commands.py")


def test_trimmed_commands_are_launches_with_exact_positions() -> None:
    findings = FILE.findings()
    assert [f[:4] for f in findings] == [
        ("FLG001", 12, 24, "--mem-fraction-statics"),
        ("SLM004", 22, 28, "{model}"),
        ("FLG001", 23, 15, "--tp-sise"),
        ("FLG005", 30, 80, "high"),
    ]
    assert "did you mean `--tp-size`?" in findings[2][4]
    assert "parameter `model` of serve()" in findings[1][4]


def _exact(text: str, begin: int = 100) -> list[Piece]:
    return [Piece(text, begin, begin + len(text), exact=True)]


def test_the_text_left_is_pythons_and_each_character_stays_where_it_is_written() -> None:
    for text in ("\n    a b \\\n      c\n    ", "  x\n\t\n  y\n", "\ta\n  b\n", "no margin\n  x"):
        assert known_text(dedented(_exact(text))) == textwrap.dedent(text), repr(text)
        for method in ("strip", "lstrip", "rstrip"):
            assert known_text(stripped(_exact(text), method)) == getattr(text, method)(), (text, method)
    pieces = dedented(_exact("\n    ab\n      cd\n"))
    assert [(p.text, p.begin, p.end) for p in pieces] == [
        ("\n", 100, 101),
        ("ab\n", 105, 108),
        ("  cd\n", 112, 117),
    ]


def test_an_unknown_run_is_kept_and_stops_a_strip() -> None:
    unknown = Piece(None, 50, 57, reason="a field")
    pieces = stripped([unknown, *_exact("  --tp 2  ", 57)], "strip")
    assert pieces[0] is unknown
    assert known_text(pieces[1:]) == "  --tp 2"
