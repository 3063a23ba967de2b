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


def test_an_instance_made_differently_on_two_paths_is_still_followed_its_values_unknown() -> None:
    """`server = Server(1)` / `server = Server("x")` in an `if`'s arms: the method is read,
    the port unknown (SLM004); a name assigned one construction has that one's values."""
    text = (
        "import subprocess\nimport sys\n\n\nclass Server:\n"
        "    def __init__(self, port=30000):\n        self.port = port\n\n"
        "    def command(self):\n"
        '        return ["python3", "-m", "sglang.launch_server", "--model-path", "m", "--port", str(self.port)]\n'
        '\n\nif sys.argv[1]:\n    server = Server(1)\nelse:\n    server = Server("x")\n'
        "subprocess.Popen(server.command())\n"
        'same = Server("y")\nsubprocess.Popen(same.command())\n'
    )
    found = [(f.code, f.span.line, f.message[:40]) for f in lint_text(text, "two_paths.py").findings]
    assert found == [
        ("SLM004", 10, "launch only partly read: speclint cannot"),
        ("FLG005", 10, "`y` is not a valid value for `--port`: a"),
    ]
