"""Property-based and mutation tests of the Python (libcst), YAML (PyYAML) and Markdown
front-ends through `lint_text`, and hostile Python: any bytes, and any mangling of the real
fixtures, give findings with valid locations, never an exception, in bounded time and
memory. SPECLINT_FUZZ_EXAMPLES=2000 runs a longer campaign than the default. Hostile YAML,
Markdown and files: test_hostile_yaml_markdown.py."""

from __future__ import annotations

import os
import time
import tracemalloc
from pathlib import Path

import pytest
from frontend_checks import DEEP, LAUNCH_PY, PY, check, located
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from speclint.engine import lint_text

EXAMPLES = int(os.environ.get("SPECLINT_FUZZ_EXAMPLES", "40"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize="SPECLINT_FUZZ_EXAMPLES" not in os.environ,
    suppress_health_check=list(HealthCheck),
)
ROOT = Path(__file__).resolve().parent.parent / "fixtures"


def _seeds(folder: str, *patterns: str) -> list[str]:
    paths = sorted(p for pattern in patterns for p in (ROOT / folder).glob(pattern))
    return [p.read_text(encoding="utf-8", errors="replace") for p in paths]


SEEDS = {
    "x.py": _seeds("python", "*.py"),
    "x.yaml": _seeds("k8s", "*.yaml") + _seeds("compose", "*.yml"),
    "x.md": _seeds("markdown", "*.md"),
    "x.rst": _seeds("rst", "*.rst"),
    "Dockerfile": _seeds("docker", "*"),
    ".github/workflows/x.yml": _seeds("actions", ".github/workflows/*.yml"),
    "config.yaml": _seeds("config", "*.yaml") + _seeds("config", "recipes/*.yaml"),
}
HEADER = {
    "x.py": "import sglang\n",
    "x.yaml": "# sglang\n",
    "x.md": "sglang\n",
    "x.rst": "sglang\n",
    "Dockerfile": "# sglang\n",
    ".github/workflows/x.yml": "# sglang\n",
    "config.yaml": "model-path: m\n",
}
FLAGS = [
    "--model-path",
    "--tp-size",
    "--tp",
    "8",
    "--speculative-algorithm",
    "EAGLE3",
    "--speculative-eagle-topk",
    "--speculative-num-steps",
    "--port",
    "sglang.launch_server",
    "python -m sglang.launch_server ",
    "sglang serve ",
    "/models/llama",
]
COMMON = [
    '"',
    "'",
    "\\",
    "\0",
    "\ufeff",
    "\udcff",
    "\r\n",
    "\n",
    " ",
    "\t",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "#",
    ":",
    ",",
    "=",
    "$X",
    "${A}",
    "`",
    "\xff",
    "\u2028",
] + FLAGS
VOCABULARY = {
    "x.py": COMMON
    + [
        '"""',
        "'''",
        "f'{",
        "}'",
        "rb'",
        "\\N{",
        "import subprocess\n",
        "subprocess.run(",
        "shell=True",
        "os.execvp(",
        "sgl.Engine(",
        "ServerArgs(",
        "**",
        "*",
        "lambda: ",
        "if x:\n    ",
        "else:\n",
        "def f():\n  ",
        "class C:\n ",
        "cmd += ",
        ".append(",
        ".extend(",
        ".update(",
        "env=",
        "dict(",
        " + ",
        "match x:\n case 1:\n  ",
        "async ",
        "await ",
        "@d\n",
        ";",
        "\\\n",
        "x = ",
    ],
    "x.yaml": COMMON
    + [
        "- ",
        "? ",
        ": ",
        "&a ",
        "*a",
        "<<: *a",
        "!!python/object/apply:os.system ",
        "!!binary ",
        "!tag ",
        "|\n  ",
        ">-\n  ",
        "---\n",
        "...\n",
        "%YAML 1.1\n",
        "containers:\n  - ",
        "command: [",
        "args:\n  - ",
        "env:\n  - name: X\n    value: ",
        "services:\n  s:\n    ",
        "entrypoint: ",
        "image: lmsysorg/sglang:v0.5.6",
        "bash -c '",
        "  ",
        "    ",
    ],
    "x.md": COMMON
    + [
        "```",
        "```bash\n",
        "```python\n",
        "```console\n$ ",
        "~~~",
        "````",
        "\n```\n",
        "$ ",
        "> ",
        "    ",
        "<!-- speclint: disable=FLG001 -->",
        "# ",
        "* ",
        "```sh",
        "```py\nimport subprocess\nsubprocess.run('",
        "bash -c '",
    ],
    "x.rst": COMMON
    + [
        ".. code-block:: bash\n",
        ".. code-block:: python\n",
        ".. code:: console\n\n   $ ",
        ".. prompt:: bash $ auto\n\n   ",
        ".. highlight:: ",
        ".. note::\n\n   ",
        ".. ",
        "..\n",
        "::\n\n",
        "\\::",
        "   :caption: x\n",
        "   :linenos:\n",
        "\n\n   ",
        "   ",
        "\t",
        "- ",
        "#. ",
        "====\n",
    ],
    "Dockerfile": COMMON
    + [
        "FROM ",
        "CMD ",
        "ENTRYPOINT ",
        "ENV ",
        "ARG ",
        "RUN <<EOF\n",
        "EOF\n",
        "\\\n",
        '["python3", "-m", "sglang.launch_server"',
        '", "',
        "]",
        " AS b\n",
        "FROM b\n",
        "# escape=`\n",
        "`\n",
        "${A:-",
        "${A:+",
        "$A",
        "=",
        "lmsysorg/sglang:v0.5.6",
    ],
    ".github/workflows/x.yml": COMMON
    + [
        "on: push\n",
        "jobs:\n  a:\n    ",
        "steps:\n      - ",
        "run: |\n  ",
        "run: >-\n  ",
        "${{ matrix.tp }}",
        "${{",
        "}}",
        "env:\n  X: ",
        "container: ",
        "shell: python\n",
        "defaults: {run: {shell: sh}}\n",
    ],
    "config.yaml": COMMON
    + [
        "model-path: ",
        "tp-size: ",
        "tp_size: ",
        "enable-dp-attention: true\n",
        "- ",
        "&a ",
        "*a",
        "{a: 1}",
        "[1, 2]",
        "sglang_config:\n  prefill:\n    ",
        "kind: ConfigMap\ndata:\n  config.yaml: |\n    ",
        "null",
        "~",
        "2.5e-3",
    ],
}
KINDS = sorted(SEEDS)


def _mutate(text: str, path: str, data) -> str:
    for _ in range(data.draw(st.integers(1, 5))):
        where = data.draw(st.integers(0, len(text)))
        action = data.draw(
            st.sampled_from(["truncate", "insert", "delete", "flip", "crlf", "bom", "dup", "nul"])
        )
        if action == "truncate":
            text = text[:where]
        elif action == "insert":
            text = text[:where] + data.draw(st.sampled_from(VOCABULARY[path])) + text[where:]
        elif action == "delete":
            text = text[:where] + text[where + data.draw(st.integers(1, 20)) :]
        elif action == "flip":
            byte = data.draw(st.integers(0, 255))
            text = text[:where] + bytes([byte]).decode("latin-1") + text[where + 1 :]
        elif action == "crlf":
            text = text.replace("\n", "\r\n")
        elif action == "bom":
            text = "\ufeff" + text
        elif action == "nul":
            text = text[:where] + "\0" + text[where:]
        else:
            text = text[:where] + text[max(0, where - 200) : where] + text[where:]
    return text


# ---- property-based ------------------------------------------------------------------------


@FUZZ
@given(st.sampled_from(KINDS), st.binary(max_size=1500))
def test_random_bytes(path, data):
    check(HEADER[path] + data.decode("utf-8", errors="replace"), path)


@FUZZ
@given(st.sampled_from(KINDS), st.data())
def test_random_tokens(path, data):
    parts = data.draw(st.lists(st.sampled_from(VOCABULARY[path]) | st.text(max_size=6), max_size=60))
    check(HEADER[path] + "".join(parts), path)


@FUZZ
@given(st.sampled_from(KINDS), st.data())
def test_mutated_fixtures(path, data):
    seed = data.draw(st.sampled_from(SEEDS[path]))
    check(_mutate(seed, path, data), path)


def test_seeds_exist():
    assert len(SEEDS["x.py"]) >= 4 and len(SEEDS["x.yaml"]) >= 3 and SEEDS["x.md"]
    assert (
        len(SEEDS["Dockerfile"]) >= 3 and SEEDS[".github/workflows/x.yml"] and len(SEEDS["config.yaml"]) >= 4
    )


# ---- hostile Python --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "expression",
    [
        "[" * DEEP + "]" * DEEP,  # libcst's native parser crashed the process (SIGSEGV)
        "f(" * DEEP + ")" * DEEP,
        "(" * DEEP + "1" + ")" * DEEP,
        "{'a': " * DEEP + "1" + "}" * DEEP,
        "a" + " + a" * DEEP,  # quadratic in libcst: minutes, then RecursionError
        "-" * DEEP + "1",
        "not " * DEEP + "a",
        "'a' " * DEEP,
        "a" + ".b()" * DEEP,
        "lambda: " * DEEP + "1",
        "a if b else " * DEEP + "c",
        "f'{" + "[" * DEEP + "]" * DEEP + "}'",
        "[x " + "for x in y " * DEEP + "]",
    ],
)
def test_deep_python_is_a_located_finding(expression):
    start = time.monotonic()
    result = lint_text(PY + "x = " + expression + "\n" + LAUNCH_PY, "deep.py")
    [(line, column)] = located(result, "Python nested too deeply")
    assert line == 2 and 5 <= column <= 2000, column
    assert time.monotonic() - start < 5


