"""reStructuredText pages (Sphinx docs): code directives, sphinx-prompt and `::` literal
blocks found by reStructuredText's rules, findings at the exact token of the .rst file."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from findings_at import findings_at

from speclint.engine import lint_text
from speclint.frontends import extract_file, file_kind, is_lintable_path

ROOT = Path(__file__).resolve().parent.parent
RST = ROOT / "fixtures/rst"


def located(text: str, path: str = "p.rst") -> list[tuple]:
    """(code, line, column, severity, the text the finding points at) of each finding."""
    return findings_at(text, path, severity=True)


def test_sphinx_page_findings_point_at_the_token_in_the_rst_file():
    text = (RST / "speculative_serving.rst").read_text()
    found = located(text)
    # code-block with :caption: and :linenos: options, `\` continuations, 3-space indentation
    assert ("DRF012", 15, 30, "warning", "EAGLE") in found  # EAGLE with an EAGLE-3 drafter
    assert ("SPD001", 16, 90, "warning", "16") in found  # num-draft-tokens overridden by topk 1
    assert [(c, line, col, tok) for c, line, col, sev, tok in found if sev == "error"] == [
        ("FLG001", 23, 9, "--speculative-eagle-top-k"),  # console block, `$ ` prompt, continued
        ("FLG001", 31, 66, "--tp-szie"),  # sphinx-prompt inside an enumerated list item
        ("FLG001", 35, 66, "--mem-fraction-statc"),  # `::` literal block in a list item
        ("FLG005", 58, 73, "3000O"),  # `::` literal block inside a note directive
    ]
    assert ("SPD003", 46, 86, "warning", "EAGLE3") in found  # launch_server_cmd in a python block
    messages = [f.message for f in lint_text(text, "p.rst").findings]
    assert any("`--speculative-num-draft-tokens 16` is ignored" in m for m in messages)
    assert any(
        "`--speculative-algorithm EAGLE` with a drafter whose name says EAGLE-3" in m for m in messages
    )


def test_text_blocks_comments_and_console_output_are_not_launches():
    text = (RST / "speculative_serving.rst").read_text()
    result = extract_file("p.rst", text)
    # line 52 (`.. code-block:: text`), 60 (a comment) and the console's output are not read;
    # launch_server_cmd's text is argv, not shell: its launch is the call (line 45), as a Popen's
    assert [launch.span.line for launch in result.launches] == [14, 22, 31, 35, 45, 58]
    # the `text` block opens with the launcher: said to be unchecked, not passed over
    assert [(d.kind, d.span.line, d.span.column) for d in result.diagnostics] == [
        ("launcher-not-read", 52, 4)
    ]
    assert "(a `text` block is shown as text, not read as a command)" in result.diagnostics[0].message


def test_same_findings_as_the_markdown_fence_of_the_same_block():
    command = "python -m sglang.launch_server --model-path m --speculative-algorithm EAGLE3 --tp-szie 2"
    rst = f"Run:\n\n.. code-block:: bash\n   :caption: Launch\n\n   {command}\n"
    markdown = f"Run:\n\n```bash\n{command}\n```\n"
    in_rst = [(c, line, col - 3, sev, tok) for c, line, col, sev, tok in located(rst)]
    in_markdown = [(c, line + 2, col, sev, tok) for c, line, col, sev, tok in located(markdown, "p.md")]
    assert in_rst == in_markdown and ("FLG001", 6, 78, "error", "--tp-szie") in in_rst


def test_directive_forms_and_the_highlight_language():
    text = (
        ".. code:: shell\n\n  python -m sglang.launch_server --model-path m --tp-szie 2\n\n"
        ".. sourcecode:: bash\n\n    sglang serve --model-path m --tp-szie 2\n\n"
        ".. highlight:: console\n\n"
        "Run it::\n\n  $ python -m sglang.launch_server --model-path m --tp-szie 2\n  started\n\n"
        ".. code-block::\n\n   $ python -m sglang.launch_server --model-path m --tp-szie 2\n"
    )
    found = [(c, line, col, tok) for c, line, col, sev, tok in located(text) if sev == "error"]
    assert found == [
        ("FLG001", 3, 49, "--tp-szie"),
        ("FLG001", 7, 33, "--tp-szie"),
        ("FLG001", 13, 51, "--tp-szie"),  # `::` block in the highlight language: a console
        ("FLG001", 18, 52, "--tp-szie"),  # code-block without a language: the same
    ]


def test_block_ends_at_the_first_less_indented_line_and_keeps_blank_lines():
    text = (
        ".. code-block:: bash\n\n"
        "   python -m sglang.launch_server --model-path m \\\n"
        "     --tp-size 2\n\n"
        "   python -m sglang.launch_server --model-path m --tp-szie 4\n"
        "python -m sglang.launch_server --bogus-after-the-block\n"
    )
    launches = extract_file("p.rst", text).launches
    assert [[w.text for w in launch.args] for launch in launches] == [
        ["--model-path", "m", "--tp-size", "2"],
        ["--model-path", "m", "--tp-szie", "4"],
        [None, "--bogus-after-the-block"],
    ]  # the unindented last line is a paragraph, not code: a command of its own (docs27: a
    # paragraph line that is a literal command is read, its rest unknown as it has no model)


def test_tab_indentation_and_a_python_block_dedented():
    text = (
        ".. code-block:: python\n\n"
        "\timport sglang as sgl\n\n"
        "\tif True:\n"
        '\t    llm = sgl.Engine(model_path="m", tp_szie=2)\n'
    )
    found = located(text)
    assert ("FLG001", 6, 39, "error", "tp_szie") in found


def test_what_restructuredtext_does_not_read_as_a_literal_block():
    text = (
        "Text right before\n.. code-block:: bash\n\n   python -m sglang.launch_server --tp-szie 1\n\n"
        "No blank line::\n   python -m sglang.launch_server --tp-szie 1\n\n"
        "Escaped colons \\::\n\n   python -m sglang.launch_server --tp-szie 1\n\n"
        ".. raw:: html\n\n   python -m sglang.launch_server --tp-szie 1\n"
    )
    # a `..` line inside a paragraph is text (the indented line after it a block quote); a
    # `::` line with no blank line after it starts a definition list; `\::` is not a
    # marker; raw content is not reStructuredText: none of these is a code block. The two
    # block quotes hold a command and are read as one (`test_docs_rst_block_quotes`); the
    # definition's paragraph is itself a literal command, read as one (docs27)
    assert [launch.span.line for launch in extract_file("p.rst", text).launches] == [4, 7, 11]
    found = [f for f in located(text) if f[0] == "FLG001"]  # (FLG011: no --model-path)
    assert [f[1:3] + (f[4],) for f in found] == [
        (4, 35, "--tp-szie"),
        (7, 35, "--tp-szie"),
        (11, 35, "--tp-szie"),
    ]


def test_sphinx_prompt_auto_modifier_and_options():
    text = (
        ".. prompt:: bash $,# auto\n\n"
        "   $ python -m sglang.launch_server --model-path m \\\n"
        "       --tp-szie 2\n"
        "   server output --not-read\n"
        "   # sglang serve --model-path m --mem-fraction-statc 0.8\n\n"
        ".. prompt::\n   :language: bash\n\n   sglang serve --model-path m --tp-szie 4\n\n"
        ".. prompt:: text\n\n   sglang serve --model-path m --tp-szie 8\n"
    )
    found = [(c, line, col, tok) for c, line, col, sev, tok in located(text) if sev == "error"]
    assert found == [
        ("FLG001", 4, 8, "--tp-szie"),  # `\` continuation of a `$` statement
        ("FLG001", 6, 34, "--mem-fraction-statc"),  # second prompt `#`
        ("FLG001", 11, 32, "--tp-szie"),  # language given as an option
    ]  # output lines and the text-language block are not read


def test_directive_docutils_refuses_is_reported_not_passed():
    options_then_code = (
        ".. code-block:: bash\n   :caption: Launch\n   python -m sglang.launch_server --tp-szie 2\n"
    )
    found = located(options_then_code)
    assert [(c, line, col, sev) for c, line, col, sev, _ in found] == [
        ("SLM001", 3, 4, "warning"),
        ("SLM005", 3, 14, "info"),
    ]
    message = lint_text(options_then_code, "p.rst").findings[0].message
    assert "not an option" in message and "Sphinx reports an error" in message
    arguments = ".. code-block:: bash\n   python -m sglang.launch_server --tp-szie 2\n"
    message = lint_text(arguments, "p.rst").findings[0].message
    assert message.startswith("no blank line between the directive and its content")


def test_rst_files_are_read_and_scanned():
    assert file_kind("docs/serving.rst") == "rst" and file_kind("docs/README.RST") == "rst"
    assert is_lintable_path("docs/serving.rst")
    result = extract_file("x.rst", "Run::\n\n   python -m sglang.launch_server --model-path m\n")
    assert len(result.launches) == 1 and not result.diagnostics


def test_rst_reader_loads_no_parser_and_is_not_loaded_for_shell():
    code = (
        "import sys, speclint.engine as l; l.lint_text(open(sys.argv[1]).read(), sys.argv[1]);"
        "print(*(m in sys.modules for m in ('speclint.frontends.docs.rst', 'markdown_it', 'docutils')))"
    )
    for path, expected in (
        (ROOT / "fixtures/shell/kimi_eagle_launch.sh", "False False False"),
        (RST / "speculative_serving.rst", "True False False"),
    ):
        out = subprocess.run(
            [sys.executable, "-c", code, str(path)], capture_output=True, text=True, cwd=ROOT, check=True
        ).stdout
        assert out.strip() == expected
