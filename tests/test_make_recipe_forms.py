"""Makefile recipes as make hands them to the shell: a `.ONESHELL:` rule whose here-document
holds an indented Kubernetes manifest (make drops each line's leading blanks and `-`, so the
manifest kubectl gets is not the one written: said at the launcher, not read as written), a
`.ONESHELL:` here-document that is a shell script (read), and recipes continued with `\\` that
use `$$NAME` (make's escape for a shell `$`): findings at the token in the Makefile."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text


def test_an_indented_manifest_in_a_oneshell_here_document_is_said_to_be_flattened_by_make():
    fixture = FixtureFile("make/oneshell_manifest/Makefile")
    got = fixture.findings()
    assert [g[:4] for g in got] == [("SLM005", 20, 40, "sglang.launch_server"), ("FLG005", 28, 16, "2x")]
    message = got[0][4]
    assert "with `.ONESHELL:` make drops the blanks and `@`, `-`, `+` that start each recipe line" in message
    assert "loses its indentation from line 13 on" in message
    assert "was not checked (put the manifest in a file and apply that file)" in message
    assert got[1][4].startswith("`2x` is not a valid value for `--tp-size`")


def test_without_oneshell_the_here_document_is_said_to_get_none_of_its_lines():
    fixture = FixtureFile("make/oneshell_manifest/Makefile")
    text = fixture.text.replace(".ONESHELL:\n", "")
    got = [(f.code, f.span.line, f.span.column, f.message) for f in lint_text(text, "Makefile").findings]
    assert [g[:3] for g in got] == [("SLM005", 19, 40)]
    assert "make runs each recipe line in a shell of its own" in got[0][3]
    assert "drops the blanks" not in got[0][3]


def test_continued_recipes_with_make_escaped_shell_variables_point_at_the_makefile_tokens():
    fixture = FixtureFile("make/continued_recipe/Makefile")
    got = fixture.findings()
    assert [g[:4] for g in got] == [("FLG005", 11, 41, "lots"), ("FLG005", 15, 68, "$$n")]
    assert got[1][4].startswith("`2x` is not a valid value for `--dp-size`")