def test_deep_python_in_markdown_points_into_the_markdown_file():
    text = "# Doc\n\n```python\nimport sglang\nx = " + "[" * DEEP + "]" * DEEP + "\n```\n"
    assert located(lint_text(text, "deep.md"), "nested too deeply") == [(5, 105)]  # x = [[[...


def test_deep_python_backslash_continuations():
    result = lint_text(PY + "x = a" + " \\\n + a" * DEEP + "\n# sglang\n", "deep.py")
    assert located(result, "nested too deeply")


def test_moderate_nesting_is_still_read():
    """Under the bounds the file is linted as before."""
    text = (
        PY
        + "x = "
        + "[" * 90
        + "]" * 90
        + "\ny = a"
        + " + a" * 150
        + "\n"
        + LAUNCH_PY.replace("'--tp-size'", "'--tp-szie'")
    )
    result = lint_text(text, "ok.py")
    assert any(f.code == "FLG001" and f.span.line == 4 for f in result.findings), result.findings


def test_deeply_indented_python_is_a_finding_not_a_crash():
    text = (
        PY
        + "".join(" " * i + "if x:\n" for i in range(99))
        + " " * 99
        + "y = "
        + "[" * 60
        + "]" * 60
        + "\n"
        + LAUNCH_PY
    )
    result = lint_text(text, "indent.py")
    assert all(f.span.line >= 1 for f in result.findings)


