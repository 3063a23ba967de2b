"""An argv built by a method of a class of the file and run through an instance made at
once (`subprocess.run(DockerServer(path, port).command())`): the method's own, or one it
inherits from a class of the file, is read as the file's other helpers are."""

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
