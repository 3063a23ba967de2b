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


def test_what_the_constructor_takes_is_said_to_be_unknown():
    found = _by_code()
    assert [(line, column) for line, column, _, _ in found["SLM004"]] == [(22, 23), (22, 23)]
    messages = [message for _, _, _, message in found["SLM004"]]
    assert all("`--port`" in message for message in messages)
    assert "`self._port` is set when DockerServer(...) is constructed" in messages[0]
    assert "`self._port` is set when EagleServer(...) is constructed" in messages[1]


VARIABLE = FixtureFile("python/instance_variable_argv.py")


def test_a_method_called_through_the_name_the_instance_was_assigned_to_is_read():
    found: dict[str, list[tuple[int, int, str, str]]] = {}
    for code, line, column, text, message in VARIABLE.findings():
        found.setdefault(code, []).append((line, column, text, message))
    ((line, column, text, message),) = found["FLG001"]
    assert (line, column, text[:20]) == (18, 14, "--mem-fraction-statc")
    assert "not an SGLang 0.5.23 flag" in message and "did you mean `--mem-fraction-static`" in message
    assert found["SLM004"][0][:2] == (17, 21)
    assert "`self.tp` is set when Launcher(...) is constructed" in found["SLM004"][0][3]


def test_a_value_the_constructor_may_set_is_not_read_as_the_class_body_value():
    found = [f for f in VARIABLE.findings() if f[0] == "SLM004"]
    code, line, column, text, message = found[1]
    assert (line, column, text) == (41, 101, "str(self.port)")
    assert "`--port` (`self.port` is set when Pinned(...) is constructed)" in message  # not 30000
    code, line, column, text, message = found[2]
    assert (line, column, text) == (56, 99, "str(self.tp)")
    assert "`--tp` (`self.tp` may be set by the constructor of the decorated class Sized)" in message


def test_a_name_assigned_something_else_after_the_instance_is_not_read_as_it():
    from speclint.engine import lint_text

    result = lint_text(VARIABLE.text, str(VARIABLE.path))
    assert len(result.contexts) == 3  # launcher, pinned, Sized(...); not `spare.argv()`
    assert {f.span.line for f in result.findings} == {17, 18, 41, 56}


SELF = FixtureFile("python/self_instance_argv.py")


def test_a_method_called_through_an_attribute_of_self_holding_the_instance_is_read():
    found = SELF.findings()
    assert [f[:4] for f in found] == [
        ("SLM004", 17, 29, "self.model"),
        ("FLG001", 19, 14, "--schedule-conservativness"),
    ]
    assert (
        "not an SGLang 0.5.23 flag" in found[1][4]
        and "did you mean `--schedule-conservativeness`" in found[1][4]
    )
    assert "`self.model` is set when SGLangServer(...) is constructed" in found[0][4]
    assert "`self.tp` is set when SGLangServer(...) is constructed" in found[0][4]
