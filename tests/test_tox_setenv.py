"""tox environments: `setenv` applied to the commands (their environment and `{env:KEY}`),
tox's substitutions (`{posargs:DEFAULT}`, `{env:KEY:DEFAULT}`, `{toxinidir}`, `{envname}`), and
`[testenv]`'s commands as each environment without its own runs them: what a user sees."""

from __future__ import annotations

import os

from findings_at import text_at
from frontend_checks import check
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from speclint.engine import lint_text
from speclint.frontends import extract_file


def found(result) -> list[tuple[str, int, int]]:
    return [(f.code, f.span.line, f.span.column) for f in result.findings]


TOX = (
    "[tox]\n"  # 1
    "env_list = py311, gpu2\n"  # 2
    "\n"  # 3
    "[testenv]\n"  # 4
    "setenv =\n"  # 5
    "    CUDA_VISIBLE_DEVICES = 0\n"  # 6
    "    MODEL = meta-llama/Llama-3.1-8B-Instruct\n"  # 7
    "commands =\n"  # 8
    "    python -m sglang.launch_server --model-path {env:MODEL} --tp-size {env:TP:2} {posargs:--port 30000}\n"
    "\n"  # 10
    "[testenv:gpu2]\n"  # 11
    "set_env =\n"  # 12
    "    CUDA_VISIBLE_DEVICES = 0,1\n"  # 13
    "    MODEL = meta-llama/Llama-3.1-8B-Instruct\n"  # 14
)


def test_setenv_is_the_commands_environment_and_each_environment_runs_testenv_commands():
    result = lint_text(TOX, "tox.ini")
    assert found(result) == [("PAR001", 6, 28)]
    (finding,) = result.findings
    assert text_at(TOX, finding.span) == "0"
    assert finding.message.startswith("CUDA_VISIBLE_DEVICES=0 leaves 1 GPU visible (indices 0-0), but tp 2")
    assert [n.message for n in finding.notes][-1] == "when tox runs the environment of `[testenv]` (line 4)"
    one, two = extract_file("tox.ini", TOX).launches
    assert [w.text for w in one.args] == [
        "--model-path",
        "meta-llama/Llama-3.1-8B-Instruct",
        "--tp-size",
        "2",
        "--port",
        "30000",
    ]
    assert text_at(TOX, one.args[1].span) == "{env:MODEL}" and text_at(TOX, one.args[3].span) == "2"
    assert text_at(TOX, one.args[5].span) == "30000"  # `{posargs:...}` given none: its default
    assert one.env["CUDA_VISIBLE_DEVICES"].text == "0" and two.env["CUDA_VISIBLE_DEVICES"].text == "0,1"
    assert two.alternative.description == "tox runs the environment of `[testenv:gpu2]` (line 11)"


def test_an_environment_variable_setenv_does_not_set_is_unknown_with_the_reason(tmp_path):
    text = (
        "[testenv:serve]\ncommands =\n    python -m sglang.launch_server --model-path {toxinidir}/llama"
        " --tp-size {env:TP} --served-model-name {envname}\n"
    )
    path = str(tmp_path / "tox.ini")
    result = lint_text(text, path)
    assert found(result) == [("SLM004", 3, 77)]
    assert text_at(text, result.findings[0].span) == "{env:TP}"
    assert "`{env:TP}` is the environment variable TP where tox runs (setenv does not set it)" in (
        result.findings[0].message
    )
    (launch,) = extract_file(path, text).launches
    assert launch.args[1].text == os.path.join(str(tmp_path), "llama")
    assert launch.args[-1].text == "serve"


def test_a_default_is_checked_where_it_is_written():
    text = "[testenv]\ncommands = python -m sglang.launch_server --model-path m --port {env:PORT:3000x}\n"
    result = lint_text(text, "tox.ini")
    assert found(result) == [("FLG005", 2, 75)]
    assert text_at(text, result.findings[0].span) == "3000x"
    assert "`3000x` is not a valid value for `--port`" in result.findings[0].message
    loaded = text.replace("[testenv]\n", "[testenv]\nsetenv =\n    file|.env\n")
    (launch,) = extract_file("tox.ini", loaded).launches
    assert "`{env:PORT}` may be set by `file|.env` in setenv" in launch.args[-1].dynamic_reason


def test_an_environment_whose_commands_are_testenvs_runs_them_with_its_own_setenv():
    text = TOX + "commands = {[testenv]commands}\n"
    one, two = extract_file("tox.ini", text).launches
    assert two.env["CUDA_VISIBLE_DEVICES"].text == "0,1"
    assert text_at(text, two.args[1].span) == "{env:MODEL}" and two.args[1].span.line == 9
    assert [f.code for f in lint_text(text, "tox.ini").findings] == ["PAR001"]


TOX_WORDS = [
    "\n", " ", "{", "}", ":", "=", "[testenv]\n", "[testenv:a]\n", "setenv =\n    ", "set_env = ", "X = ",
    "file|.env\n", "{env:X}", "{env:X:", "{posargs:", "{toxinidir}", "{[testenv]commands}", "commands =\n    ",
    "python -m sglang.launch_server --tp-size ", "2", "\\\n", "'", '"',
]  # fmt: skip


@settings(max_examples=80, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(st.lists(st.sampled_from(TOX_WORDS) | st.text(max_size=3), max_size=50))
def test_random_setenv_and_substitutions_never_raise(parts):
    check("# sglang\n" + "".join(parts), "tox.ini")
