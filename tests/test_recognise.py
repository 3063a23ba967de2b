"""One launch recogniser: which commands, calls and text start SGLang is decided in
`speclint.frontends.recognise`, and every front-end asks it (none spells the launcher itself)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from speclint.frontends import extract_file
from speclint.frontends.recognise import command_entry, module_entry

SRC = Path(__file__).resolve().parent.parent / "src" / "speclint"
LAUNCHER = re.compile(
    r"sglang\.launch_server|sglang\s+serve|launch_server_cmd|sgl\.Engine"
    r"|popen_launch_server|prepare_server_args"
)


def _code_strings(tree: ast.AST) -> list[ast.Constant]:
    """String constants that are not docstrings."""
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    strings = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, (str, bytes))
        and id(node) not in docstrings
    ]
    # an attribute docstring (a string statement after an assignment) is documentation too
    attribute_docs = {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }
    return [node for node in strings if id(node) not in attribute_docs]


def test_no_front_end_spells_the_launcher_but_the_recogniser():
    spelled = []
    for path in sorted((SRC / "frontends").rglob("*.py")):
        if path.name == "recognise.py":
            continue
        for node in _code_strings(ast.parse(path.read_text(encoding="utf-8"))):
            text = node.value.decode("latin-1") if isinstance(node.value, bytes) else node.value
            if LAUNCHER.search(text):
                spelled.append(f"{path.relative_to(SRC)}:{node.lineno}: {text!r}")
    assert spelled == []


@pytest.mark.parametrize(
    ("module", "entry"),
    [
        ("sglang.launch_server", "python -m sglang.launch_server"),
        ("sglang.launch_server_x", None),
        ("vllm.entrypoints.openai.api_server", None),
        (None, None),
    ],
)
def test_module_entry(module, entry):
    assert module_entry(module) == entry


def test_command_entry():
    assert command_entry("sglang", "serve") == "sglang serve"
    assert command_entry("sglang", "--help") is None
    assert command_entry("vllm", "serve") is None


@pytest.mark.parametrize(
    ("path", "text"),
    [
        ("run.sh", "python3 -m sglang.launch_server --model-path m --tp 2\n"),
        ("run.sh", "sglang serve --model-path m --tp 2\n"),
        (
            "run.py",
            "import subprocess\nsubprocess.run(['python3', '-m', 'sglang.launch_server', "
            "'--model-path', 'm', '--tp', '2'])\n",
        ),
        ("run.py", "import sglang as sgl\nsgl.Engine(model_path='m', tp_size=2)\n"),
        (
            "Dockerfile",
            'FROM lmsysorg/sglang:v0.5.6\nCMD ["python3", "-m", "sglang.launch_server", '
            '"--model-path", "m", "--tp", "2"]\n',
        ),
        ("README.md", "Run `python3 -m sglang.launch_server --model-path m --tp 2` to start.\n"),
    ],
)
def test_every_front_end_finds_the_same_launch(path, text):
    launches = extract_file(path, text).launches
    assert len(launches) == 1
    launch = launches[0]
    if launch.kwargs_style:
        assert [(k.text, v.text) for k, v in launch.kwargs] == [("model_path", "'m'"), ("tp_size", "2")]
    else:
        assert [w.text for w in launch.args] == ["--model-path", "m", "--tp", "2"]
        assert launch.entry == (
            "sglang serve" if text.startswith("sglang serve") else "python -m sglang.launch_server"
        )


def test_other_servers_are_not_launches():
    for path, text in [
        ("run.sh", "python3 -m vllm.entrypoints.openai.api_server --tp 2\n"),
        ("run.sh", "my-sglang serve --tp 2\n"),
        ("run.py", "import subprocess\nsubprocess.run(['python3', '-m', 'vllm', '--tp', '2'])\n"),
    ]:
        assert extract_file(path, text).launches == []


def test_launch_text_is_the_launcher_alternation_it_was_written_as():
    """LAUNCH_TEXT begins with its literal `sglang` (fast to search); it finds what
    `(?:LAUNCHER)\\b|\\bsglang\\s+serve\\b` finds."""
    import random
    import re

    from speclint.frontends.recognise import _LAUNCHER_MODULE, LAUNCH_TEXT

    written = re.compile(rf"(?:{_LAUNCHER_MODULE})\b|\bsglang\s+serve\b")
    parts = [
        "sglang",
        ".launch_server",
        "_router",
        " serve",
        "x",
        "_",
        ".",
        " ",
        "\n",
        ".bench_",
        "one_batch",
    ]
    parts += ["_server", "offline_throughput", "mark.", "-"]
    pick = random.Random(19)
    texts = ["".join(pick.choice(parts) for _ in range(pick.randint(1, 8))) for _ in range(20000)]
    assert [written.search(t) is None for t in texts] == [LAUNCH_TEXT.search(t) is None for t in texts]
    assert LAUNCH_TEXT.search("python -m sglang.launch_server --tp 2")
    assert not LAUNCH_TEXT.search("my_sglang serve") and LAUNCH_TEXT.search("(sglang serve)")
