"""A Python argv list of plain words: its launch read from the words (`shell.argv_launch`),
the same launch, words, positions and findings as the shell buffer's walk gives."""

from __future__ import annotations

import pytest

import speclint.frontends.python.sinks as sinks_module
from speclint.core.spans import Span
from speclint.engine import lint_text
from speclint.frontends.python.extract import extract_python

HEAD = "import os, subprocess, sys\nMODEL = '/models/llama'\nextra = sys.argv[1:]\n"

PLAIN = {
    "executable": "subprocess.run([sys.executable, '-m', 'sglang.launch_server', '--tp', '2'])",
    "named": "subprocess.run(['python3', '-u', '-m', 'sglang.launch_server', '--model-path', MODEL])",
    "splat": "subprocess.run(['python', '-m', 'sglang.launch_server', '--port', '30000', *extra])",
    "unknown": "subprocess.Popen(['python', '-m', 'sglang.launch_server', '--port', os.environ['P']])",
    "concatenated": "subprocess.run(['python', '-m', 'sglang.launch_server', '--host' '', '0.0.0.0'])",
    "serve": "subprocess.run(['sglang', 'serve', '--model-path', MODEL, '--tp', '2'])",
    "script": "subprocess.run(['python', 'python/sglang/launch_server.py', '--tp', '4'])",
    "module-attached": "subprocess.run(['python3', '-msglang.launch_server', '--tp', '4'])",
    "env": "subprocess.run(['python', '-m', 'sglang.launch_server'], env={'CUDA_VISIBLE_DEVICES': '0,1'})",
    "lines": "subprocess.run(\n    [sys.executable, '-m', 'sglang.launch_server',\n     '--tp', '2', '--dp', '2'])",
}

SHELL = {  # read by the shell buffer as before
    "wrapper": "subprocess.run(['nohup', 'python', '-m', 'sglang.launch_server', '--tp', '2'])",
    "bash-c": "subprocess.run(['bash', '-c', 'python -m sglang.launch_server --tp 2'])",
    "quote": "subprocess.run(['python', '-m', 'sglang.launch_server', '--chat-template', \"it's\"])",
    "option-value": "subprocess.run(['python', '-m', 'sglang.launch_server', f'--tp={os.cpu_count()}'])",
    "docker": "subprocess.run(['docker', 'run', 'img', 'python', '-m', 'sglang.launch_server'])",
    "torchrun": "subprocess.run(['python', '-m', 'torch.distributed.run', '-m', 'sglang.launch_server'])",
    "not-a-launch": "subprocess.run(['nvidia-smi', '-L'])",
}


def _read(source: str, fast: bool, monkeypatch: pytest.MonkeyPatch) -> tuple[object, int]:
    """The extract result, and how many launches `argv_launch` made."""
    made = 0
    real = sinks_module.argv_launch

    def counted(*args: object) -> object:
        nonlocal made
        launch = real(*args) if fast else None  # type: ignore[arg-type]
        made += launch is not None
        return launch

    with monkeypatch.context() as patch:
        patch.setattr(sinks_module, "argv_launch", counted)
        return extract_python(HEAD + source + "\n", "x.py"), made


def _place(span: Span) -> tuple[int, int, int]:
    return span.line, span.column, span.end_column


@pytest.mark.parametrize("name", sorted(PLAIN))
def test_plain_words_give_the_shell_walks_launch(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    fast, made = _read(PLAIN[name], True, monkeypatch)
    slow, _ = _read(PLAIN[name], False, monkeypatch)
    assert made == 1 and len(fast.launches) == 1  # type: ignore[attr-defined]
    assert fast == slow
    assert [w.identity for w in fast.launches[0].args] == [w.identity for w in slow.launches[0].args]  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", sorted(SHELL))
def test_other_commands_take_the_shell_buffer(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    fast, made = _read(SHELL[name], True, monkeypatch)
    slow, _ = _read(SHELL[name], False, monkeypatch)
    assert made == 0
    assert fast == slow


def test_plain_words_point_at_their_tokens() -> None:
    line = PLAIN["splat"]
    (launch,) = extract_python(HEAD + line + "\n", "x.py").launches
    port, value, rest = launch.args
    column = line.index("'--port'") + 2  # (1-based, after the quote)
    assert port.text == "--port" and _place(port.span) == (4, column, column + 6)
    column = line.index("'30000'") + 2
    assert value.text == "30000" and _place(value.span) == (4, column, column + 5)
    column = line.index("*extra") + 2  # (the name, after the star)
    assert rest.text is None and rest.splat and _place(rest.span) == (4, column, column + 5)
    assert rest.dynamic_reason == "`sys.argv[1:]` is computed when the program runs"
    assert rest.origin is not None and (rest.origin.line, rest.origin.column) == (3, 9)  # `extra = ...`
    assert (launch.span.line, launch.span.column) == (4, 1)


def test_findings_of_a_plain_argv_point_at_the_word() -> None:
    line = "subprocess.run(['python', '-m', 'sglang.launch_server', '--tp-size', '2', '--tp', '4'])"
    found = {f.code: f for f in lint_text(HEAD + line + "\n", "x.py").findings}
    overridden, abbreviated = found["FLG007"], found["FLG003"]
    column = line.index("'--tp-size'") + 2
    assert _place(overridden.span) == (4, column, column + 9)
    assert overridden.message == (
        "`--tp-size 2` is overridden by `--tp 4` on line 4: argparse keeps the last value, "
        "so SGLang runs with tp_size = 4"
    )
    column = line.index("'--tp'") + 2
    assert _place(abbreviated.span) == (4, column, column + 4)
    assert abbreviated.fix is not None and abbreviated.fix.replacement == "--tp-size"
