"""SGLang's `launch_server_cmd(TEXT)` / `execute_shell_command(TEXT)` read as the releases run
the text (tools/gen_sglang_shell_cmd.py): `\\` and newlines are blanks, the text is split on
whitespace into argv, no shell. A flag on a line without `\\` is the command's."""

from __future__ import annotations

from pathlib import Path

from fixture_file import FixtureFile
from regenerated import assert_regenerates, use_tools

from speclint.engine import lint_text
from speclint.sglang.flags.schema import supported_versions
from speclint.sglang.shell_cmd import _DATA, appended_parts, read_versions, split_reading

ROOT = Path(__file__).resolve().parent.parent
PY = FixtureFile("python/launch_server_cmd_lines.py")
NB = FixtureFile("notebooks/launch_server_cmd_lines.ipynb")
SPLIT = "does not run its text through a shell (SGLang's execute_shell_command splits it on whitespace"


def test_a_flag_on_a_line_without_a_backslash_is_checked_in_a_notebook_cell():
    found = [(code, line, col, text) for code, line, col, text, _ in NB.findings()]
    assert found == [("FLG001", 24, 38, "--speculative-num-stepz")]


def test_every_line_of_the_text_is_read_and_shell_syntax_is_said_to_be_literal():
    found = PY.findings()
    assert [(c, line, col, text) for c, line, col, text, _ in found] == [
        ("FLG003", 12, 2, "--tp"),  # a hint: `--tp` abbreviates `--tp-size`
        ("FLG001", 13, 28, "--tp-szie"),  # line 12 ends without `\`
        ("SLM001", 14, 9, '"'),
        ("SLM001", 19, 59, "$"),
        ("SLM001", 19, 70, "--port"),
        ("SLM001", 22, 8, "SGLANG_ENABLE_TORCH_COMPILE=1"),
        ("FLG006", 23, 26, "halff"),  # execute_shell_command: its second line too
    ]
    messages = [m for *_, m in found][1:]
    assert f"`launch_server_cmd` {SPLIT}" in messages[1]
    assert 'SGLang gets `"0.0.0.0"` as written, where a shell would have acted on `"`' in messages[1]
    assert "SGLang gets `$MODEL_DIR` as written" in messages[2]
    assert messages[3].startswith("docs_launch(...) appends `--port` with the port it reserves")
    assert "this `--port 30000` is overridden" in messages[3]
    assert "only from SGLang 0.5.9 on" in messages[4]


def test_the_words_keep_their_file_positions_and_the_help_says_how_to_fix():
    text = (
        "from sglang.utils import launch_server_cmd\n"
        'launch_server_cmd("""python3 -m sglang.launch_server --model-path m\n'
        ' --tp-size 2\n --tp-size 4""", port=30000)\n'
    )
    found = lint_text(text, "nb.py").findings
    assert [(f.code, f.span.line, f.span.column) for f in found] == [("FLG007", 3, 2)]
    assert "so SGLang runs with tp_size = 4" in found[0].message
    quoted = lint_text(text.replace("m\n", "'m'\n"), "nb.py").findings
    slm = [f for f in quoted if f.code == "SLM001"]
    assert [(f.span.line, f.span.column) for f in slm] == [(2, 67)]  # the opening quote
    assert "leave out quotes and comments" in slm[0].fix_hint


def test_a_port_passed_to_the_helper_overrides_the_one_in_the_text():
    text = (
        "from sglang.utils import launch_server_cmd\n"
        'launch_server_cmd("python3 -m sglang.launch_server --model-path m --port 30000", port=31000)\n'
    )
    found = lint_text(text, "nb.py").findings
    assert [(f.code, f.span.line, f.span.column) for f in found] == [("FLG007", 2, 67)]
    assert "SGLang runs with port = 31000" in found[0].message


def test_the_data_says_every_release_splits_on_whitespace_without_a_shell():
    assert set(read_versions()) == set(supported_versions())
    reading = split_reading()
    assert reading is not None
    assert reading.replace == (("\\\n", " "), ("\\", " "))
    assert (reading.oldest, reading.assignments_from, reading.assignments_other) == ("0.4.0", "0.5.9", False)
    utils, doc_patch = appended_parts("launch_server_cmd"), appended_parts("doc_patch.launch_server_cmd")
    assert utils is not None and doc_patch is not None
    assert utils[1] == doc_patch[1][:2] == ({"text": "--port"}, {"param": "port"})
    assert [w["text"] for w in doc_patch[1][2:]] == [
        "--max-running-requests",
        "128",
        "--max-total-tokens",
        "20480",
    ]
    assert utils[2] == ()  # the same in every release that has it
    assert any("--disable-cuda-graph" in rest for rest in doc_patch[2])  # differs by release: left out


def test_the_docs_copy_appends_the_flags_every_release_of_it_appends():
    text = (
        "from sglang.test.doc_patch import launch_server_cmd\n"
        'launch_server_cmd("python3 -m sglang.launch_server --model-path m --max-running-requests 64", port=1)\n'
    )
    found = lint_text(text, "nb.py").findings
    assert [(f.code, f.span.line, f.span.column) for f in found] == [("FLG007", 2, 67)]
    assert "SGLang runs with max_running_requests = 128" in found[0].message


def test_regenerating_from_the_cached_wheels_reproduces_the_stored_data():
    use_tools()
    from gen_sglang_shell_cmd import build, dump

    assert_regenerates(_DATA, read_versions(), lambda: dump(build(list(read_versions()))))


def test_a_value_not_known_standing_alone_may_hold_any_words():
    text = (
        "from sglang.utils import launch_server_cmd\n"
        "def serve(extra, tp):\n"
        '    launch_server_cmd(f"python3 -m sglang.launch_server --model-path m --tp-size={tp} {extra}")\n'
    )
    found = lint_text(text, "nb.py").findings
    assert [(f.code, f.span.line, f.span.column) for f in found] == [("SLM004", 3, 72)]  # at `--tp-size={tp}`
    assert "a word that may hold any flags (parameter `extra` of serve())" in found[0].message
    assert "`--tp-size`" in found[0].message  # `--tp-size={tp}`: one word, its option read


def test_a_launch_server_cmd_the_file_defines_itself_is_read_as_shell():
    text = (
        "import os\n"
        "def launch_server_cmd(command):\n"
        "    os.system(command)\n"
        'launch_server_cmd("""python3 -m sglang.launch_server --model-path m\n --tp-szie 2""")\n'
    )
    # its own body runs a shell: line 4 ends the command, said as a missing `\`
    assert [(f.code, f.span.line) for f in lint_text(text, "nb.py").findings] == [("SLM002", 4)]
    imported = "from sglang.utils import launch_server_cmd\n" + text.split("\n", 3)[3]
    assert [f.code for f in lint_text(imported, "nb.py").findings] == ["FLG001"]


def test_a_leading_assignment_is_the_servers_environment_from_0_5_9():
    text = (
        "from sglang.utils import execute_shell_command\n"
        'execute_shell_command("CUDA_VISIBLE_DEVICES=0 python3 -m sglang.launch_server --model-path m --tp-size 2")\n'
    )
    found = lint_text(text, "nb.py").findings
    assert [(f.code, f.span.line, f.span.column) for f in found] == [("SLM001", 2, 24), ("PAR001", 2, 45)]
    assert "before it, `CUDA_VISIBLE_DEVICES=0` is started as the program" in found[0].message
    assert found[1].message.startswith("CUDA_VISIBLE_DEVICES=0 leaves 1 GPU visible")
