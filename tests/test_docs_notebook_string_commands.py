"""A notebook that keeps a launch command in a Python string and runs it with IPython's
`!{cmd}` (the variable's value put into the shell line): the command runs but speclint does
not read it. Before, a notebook with another launch read was "All checks passed"; now the
string is said not read, at its launcher. A string a launch was read from
(`subprocess.Popen(cmd.split())`) is not."""

from __future__ import annotations

from fixture_file import FixtureFile

NOTEBOOK = FixtureFile("notebooks/string_command_bang.ipynb")


def test_a_string_run_through_a_bang_variable_is_said_not_read() -> None:
    assert NOTEBOOK.findings() == [
        (
            "SLM005",
            16,
            20,
            "python3 -m sglang.launch_server",
            "speclint did not read the command that runs `python3 -m sglang.launch_server` in this "
            "Python string (it did not see the string run: `!{variable}`, a helper it does not "
            "follow), so nothing in this launch was checked",
        )
    ]