@pytest.mark.parametrize(
    "line",
    [
        "a = ['--x']\n" + "a = a + a\n" * 40,
        "a = '--x '\n" + "a = a + a\n" * 40,
        "a = '--x '\n" + "a = f'{a}{a}'\n" * 40,
        "a = ['--x']\n" + "a += a\n" * 40,
        "a = ['--x']\n" + "a.extend(a)\n" * 40,
        "a = ['--x']\n" + "a = [' '.join(a), ' '.join(a)]\n" * 40,
        "a = {'a': 1}\n" + "a = {'x': a, 'y': a}\n" * 40,
        "a = {'a': 1}\n" + "a = dict(x=a, y=a)\n" * 40,
        "a = ['--x']\n" + "a = [*a, *a]\n" * 40,
        "a = {'--x': 1}\n" + "a.update({**a, **{k: a for k in a}}, z=a)\n" * 40,
        "s = '" + "x" * 60_000 + "'\n" + "a = [" + ", ".join(["s"] * 1000) + "]\n",
    ],
)
def test_python_values_doubling_stay_small(line):
    """`a = a + a` forty times is a terabyte: past 64 KiB or 4096 elements the value is unknown."""
    text = (
        PY + line + "import sglang\nsubprocess.run(['python', '-m', 'sglang.launch_server', *a])\n"
        "subprocess.run('python -m sglang.launch_server ' + str(a), shell=True)\n"
        "os.execl('python', 'python', '-m', 'sglang.launch_server', *a, *a, *a)\nsglang.Engine(**a)\n"
    )
    tracemalloc.start()
    start = time.monotonic()
    try:
        lint_text(text, "bomb.py")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert time.monotonic() - start < 10 and peak < 300 * 1024 * 1024, peak


