"""Hostile inputs for the Dockerfile, GitHub Actions, SGLang config and prefixed-flag
front-ends: located findings, never an exception, in bounded time and memory."""

from __future__ import annotations

import time
import tracemalloc

import pytest
from frontend_checks import CONFIG_YAML, DEEP, DOCKERFILE, WORKFLOW, check, laughs

from speclint.engine import lint_path, lint_text
from speclint.settings.options import LintOptions

V = LintOptions(sglang_version="0.5.23")


@pytest.mark.parametrize(
    "text",
    [
        DOCKERFILE + "CMD " + "\\\n" * 50_000,  # a continuation that never ends
        "FROM lmsysorg/sglang\n" + "ENV " + "A=b " * 100_000 + "\nCMD python3 -m sglang.launch_server\n",
        "FROM x\n" * 20_000 + "CMD sglang\n",
        DOCKERFILE.replace('"--tp-szie"', '"' + "\\u00" * 10_000 + '"'),
        "FROM x\nCMD [" + '"a",' * 100_000 + '"sglang"]\n',
        "FROM x\nCMD [" * 1000 + "sglang\n",
        "FROM x\nRUN <<EOF\n" + "sglang\n" * 1000,  # a heredoc that never ends
        "\0\xff\ufeff FROM sglang\n\x01CMD \udcff sglang\n",
        "# escape=`\n" + DOCKERFILE.replace("\n", "`\n"),
        "FROM $" + "{" * DEEP + "x" + "}" * DEEP + "\nCMD sglang\n",
        "ARG A=${A}\nFROM lmsysorg/sglang:${A}\nENV A=$A B=${A:-${A:+$A}}\nCMD sglang\n",
    ],
)
def test_odd_dockerfiles_never_raise(text):
    start = time.process_time()  # CPU time: a bound on the work, not on how busy the machine is
    check(text, "Dockerfile")
    assert time.process_time() - start < 20


def test_deeply_nested_shell_form_cmd_is_a_located_finding():
    text = "FROM x\nCMD " + "(" * DEEP + "python3 -m sglang.launch_server" + ")" * DEEP + "\n"
    start = time.process_time()
    result = lint_text(text, "Dockerfile")
    assert time.process_time() - start < 20
    found = [(f.code, f.span.line) for f in result.findings]
    assert ("SLM001", 2) in found and {code for code, _ in found} <= {"SLM001", "SLM005"}, found


@pytest.mark.parametrize(
    "text",
    [
        WORKFLOW.replace("--tp-szie 2", "${{ " + "(" * DEEP + " }}"),
        WORKFLOW.replace("--tp-szie 2", "${{ x " * 50_000),
        WORKFLOW + "  b:\n    steps: *x\n",
        laughs() + "on: push\njobs: {a: {steps: *l9, env: *l9}}\n",
        WORKFLOW.replace("      - run: |", "      - run: !!binary |"),
        "on: push\njobs:\n  a:\n    steps:\n      - run: " + "(" * DEEP + "sglang\n",
        "on: push\njobs: [sglang]\n",
        "on: push\njobs:\n  a:\n    container: {image: [x]}\n    steps: [{run: [sglang]}, {run: {a: sglang}}]\n",
    ],
)
def test_odd_workflows_never_raise(text):
    start = time.process_time()
    check(text, ".github/workflows/ci.yml")
    assert time.process_time() - start < 20


@pytest.mark.parametrize(
    "text",
    [
        CONFIG_YAML + "x: " + "[" * DEEP + "]" * DEEP + "\n",
        laughs().replace("# sglang", "model-path: m\ntp-size: 2") + "speculative-algorithm: *l9\n",
        "model-path: m\ntp-size: &a [*a]\nport: &b {b: *b}\n",
        "model-path: m\ntp-size: 2\nport: !!python/object/apply:os.system [echo]\n",
        "model-path: m\ntp-size: 2\nx: !!binary " + "A" * 100_000 + "\n",
        "model-path: m\ntp-size: 2\n" + "".join(f"k{i}: {i}\n" for i in range(5_000)),
        "model-path: \0\ntp-size: 2\n",
        "kind: ConfigMap\ndata:\n  config.yaml: |\n    model-path: m\n    tp-size: " + "[" * DEEP + "\n",
        "a:\n  sglang_config:\n    prefill: {tp-size: [" + "[" * 200 + "]]}\n    decode: *nothing\n",
    ],
)
def test_odd_config_yaml_never_raises(text):
    tracemalloc.start()
    start = time.process_time()
    try:
        check(text, "config.yaml")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert time.process_time() - start < 20 and peak < 300 * 1024 * 1024, peak


def test_alias_bomb_as_a_config_value_is_bounded():
    text = (
        laughs().replace("# sglang", "model-path: m\ntp-size: 2\nport: 1") + "json-model-override-args: *l9\n"
    )
    result = lint_text(text, "config.yaml", V)
    assert all(f.span.line >= 1 for f in result.findings)


@pytest.mark.parametrize("content", [b"\0\xff" * 1000, b"- a\n", b"[", b"x: " + b"[" * DEEP])
def test_launch_naming_a_hostile_config_file(tmp_path, content):
    (tmp_path / "c.yaml").write_bytes(content)
    script = tmp_path / "s.sh"
    script.write_text("python -m sglang.launch_server --model-path m --config c.yaml --tp-szie 2\n")
    start = time.process_time()
    result = lint_path(str(script), V)
    assert time.process_time() - start < 10 and result.error is None
    assert [(f.code, f.span.line) for f in result.findings if f.code == "FLG001"] == [("FLG001", 1)]


def test_launch_naming_a_fifo_or_a_folder_as_config(tmp_path):
    import os

    os.mkfifo(tmp_path / "f.yaml")
    (tmp_path / "d.yaml").mkdir()
    script = tmp_path / "s.sh"
    script.write_text(
        "python -m sglang.launch_server --model-path m --config f.yaml\n"
        "python -m sglang.launch_server --model-path m --config d.yaml\n"
    )
    start = time.process_time()
    assert lint_path(str(script), V).error is None and time.process_time() - start < 10


@pytest.mark.parametrize(
    "text",
    [
        "python3 t.py " + "--sglang-x " * 50_000 + "\n",
        "A=(" + "--sglang-tp " * 50_000 + ")\n",
        "python3 t.py --sglang-" + "-" * 10_000 + "\n",
        "python3 t.py --sglang-tp $(" * 500 + ")" * 500 + "\n",
    ],
)
def test_odd_prefixed_flags_never_raise(text):
    start = time.process_time()
    check(text, "run.sh")
    assert time.process_time() - start < 20
