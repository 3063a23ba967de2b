"""An argv built by a method of a class of the file and run through an instance made at
once (`subprocess.run(DockerServer(path, port).command())`) or through a name assigned one
(`launcher = Launcher(2)`, `Popen(launcher.argv())`): the method's own, or one it inherits
from a class of the file, is read as the file's other helpers are."""

from __future__ import annotations

from fixture_file import FixtureFile

FILE = FixtureFile("python/instance_method_argv.py")


def _by_code() -> dict[str, list[tuple[int, int, str, str]]]:
    found: dict[str, list[tuple[int, int, str, str]]] = {}
    for code, line, column, text, message in FILE.findings():
        found.setdefault(code, []).append((line, column, text, message))
    return found


def test_the_method_argv_is_a_launch_checked_against_the_image_it_names():
    found = _by_code()
    assert "SLM005" not in found  # was: "names sglang.launch_server but found no launch"
    ((line, column, text, message),) = found["FLG001"]
    assert (line, column, text[:21]) == (23, 14, "--tensor-paralel-size")
    assert "SGLang 0.5.4" in message and "did you mean `--tensor-parallel-size`" in message


def test_an_inherited_class_method_of_a_subclass_instance_is_read():
    found = _by_code()
    ((line, column, text, message),) = found["FLG005"]
    assert (line, column, text) == (37, 22, "one")
    assert "`one` is not a valid value for `--tp-size`" in message and "invalid int value" in message


def _port_values(fixture: FixtureFile) -> list[str | None]:
    from speclint.frontends import extract_file

    values = []
    for launch in extract_file(str(fixture.path), fixture.text).launches:
        words = [word.text for word in launch.args]
        values.append(words[words.index("--port") + 1] if "--port" in words else None)
    return values


def test_what_the_constructor_takes_is_read_from_the_construction():
    """`DockerServer("/data/llama", 30000)`: its `__init__` (EagleServer's inherited one too)
    walked with the call's arguments (before: `self._port` unknown, SLM004)."""
    assert "SLM004" not in _by_code()
    assert _port_values(FILE) == ["30000", None, "30002"]


VARIABLE = FixtureFile("python/instance_variable_argv.py")


def test_a_method_called_through_the_name_the_instance_was_assigned_to_is_read():
    found: dict[str, list[tuple[int, int, str, str]]] = {}
    for code, line, column, text, message in VARIABLE.findings():
        found.setdefault(code, []).append((line, column, text, message))
    ((line, column, text, message),) = found["FLG001"]
    assert (line, column, text[:20]) == (18, 14, "--mem-fraction-statc")
    assert "not an SGLang 0.5.23 flag" in message and "did you mean `--mem-fraction-static`" in message
    from speclint.frontends import extract_file

    launch = extract_file(str(VARIABLE.path), VARIABLE.text).launches[0]
    words = [word.text for word in launch.args]
    assert words[words.index("--tp") + 1] == "2"  # launcher = Launcher(2)


def test_a_value_the_constructor_may_set_is_not_read_as_the_class_body_value():
    assert _port_values(VARIABLE)[1] == "31000"  # Pinned(31000): not the class body's 30000
    found = [f for f in VARIABLE.findings() if f[0] == "SLM004"]
    code, line, column, text, message = found[0]
    assert (line, column, text) == (56, 99, "str(self.tp)")
    assert "`--tp` (`self.tp` may be set by the constructor of the decorated class Sized)" in message


def test_a_name_assigned_something_else_after_the_instance_is_not_read_as_it():
    from speclint.engine import lint_text

    result = lint_text(VARIABLE.text, str(VARIABLE.path))
    assert len(result.contexts) == 3  # launcher, pinned, Sized(...); not `spare.argv()`
    assert {f.span.line for f in result.findings} == {17, 18, 56}  # (17: FLG003, `--tp` abbreviated)


SELF = FixtureFile("python/self_instance_argv.py")


def test_a_method_called_through_an_attribute_of_self_holding_the_instance_is_read():
    found = SELF.findings()
    assert [f[:4] for f in found] == [("FLG001", 19, 14, "--schedule-conservativness")]
    assert (
        "not an SGLang 0.5.23 flag" in found[0][4]
        and "did you mean `--schedule-conservativeness`" in found[0][4]
    )
    from speclint.frontends import extract_file

    (launch,) = extract_file(str(SELF.path), SELF.text).launches
    words = [word.text for word in launch.args]  # SGLangServer("Qwen/Qwen3-8B", tp=2) in setUp
    assert words[words.index("--model-path") + 1] == "Qwen/Qwen3-8B"
    assert words[words.index("--tp-size") + 1] == "2"
