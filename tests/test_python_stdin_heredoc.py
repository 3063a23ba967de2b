"""A shell here-document fed to Python on standard input (`python3 - <<EOF`, `python <<'PY'`)
is read by the Python front-end, its launches placed on the script's lines: an unquoted one
with the script's variables expanded first (a value the script cannot know stays unknown, with
the script's reason), a quoted one as written. A here-document that is a Python program's
data (`python3 tool.py <<EOF`, `python3 -c ...`) is not read as Python."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text

SCRIPT = FixtureFile("shell/python_stdin_heredoc.sh")


def test_the_program_on_standard_input_is_read_at_the_script_positions() -> None:
    assert SCRIPT.findings() == [
        (
            "FLG001",
            8,
            87,
            "--tp-sise",
            "`--tp-sise` is not an SGLang 0.5.23 flag: argparse stops the launch with "
            "'unrecognized arguments'; did you mean `--tp-size`?",
        ),
        (
            "SLM004",
            8,
            115,
            "$PORT",
            "launch only partly read: speclint cannot know the value of `--port` ($PORT is not "
            "assigned in this file (comes from the environment)); checks that need this value did not run",
        ),
        (
            "FLG001",
            13,
            57,
            "tp_sise",
            "`tp_sise` is not a ServerArgs field of SGLang 0.5.23: the launch fails with "
            "__init__() got an unexpected keyword argument 'tp_sise'",
        ),
    ]


def test_an_unquoted_here_document_takes_the_script_variables() -> None:
    popen, engine = lint_text(SCRIPT.text, str(SCRIPT.path)).contexts
    model = popen.launch.args[1]
    assert model.text == "Qwen/Qwen2.5-7B-Instruct"  # `$MODEL`, assigned on line 4
    assert SCRIPT.at(model.span) == (8, 77, "$MODEL")
    assert engine.launch.kwargs_style


def test_quoted_delimiter_keeps_dollar_text_and_options_before_the_dash() -> None:
    text = "python3 -u -W ignore - <<'EOF'\nimport subprocess\nsubprocess.run(['sglang', 'serve', '--model-path', 'm', '--tp-sise', '1'])\nEOF\n"
    found = lint_text(text, "run.sh").findings
    assert [(f.code, f.span.line, f.span.column) for f in found] == [("FLG001", 3, 58)]


def test_a_here_document_that_is_data_is_not_read_as_python() -> None:
    for command in (
        "python3 make_config.py",
        "python3 -c 'import sys; print(sys.stdin.read())'",
        "python3 -m json.tool",
        "python3 --version",
        "python3 -V",
    ):
        # a program that launches if it were run: here it is the command's input only
        body = "import os\nos.system('python -m sglang.launch_server --tp-sise 1')\n"
        found = lint_text(f"{command} <<EOF\n{body}EOF\n", "run.sh")
        assert found.contexts == [], command
        assert [(f.code, f.span.line, f.span.column) for f in found.findings] == [("SLM005", 3, 22)], command


def test_a_python_program_without_a_launch_is_reported_unread() -> None:
    text = "python -m sglang.launch_server --model-path m &\npython3 - <<EOF\nprint('python -m sglang.launch_server is up')\nEOF\n"
    found = lint_text(text, "run.sh")
    assert len(found.contexts) == 1
    assert [(f.code, f.span.line, f.span.column) for f in found.findings] == [("SLM005", 3, 8)]
    assert found.findings[0].message.startswith(
        "speclint did not read this here-document, given to `python3`"
    )


_PROGRAM = (
    "python3 - <<'EOF'\nimport subprocess\n"
    "subprocess.run(['python3', '-m', 'sglang.launch_server', '--model-path', 'm', '--tp-sise', '1'])\nEOF\n"
)


def test_a_docs_bash_block_reads_the_program_at_the_block_positions() -> None:
    found = lint_text(f"# Run\n\n```bash\n{_PROGRAM}```\n", "README.md").findings
    assert [(f.code, f.span.line, f.span.column) for f in found] == [("FLG001", 6, 80)]


def test_shell_text_inside_python_reports_the_program_unread() -> None:
    # the buffer of a Python shell string has no reader for a nested Python program
    text = f'import os\nos.system("""{_PROGRAM}""")\n'
    found = lint_text(text, "app.py")
    assert found.contexts == []
    assert [(f.code, f.span.line, f.span.column) for f in found.findings] == [("SLM005", 4, 35)]
