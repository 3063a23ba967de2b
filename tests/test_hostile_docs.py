"""Hostile input for the documentation front-ends (markdown-it Markdown, Jupyter notebooks, rst):
malformed, huge, deeply nested or binary text gives located findings, never an exception,
in bounded time; plus property-based mangling of the doc fixtures."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from frontend_checks import check, located
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from speclint.engine import lint_text
from speclint.frontends.docs.markdown import extract_markdown
from speclint.frontends.docs.notebook import extract_notebook

ROOT = Path(__file__).resolve().parent.parent / "fixtures"
LAUNCH = "python -m sglang.launch_server --model-path m --tp-szie 2"
EXAMPLES = int(os.environ.get("SPECLINT_FUZZ_EXAMPLES", "30"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize="SPECLINT_FUZZ_EXAMPLES" not in os.environ,
    suppress_health_check=list(HealthCheck),
)


def notebook(*sources, kind: str = "code") -> str:
    return json.dumps({"cells": [{"cell_type": kind, "source": s} for s in sources], "nbformat": 4})


# ---- Markdown --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text,line",
    [
        ("sglang\n" + "> " * 100_000 + "`" + LAUNCH + "`\n", 2),
        ("sglang\n" + "".join("  " * i + "- x\n" for i in range(400)) + LAUNCH + "\n", None),
        ("sglang\n" + ">" * 10_000 + " ```bash\n" + LAUNCH + "\n", 2),
    ],
)
def test_deep_markdown_is_a_located_finding(text, line):
    start = time.monotonic()
    found = located(lint_text(text, "deep.md"), "Markdown nested too deeply")
    assert time.monotonic() - start < 10
    assert line is None or found[0][0] == line


def test_deep_admonitions_are_still_read():
    text = (
        "".join("    " * i + "!!! note\n" for i in range(300))
        + "    " * 300
        + "```bash\n"
        + "    " * 300
        + LAUNCH
        + "\n"
    )
    result = lint_text(text, "adm.md")
    assert [(f.code, f.span.line) for f in result.findings] == [("FLG001", 302)]


@pytest.mark.parametrize(
    "text",
    [
        "sglang " + "`" * (1 << 19),
        "sglang " + "` `` " * 50_000,
        "sglang " + "[" * 100_000 + "]" * 100_000,
        "sglang " + "*a _b " * 50_000,
        "sglang " + "[a](" * 50_000,
        "sglang <div>" * 20_000,
        "python -m sglang.launch_server --tp 2 " * 5_000,
        "`python -m sglang.launch_server --model-path m --tp 2` " * 500,
        "sglang\n" + "- `--speculative-num-steps 3`\n" * 2_000,
        "```\n" + "--speculative-num-steps 3\n" * 20_000 + "```\n",
        "sglang\n|a|b|\n|-|-|\n" + "|`python -m sglang.launch_server --tp 2`|x|\n" * 500,
        "sglang\n" + "- " * 100_000 + LAUNCH,
        "!!! note\n" * 10_000 + "sglang\n",
        "\ufeff???+ tip\r\n    ```bash\r\n    " + LAUNCH + "\r\n    ```\r\n",
        "sglang\0\udcff\x00```bash\n\0" + LAUNCH + "\n```\n`\0 sglang serve --tp\0 2`\n",
        "command: python3 -m sglang.launch_server " + "--x " * 50_000 + "\\\n" * 1000,
        "```python\n" + "!python -m sglang.launch_server \\\n" * 2000 + "```\n",
    ],
)
def test_odd_markdown_is_bounded(text):
    start = time.monotonic()
    check(text, "odd.md")
    assert time.monotonic() - start < 20


def test_many_launches_in_a_document_stop_with_a_finding():
    text = "sglang\n\n" + "".join(
        f"Run `python -m sglang.launch_server --model-path m{i} --tp 2`.\n\n" for i in range(1100)
    )
    result = lint_text(text, "many.md")
    assert any(f.code == "SLM001" and "more than 1000 launches" in f.message for f in result.findings)


# ---- notebooks -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text,needle,line",
    [
        ('{"cells": [' + "[" * 100_000 + "]" * 100_000 + '], "x": "sglang"}', "nested too deeply", 1),
        ('{"cells": [{"cell_type": "code", "source": "sglang', "invalid JSON", 1),
        ('{"cells": [{"cell_type": "code",\n "source": ["sglang"]\n', "invalid JSON", 3),
        ("sglang\0\xff" + "\0" * 100, "invalid JSON", 1),
        (notebook(["import sglang\n", "x = " + "(" * 10_000 + ")" * 10_000 + "\n"]), "nested too deeply", 1),
        (notebook("> " * 100_000 + "sglang", kind="markdown"), "Markdown nested too deeply", 1),
    ],
)
def test_hostile_notebooks_are_located_findings(text, needle, line):
    start = time.monotonic()
    found = located(lint_text(text, "bad.ipynb"), needle)
    assert time.monotonic() - start < 10
    assert found[0][0] == line


@pytest.mark.parametrize(
    "text",
    [
        notebook(*[["!" + LAUNCH + "\n"] for _ in range(300)]),
        notebook(*[["import sglang\n", "x = (\n"] for _ in range(300)]),
        notebook(["import sglang\n", "x = '" + "a" * (1 << 19) + "'\n"]),
        '{"cells": {"0": {"cell_type": 1, "source": null}}, "sglang": [1, 2.5e400, true, null]}',
        '{"cells": [{"cell_type": "code", "source": "!' + LAUNCH + '", "source": "print(1)"}]}',
        '{"cells": [{"cell_type": "code", "source": "\\ud800 import sglang\\n!' + LAUNCH + '"}]}',
        notebook([1, None, {"a": "sglang"}, ["!" + LAUNCH]]),
        notebook("!%time " + LAUNCH + "\ud800"),  # a lone surrogate in a shell escape (found by the fuzz)
        notebook("```bash\nSGLANG_ARGS=(--sglang-tp-szie 2 \ud800)\n```", kind="markdown"),
        '["sglang", {"cells": []}]',
        notebook(["%%bash\n", LAUNCH + " $(\n"]),
        notebook(["%%time\n", "%%%\n", "!!\n", "x = !\n", "!" + LAUNCH + " \\\n"]),
        notebook("```bash\n" + LAUNCH + "\n```", kind="markdown"),
        "\ufeff" + notebook(["!" + LAUNCH]).replace(", ", ",\r\n"),
    ],
)
def test_odd_notebooks_never_raise(text):
    start = time.monotonic()
    check(text, "odd.ipynb")
    assert time.monotonic() - start < 20


def test_direct_doc_front_end_calls_never_raise():
    assert extract_notebook("[" * 100_000, "x.ipynb").diagnostics
    assert extract_markdown("- " * 100_000 + "sglang", "x.md").diagnostics


# ---- fuzz --------------------------------------------------------------------------------------

NOTEBOOK = (ROOT / "notebooks/launch_server.ipynb").read_text()
MARKDOWN = [p.read_text() for p in sorted((ROOT / "markdown").glob("*.md"))]
CELL_WORDS = [
    "!",
    "%%bash\n",
    "%time ",
    "\n",
    "\\\n",
    '"""',
    "'",
    '"',
    "(",
    ")",
    "`",
    "<model>",
    "{port}",
    "[X]",
    "...",
    "launch_server_cmd(",
    "sgl.Engine(",
    "import sglang as sgl\n",
    LAUNCH,
    "--speculative-algorithm EAGLE",
    " --tp 2",
    "\ud800",
    "\0",
    "\t",
    "    ",
]
MD_WORDS = [
    "!!! note\n",
    "???+ tip\n",
    "    ",
    '=== "A"\n',
    "- `",
    "`",
    "```",
    "```python\n",
    "> ",
    "command: ",
    LAUNCH,
    " --speculative-num-steps 3",
    "SGLANG_X=1",
    "<your-model>",
    "{model}",
    "\n",
    "\\\n",
    "|",
    "1. ",
    "\r\n",
]