def test_a_long_string_repeated_in_many_calls_is_bounded(monkeypatch):
    monkeypatch.setattr("speclint.frontends.shell.embedded.MAX_SHELL_CHARS", 512 * 1024)
    text = (
        PY
        + "s = '--x "
        + "y" * 60_000
        + "'\n"
        + "subprocess.run(['python', '-m', 'sglang.launch_server', s])\n" * 200
    )
    start = time.monotonic()
    result = lint_text(text, "many.py")
    assert time.monotonic() - start < 20
    assert located(result, "more than 512 KiB of shell text")[0][0] > 2


def test_dict_keys_are_set_in_constant_time():
    """Keys were set by rebuilding the entry list each time: quadratic in a big dict literal."""
    from speclint.core.spans import Span
    from speclint.frontends.python.values import Entries, Entry, Val

    span = Span.point(1, 1)
    entries = Entries()
    for i in range(100_000):
        entries.set(Entry(f"k{i % 75_000}", span, Val("const", span, 0, 1, i)))
    # each set appends one slot (a replaced key's old slot is emptied), never rebuilds
    assert len(entries.items) == 100_000
    keys = [entry.key for entry in entries.list()]
    assert len(keys) == 75_000 and keys[0] == "k25000" and keys[-1] == "k24999"  # set again: last
    text = (
        PY
        + "cfg = {"
        + ", ".join(f"'k{i}': {i}" for i in range(200))
        + ", 'k1': 'x'}\n"
        + "import sglang\nsglang.Engine(model_path='m', **cfg)\n"
    )
    assert lint_text(text, "dict.py").contexts


def test_python_lone_carriage_returns_end_lines():
    """libcst counts a lone CR as a line end; positions counted only LFs (IndexError)."""
    result = lint_text("import sglang\r\rsglang.Engine(\r\nmodel_path='m', tp_szie=2)\n", "cr.py")
    assert [(f.code, f.span.line, f.span.column) for f in result.findings] == [("FLG001", 4, 17)]


def test_python_lone_carriage_returns_end_statements_for_the_nesting_prescan():
    """The pre-scan counted only LFs as line ends: a CR-only file of 100 statements was
    "nested too deeply"."""
    text = ("import sglang\n" + "x = a + b\n" * 300 + "sglang.Engine(model_path='m', tp_szie=2)\n").replace(
        "\n", "\r"
    )
    assert [f.code for f in lint_text(text, "cr.py").findings] == ["FLG001"]


def test_python_nul_inside_a_string_literal():
    """libcst reads it; `evaluated_value` (ast.literal_eval) raised SyntaxError."""
    check("import sglang\nx = 'a\0b'\nsglang.Engine(model_path=x, tp_size=2)\n", "nul.py")


def test_many_names_and_branches_are_linear():
    """Each if/for/class copied the whole environment and merged every name (quadratic)."""
    text = (
        "import sglang\n"
        + "".join(f"a{i} = {i}\n" for i in range(3000))
        + "if x:\n  a1 = 3\nelse:\n  a2 = 4\n" * 600
        + "for i in x:\n  a3 = i\n" * 600
        + "class C:\n  a1 = 5\n" * 600
        + "sglang.Engine(model_path='m', tp_szie=a1)\n"
    )
    start = time.monotonic()
    result = lint_text(text, "names.py")
    assert time.monotonic() - start < 5
    assert any(f.code == "FLG001" for f in result.findings)


@pytest.mark.parametrize(
    "text",
    [
        "import sglang\n\0x = 1\n",
        "import sglang\nx = '\udcff'\n",
        "\ufeffimport sglang\r\n" + LAUNCH_PY.replace("\n", "\r\n"),
        "import sglang\nx = '" + "a" * (1 << 20) + "'\n" + LAUNCH_PY,
        "import sglang\nx = '''unterminated\n" + LAUNCH_PY,
        "import sglang\n" + "(" * 300,
        "import sglang\nif a: pass\n" + "elif b: x = 1\n" * 600 + LAUNCH_PY,  # libcst: KeyError, not
        "import sglang\nif a: pass\n" + "elif b: x = 1\n" * 3000 + LAUNCH_PY,  # RecursionError
    ],
)
def test_odd_python_never_raises(text):
    check(PY + text, "odd.py")
