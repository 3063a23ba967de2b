"""reStructuredText block quotes that hold a command (an indented paragraph with no `::`
before it: `$ python -m sglang.launch_server ...`, or the launcher and its flags) are read as
shell, each finding at its token in the .rst file; a quoted sentence that names the launcher
is not a launch. sphinx-prompt's `.. prompt:: bash $` is read beside them. Before, such a
block quote was not read (and, in a page with other launches, not said)."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text
from speclint.frontends import extract_file

PAGE = FixtureFile("rst/block_quote_commands.rst")


def test_block_quotes_holding_commands_and_a_prompt_directive_are_checked() -> None:
    findings = PAGE.findings()
    assert [f[:4] for f in findings] == [
        ("FLG001", 7, 22, "--tp-sise"),  # (`$ ` prompt, `\` continued onto the next line)
        ("FLG005", 11, 65, "high"),  # (`sglang serve MODEL --flag`, no prompt)
        ("FLG006", 17, 93, "flashinfers"),  # (`.. prompt:: bash $`)
    ]
    assert "did you mean `--tp-size`?" in findings[0][4]
    assert "invalid float value: 'high'" in findings[1][4]


def test_a_quoted_sentence_naming_the_launcher_is_not_a_launch() -> None:
    launches = extract_file(str(PAGE.path), PAGE.text).launches
    assert [launch.span.line for launch in launches] == [6, 11, 17]
    text = "Intro\n\n    python -m sglang.launch_server is what runs.\n"
    assert extract_file("p.rst", text).launches == []
    (finding,) = lint_text(text, "p.rst").findings
    assert (finding.code, finding.span.line, finding.span.column) == ("SLM005", 3, 15)


def test_only_a_command_indented_past_the_line_above_it_is_read() -> None:
    # (indented past `- item`'s marker: read, though docutils makes it the item's paragraph)
    text = "- item\n\n  python -m sglang.launch_server --tp-sise 1\n"
    assert [f.code for f in lint_text(text, "p.rst").findings if f.code == "FLG001"] == ["FLG001"]
    text = "  Indented text\n\n  python -m sglang.launch_server --tp-sise 1\n"  # (as indented: text)
    assert (
        extract_file("p.rst", "  Indented text\n\n  python -m sglang.launch_server is what runs\n").launches
        == []
    )
    # (a paragraph that is itself a literal command is read as one since docs27: the flag is checked)
    assert [f.code for f in lint_text(text, "p.rst").findings if f.code in ("FLG001", "SLM005")] == ["FLG001"]
