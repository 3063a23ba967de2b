"""`self.X` a class's `__init__` sets, read by the method that builds and starts the argv:
a literal the constructor assigns is read; a parameter is read per construction in the file
(its argument, or its default where the call leaves it out: before, always unknown), and
stays unknown, never a false error, for a construction speclint cannot see."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text

FILE = FixtureFile("python/constructor_attributes.py")


def _findings():
    result = lint_text(FILE.text, str(FILE.path))
    return [
        (f.code, *FILE.at(f.span), f.message, [(n.span.line, n.message) for n in f.notes])
        for f in result.findings
    ]


def test_the_findings_a_user_sees() -> None:
    assert [f[:4] for f in _findings()] == [
        ("SLM004", 22, 29, "self.model_path"),
        ("FLG005", 24, 38, "self.mem_fraction"),
        ("FLG006", 25, 36, "self.backend"),
        ("SLM004", 35, 109, "str(self.tp)"),
    ]


def test_a_parameters_default_is_the_value_for_a_construction_that_leaves_it_out() -> None:
    (found,) = [f for f in _findings() if f[0] == "FLG005"]
    assert "`0.9O` is not a valid value for `--mem-fraction-static`" in found[4]
    assert "invalid float value: '0.9O'" in found[4]
    assert found[5] == [
        (12, "value assigned here"),
        (42, "when ServerProcess(...) is constructed at line 42"),
    ]


def test_a_literal_the_constructor_assigns_is_read_for_every_construction() -> None:
    (found,) = [f for f in _findings() if f[0] == "FLG006"]
    assert "`flashinfers` is not a valid value for `--attention-backend`" in found[4]
    assert found[5] == [(16, "value assigned here")]  # every reading: no condition


def test_what_no_construction_in_the_file_gives_is_said_unknown() -> None:
    own, unconstructed = [f for f in _findings() if f[0] == "SLM004"]
    assert "the value of `--port` (parameter `port` of __init__())" in own[4]
    notes = [message for _, message in own[5]]
    assert "when ServerProcess(...) is constructed elsewhere (its arguments unknown)" in notes
    assert any("`cli.port` is only known when the program runs" in message for message in notes)
    assert "the value of `--tp-size` (parameter `tp` of __init__())" in unconstructed[4]


def test_a_construction_whose_arguments_are_valid_adds_nothing() -> None:
    text = FILE.text.replace('mem_fraction="0.9O"', 'mem_fraction="0.9"')
    codes = [f.code for f in lint_text(text, str(FILE.path)).findings]
    assert codes == ["SLM004", "FLG006", "SLM004"]
