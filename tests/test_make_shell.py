"""The shell make runs a Makefile's recipes with (`SHELL`, `.SHELLFLAGS`, `.ONESHELL:`), as
GNU make builds the command: bash with strict flags is read as shell; a recipe run by another
program (`SHELL := python3`, `SHELL = /usr/bin/env python3`), by a `.ONESHELL:` SHELL of several
words (make runs it whole as one program's name), or with `.SHELLFLAGS` lacking `-c`, is said
not read at the launcher it names (before: read as shell, errors reported for a launch that
never runs, or a false bash syntax error). `SHELL ?=` leaves make's own /bin/sh."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text

FILE = FixtureFile("make/bash_oneshell/Makefile")


def _findings(text: str) -> list[tuple[str, int, int, str]]:
    return [(f.code, f.span.line, f.span.column, f.message) for f in lint_text(text, "Makefile").findings]


def test_a_oneshell_bash_recipe_with_strict_flags_is_read_as_bash() -> None:
    found = [f for f in FILE.findings() if f[0] != "DRF011"]
    assert [f[:4] for f in found] == [("FLG005", 15, 67, "2x")]
    assert found[0][4].startswith("`2x` is not a valid value for `--tp-size`")


def test_a_python_shell_is_said_not_read_instead_of_a_bash_syntax_error() -> None:
    text = FILE.text.replace("SHELL := /bin/bash", "SHELL := python3")
    ((code, line, column, message),) = _findings(text)
    assert (code, line, column) == ("SLM005", 14, 13)
    assert message == (
        "make runs the recipes with `python3` (`SHELL` set at line 4), which is not a POSIX shell (make "
        "hands it `$(.SHELLFLAGS)` and the recipe text), and speclint reads recipes as shell; the launch "
        "here was not checked"
    )


def test_env_python_without_oneshell_is_not_a_shell_either() -> None:
    text = "SHELL = /usr/bin/env python3\n\nserve:\n\tpython3 -m sglang.launch_server --model-path m --tp-size 2x\n"
    ((code, line, column, message),) = _findings(text)
    assert (code, line, column) == ("SLM005", 4, 13)
    assert "make runs the recipes with `/usr/bin/env python3` (`SHELL` set at line 1)" in message


def test_env_bash_is_bash_per_line_but_one_missing_program_with_oneshell() -> None:
    text = FILE.text.replace("SHELL := /bin/bash", "SHELL := /usr/bin/env bash")
    ((code, line, column, message),) = _findings(text)
    assert (code, line, column) == ("SLM005", 14, 13)
    assert message.startswith(
        "with `.ONESHELL:` make runs `/usr/bin/env bash` (`SHELL` set at line 4) as one program's name"
    )
    per_line = (
        "SHELL := /usr/bin/env bash\nserve:\n\tpython3 -m sglang.launch_server --model-path m --tp-size 2x\n"
    )
    assert [f[:3] for f in _findings(per_line)] == [("FLG005", 3, 59)]


def test_shellflags_without_c_make_the_shell_read_a_file_name() -> None:
    text = FILE.text.replace("-euo pipefail -c", "-euo pipefail")
    ((code, line, column, message),) = _findings(text)
    assert (code, line, column) == ("SLM005", 14, 13)
    assert message.startswith("`.SHELLFLAGS` is `-euo pipefail` (`.SHELLFLAGS` set at line 5), without `-c`")
    assert [f[:3] for f in _findings(FILE.text.replace("-euo pipefail -c", "-ec"))] == [("FLG005", 15, 67)]


def test_conditional_assignment_leaves_make_s_own_shell_and_a_target_s_shell_is_checked() -> None:
    text = FILE.text.replace("SHELL := /bin/bash", "SHELL ?= python3")
    assert [f[:3] for f in _findings(text) if f[0] != "DRF011"] == [("FLG005", 15, 67)]
    target = FILE.text.replace("serve:\n", "serve: SHELL := /usr/bin/python3\nserve:\n")
    ((code, line, column, message),) = _findings(target)
    assert (code, line, column) == ("SLM005", 15, 13)
    assert "make runs the recipes with `/usr/bin/python3` (`SHELL` set for a target at line 9)" in message


def test_a_shell_looked_up_on_the_path_is_that_shell_and_another_program_is_unknown() -> None:
    text = FILE.text.replace("SHELL := /bin/bash", "SHELL := $(shell which bash)")
    assert [f[:3] for f in _findings(text) if f[0] != "DRF011"] == [("FLG005", 15, 67)]
    other = FILE.text.replace("SHELL := /bin/bash", "SHELL := $(shell which python3)")
    ((code, line, column, message),) = _findings(other)
    assert (code, line, column) == ("SLM005", 14, 13)
    assert message.startswith(
        "make runs the recipes with $(SHELL), which speclint cannot know (`SHELL` set at line 4)"
    )
