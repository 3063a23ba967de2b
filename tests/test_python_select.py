"""select: libcst reads only the statements a big file's launches need, with the
same launches, diagnostics and comments as reading the whole file, in bounded time.
SPECLINT_FUZZ_EXAMPLES=2000 runs a longer differential campaign than the default."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import speclint.frontends.python.extract as front_end
from speclint.engine import lint_text
from speclint.frontends.python.container_specs import ECS_CONTAINERS, K8S_CONTAINERS
from speclint.frontends.python.extract import extract_python
from speclint.frontends.python.handed_names import HANDED_NAMES
from speclint.frontends.python.ipython_calls import METHODS as IPYTHON_METHODS
from speclint.frontends.python.launch import (
    _ARGV_CALLS,
    _EXEC_L,
    _EXEC_V,
    _SHELL_CALLS,
    LAUNCH_NAMES,
)
from speclint.frontends.python.launch_apis import API_CALLS
from speclint.frontends.python.nox_sessions import NOX_RUNS
from speclint.frontends.reading import MAX_FILE_BYTES
from speclint.frontends.recognise import SHELL_HELPERS
from speclint.sglang.launch_classes import class_names

EXAMPLES = int(os.environ.get("SPECLINT_FUZZ_EXAMPLES", "25"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize="SPECLINT_FUZZ_EXAMPLES" not in os.environ,
    suppress_health_check=list(HealthCheck),
)
FIXTURES = sorted((Path(__file__).resolve().parent.parent / "fixtures" / "python").glob("*.py"))
SEEDS = [p.read_text() for p in FIXTURES]
LAUNCH = "subprocess.run(['python', '-m', 'sglang.launch_server', '--model-path', 'm', '--tp-szie', '2'])\n"
FILLER = (
    'def helper_{i}(a, b=None):\n    """Add things."""\n    x = a + {i}  # note {i}\n'
    "    for j in range(3):\n        x += j\n    return [x, b, {{'k': x}}]\n\n\n"
)
PIECES = [
    "EXTRA = ['--tp-szie', '2']\n",
    "EXTRA += ['--port', '1']\n",
    "EXTRA.append('--tp')\n",
    "for EXTRA in y:\n    pass\n",
    "if c: EXTRA = ['--x']\nelse: EXTRA = ['--y']\n",
    "from subprocess import Popen as P\n",
    "P(['python', '-m', 'sglang.launch_server', *EXTRA])\n",
    "from os import system as sh\n",
    "sh('python -m sglang.launch_server --tp-szie 2')\n",
    "def f():\n    cmd = ['sglang', 'serve'] + EXTRA\n    subprocess.run(cmd)\n",
    "class C:\n    a = 1\n    def run(self):\n        # speclint: disable=FLG001\n        os.system('sglang serve --tp-szie 3')\n",
    "cfg = {'model_path': 'm'}\n",
    "cfg['tp_szie'] = 2\n",
    "sglang.Engine(**cfg)\n",
    "x = 1; y = 2; subprocess.run(['sglang', 'serve', '--tp', str(y)])\n",
    "try:\n    import sglang\nexcept ImportError:\n    sglang = None\n",
    "while x:\n    if y: break\n    os.execvp('python3', ['python3', '-m', 'sglang.launch_server', *EXTRA])\n",
    "match v:\n    case 1:\n        EXTRA = ['--tp', '1']\n    case _:\n        z = 3\n",
    "s = '''\n# not a comment\n'''  # a comment\n",
    "# speclint: disable=FLG001\n",
    "\n",
    "@d\ndef start(p=1):\n    return launch_server_cmd(f'sglang serve --port {p} --tp-szie 2')\n",
    "MOD = 'sglang.launch_server'\n",
    "PREFIX = 'python -m ' + MOD\n",
    "worker.start(x)\n",
    "def go():\n    run_server(PREFIX + ' --tp-szie 2')\n",
    "runner.start(f'python -m {MOD} --tp-szie 3')\n",
    "helper.exec_cmd('python -m sglang.launch_server --tp-szie 4')\n",
    "x = (subprocess.run\n     (['sglang', 'serve', '--tp-szie', '5']))\n",
    "cmd = EXTRA + ['--y']\n",
    "subprocess.run(['nvidia-smi'])\n",
    "os.system('pip install x')\n",
    "GIT = ['git', 'status']\n",
    "subprocess.check_call(GIT)\n",
    "os.execvp('python3', ['python3', '-m', MOD])\n",
] + [FILLER.format(i=i) for i in range(3)]


def _read(text: str, select: bool, monkeypatch) -> tuple[str, str, str]:
    monkeypatch.setattr(front_end, "SELECT_MIN_CHARS", 0 if select else 1 << 30)
    result = extract_python(text, "x.py")
    return repr(result.launches), repr(result.diagnostics), repr(result.comments)


def _same(text: str, monkeypatch) -> None:
    whole = _read(text, False, monkeypatch)
    assert _read(text, True, monkeypatch) == whole


@pytest.mark.parametrize("seed", range(len(SEEDS)))
@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_fixtures_read_the_same(seed, newline, monkeypatch):
    _same(SEEDS[seed].replace("\n", newline), monkeypatch)


@FUZZ
@given(
    st.lists(st.sampled_from(PIECES + SEEDS), min_size=1, max_size=12),
    st.sampled_from(["", "\ufeff"]),
    st.sampled_from(["\n", "\r\n"]),
    st.data(),
)
def test_composed_files_read_the_same(parts, bom, newline, data):
    """Launches reading names set far away, aliases, branches, blocks, comments; then a
    insertion (syntax errors take the confirming path). Not a backslash-newline between
    statements: libcst loses a line there, and the positions after it, reading the whole file."""
    text = bom + "import os\nimport subprocess\nimport sglang\n" + "".join(parts).replace("\n", newline)
    if data.draw(st.booleans()):
        where = data.draw(st.integers(0, len(text)))
        text = (
            text[:where]
            + data.draw(st.sampled_from(["(", ")", ":", "\n  x = ", "'", "\0", "#", ""]))
            + text[where:]
        )
    with pytest.MonkeyPatch.context() as monkeypatch:
        _same(text, monkeypatch)


def test_every_recognised_name_is_a_launch_name():
    names = [
        *_ARGV_CALLS,
        *_EXEC_V,
        *_EXEC_L,
        *_SHELL_CALLS,
        *SHELL_HELPERS,
        "asyncio.create_subprocess_exec",
        "sglang.Engine",
        "ServerArgs",
        "popen_launch_server",
        "popen_launch_pd_server",
        "prepare_server_args",
        *class_names(),  # sglang.Runtime, HttpServerEngineAdapter: as SGLang's releases name them
        "ServerArgs.from_cli_args",
        *API_CALLS,  # docker-py, SkyPilot, pexpect
        *(f"session.{name}" for name in NOX_RUNS),  # a nox session's run
        *K8S_CONTAINERS,  # kubernetes.client.V1Container, Pulumi's ContainerArgs
        *ECS_CONTAINERS,  # the AWS CDK's add_container, ContainerDefinition
        "aiplatform.Model.upload",  # Vertex AI's serving container
        *HANDED_NAMES,  # Thread(target=subprocess.run, ...), executor.submit(Popen, ...)
        *(f"get_ipython().{method}" for method in IPYTHON_METHODS),  # an exported notebook's `!cmd`
    ]
    assert {name.rsplit(".", 1)[-1] for name in names} == LAUNCH_NAMES


def _big(middle: str, size: int = MAX_FILE_BYTES - 4096) -> str:
    """About a megabyte of helper functions, one of them holding a suppression comment
    that nothing uses, then `middle`."""
    head = "import os\nimport subprocess\nimport sglang\nEXTRA = ['--tp-szie', '2']\n"
    chunks, total, i = [head], len(head), 0
    while total < size:
        chunk = (
            FILLER.format(i=i).replace("# note", "# speclint: disable=SPD001")
            if i == 100
            else FILLER.format(i=i) + (middle if i == 3000 else "")
        )
        chunks.append(chunk)
        total += len(chunk)
        i += 1
    return "".join(chunks)


def test_a_megabyte_of_code_with_one_launch_is_fast():
    """libcst on the whole file took 20-30 s; the launch reads a name set 100 KiB before,
    and the comments of the functions left out are still read (an unused suppression)."""
    text = _big(
        "def go():\n    subprocess.run(['python', '-m', 'sglang.launch_server', '--model-path', "
        "'m', *EXTRA])\n\n\n"
    )
    start = time.process_time()  # CPU spent: a hang guard that a busy machine cannot trip
    result = lint_text(text, "big.py")
    assert time.process_time() - start < 10
    unused = text[: text.index("# speclint: disable")].count("\n") + 1
    assert [(f.code, f.span.line) for f in result.findings] == [("FLG001", 4), ("SLM003", unused)]


def test_a_syntax_error_at_the_end_of_a_megabyte_is_located_fast():
    text = _big("") + "x = = 1\n"
    start = time.process_time()  # CPU spent: a hang guard that a busy machine cannot trip
    [diagnostic] = extract_python(text, "big.py").diagnostics
    assert time.process_time() - start < 10
    assert diagnostic.kind == "syntax-error" and diagnostic.span.line == text.count("\n")


def test_an_open_bracket_early_in_a_megabyte_is_located_fast():
    """libcst only finds an open bracket at the end of the file (7 s for this one)."""
    text = "import sglang\nx = (\n" + "1,\n" * 300_000
    start = time.process_time()  # CPU spent: a hang guard that a busy machine cannot trip
    [diagnostic] = extract_python(text, "big.py").diagnostics
    assert time.process_time() - start < 10
    assert (diagnostic.kind, diagnostic.span.line, diagnostic.span.column) == ("syntax-error", 2, 5)


def _kept(text: str) -> str:
    from speclint.frontends.python.positions import python_line_starts as _line_starts
    from speclint.frontends.python.select import select

    return select(text, _line_starts(text)).text


def test_writers_are_looked_for_in_the_scopes_a_reader_sees():
    text = (
        "import subprocess\ncmd = ['sglang', 'serve']\n"
        "def other():\n    cmd = 'unrelated'\n    return cmd\n"
        "def launch():\n    subprocess.run(cmd + ['--tp', '2'])\n"
        "class C:\n    cmd = 1\n    def m(self):\n        cmd.append('--x')\n"
    )
    kept = _kept(text)
    assert "cmd = ['sglang', 'serve']" in kept and "subprocess.run" in kept
    assert "unrelated" not in kept and "cmd = 1" not in kept and "append" not in kept


def test_generic_helpers_are_kept_where_sglang_can_reach_them():
    """A generic helper hands its text to the shell front-end only when it spells a launch;
    a launch call always does (its shell syntax errors, comments and share of the shell
    text budget count even without a launch)."""
    text = (
        "import os, subprocess\nMOD = 'sglang.launch_server'\nPREFIX = 'python -m ' + MOD\nOTHER = 'x'\n"
        "def a():\n    worker.start(OTHER)\n"
        "def b():\n    runner.start(PREFIX + ' --tp 2')\n"
        "def c():\n    thread.start_soon('python -m sglang.launch_server')\n"
        "def d():\n    subprocess.run(['git', 'status'])\n"
    )
    kept = _kept(text)
    assert all(part in kept for part in ("runner.start", "start_soon", "PREFIX = ", "MOD = ", "git"))
    assert "worker.start" not in kept and "OTHER" not in kept


def test_a_crowded_fstring_goes_to_libcst_whole():
    """CPython 3.11 parses an f-string in time quadratic in its fields (70 s for a
    megabyte of `{a}`); libcst is linear."""
    from speclint.frontends.python.positions import python_line_starts as _line_starts
    from speclint.frontends.python.select import MAX_FSTRING_FIELDS, select

    text = "import sglang\nx = f'" + "{a}" * (MAX_FSTRING_FIELDS + 1) + "'\n" + LAUNCH
    assert select(text, _line_starts(text)) is None
    split = text.replace("{a}", "{a}'\nx = f'", 1)  # two f-strings, MAX_FSTRING_FIELDS in the second
    assert select(split, _line_starts(split)) is not None
