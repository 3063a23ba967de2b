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
    ((line, column, text, message),) = found["SLM004"]
    assert (line, column) == (22, 23)
    assert "`--port`" in message and "`self._port` is only known when the program runs" in message


VARIABLE = FixtureFile("python/instance_variable_argv.py")


def test_a_method_called_through_the_name_the_instance_was_assigned_to_is_read():
    found = {code: (line, column, text, message) for code, line, column, text, message in VARIABLE.findings()}
    line, column, text, message = found["FLG001"]
    assert (line, column, text[:20]) == (18, 14, "--mem-fraction-statc")
    assert "not an SGLang 0.5.23 flag" in message and "did you mean `--mem-fraction-static`" in message
    assert (
        found["SLM004"][:2] == (17, 21)
        and "`self.tp` is only known when the program runs" in found["SLM004"][3]
    )


def test_a_name_assigned_something_else_after_the_instance_is_not_read_as_it():
    from speclint.engine import lint_text

    result = lint_text(VARIABLE.text, str(VARIABLE.path))
    assert len(result.contexts) == 1  # `launcher.argv()`; not `spare.argv()` (spare reassigned)
    assert {f.span.line for f in result.findings} == {17, 18}  # all in Launcher.argv()