@FUZZ
@given(
    st.lists(st.lists(st.sampled_from(CELL_WORDS), max_size=30).map("".join), min_size=1, max_size=6),
    st.sampled_from(["code", "markdown", "raw"]),
)
def test_fuzzed_notebook_cells(sources, kind):
    check(notebook(*sources, kind=kind), "f.ipynb")
    check(notebook(*[s.splitlines(keepends=True) for s in sources]), "f.ipynb")


@FUZZ
@given(st.integers(0, len(NOTEBOOK)), st.integers(0, 200), st.text(max_size=20))
def test_mangled_notebook(at, cut, insert):
    check(NOTEBOOK[:at] + insert + NOTEBOOK[at + cut :], "m.ipynb")


@FUZZ
@given(
    st.sampled_from(MARKDOWN),
    st.lists(st.tuples(st.integers(0, 5000), st.sampled_from(MD_WORDS)), max_size=8),
)
def test_mangled_markdown(seed, edits):
    text = seed
    for at, word in edits:
        at = at % (len(text) + 1)
        text = text[:at] + word + text[at:]
    check(text, "m.md")


# ---- reStructuredText ------------------------------------------------------------------------


def test_deeply_nested_rst_directives_are_still_read():
    text = "".join("   " * i + ".. note::\n\n" for i in range(3000)) + "   " * 3000 + "Run::\n\n"
    text += "   " * 3001 + LAUNCH + "\n"
    start = time.process_time()  # (CPU time: the bound is on the work, not on the machine's load)
    result = lint_text(text, "deep.rst")
    assert time.process_time() - start < 20
    assert [(f.code, f.span.line) for f in result.findings] == [("FLG001", 6003)]


@pytest.mark.parametrize(
    "text",
    [
        "sglang\n" + "\\" * 200_000 + "::\n\n   " + LAUNCH + "\n",
        "sglang\n" + "Run::\n\n" * 50_000,
        "sglang\n" + ".. code-block:: bash\n" * 50_000,
        "sglang\n" + ".. a:" * 50_000 + "\n",
        "sglang\n.. code-block:: bash\n   " + ":x: y\n   " * 50_000 + "\n   " + LAUNCH + "\n",
        "sglang\n.. prompt:: bash $ auto\n\n" + "   $ " + LAUNCH + " \\\n" * 5_000,
        "sglang\n::\n\n" + "\t" * 100_000 + LAUNCH + "\n",
        "\ufeff.. code-block:: bash\r\n\r\n   " + LAUNCH + "\r\n",
        "sglang\0\udcff\n.. code:: sh\n\n  \0" + LAUNCH + "\n",
    ],
)
def test_odd_rst_is_bounded(text):
    start = time.monotonic()
    check(text, "odd.rst")
    assert time.monotonic() - start < 20
