"""Jupyter notebooks: launches in code and Markdown cells, findings at the .ipynb file's own
line and column (inside the JSON string that writes the cell)."""

from __future__ import annotations

import json
from pathlib import Path

from findings_at import findings_at

from speclint.engine import lint_text
from speclint.frontends import extract_file

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = ROOT / "fixtures/notebooks/launch_server.ipynb"


def located(text: str, path: str = "n.ipynb") -> list[tuple]:
    return findings_at(text, path, severity=True)


def test_every_cell_form_points_into_the_notebook_file():
    found = located(NOTEBOOK.read_text())
    assert [(c, line, col, token) for c, line, col, sev, token in found if sev == "error"] == [
        ("FLG001", 9, 85, "--tp-szie"),  # inline code in a Markdown cell
        ("FLG001", 30, 38, "--speculative-num-stepz"),  # launch_server_cmd("""...""")
        ("FLG001", 43, 79, "--tp-szie"),  # !python -m sglang.launch_server (IPython shell escape)
        ("FLG001", 54, 8, "--tp-szie"),  # %%bash cell, continued line
        ("FLG001", 75, 53, "tp_szie"),  # sgl.Engine(...) after an escaped \" in the JSON string
    ]
    # a cell that does not parse is a warning at its own line; the other cells are still read
    assert ("SLM001", 63, 23, "warning", "\\n") in found  # `for x in range(3)` ends without `:`


def test_placeholders_in_shell_escapes_and_whole_string_sources():
    source = "!python -m sglang.launch_server --model-path {model} --port $PORT --tp-szie 2"
    text = json.dumps({"cells": [{"cell_type": "code", "source": source}], "nbformat": 4}, indent=1)
    [launch] = extract_file("n.ipynb", text).launches
    model = launch.args[1]
    assert model.text is None and "IPython expression (`{model}`)" in model.dynamic_reason
    found = located(text)
    assert [(code, token, line) for code, line, _, _, token in found] == [
        ("SLM004", "{model}", 5),
        ("FLG001", "--tp-szie", 5),
    ]  # on the "source" line
    note = lint_text(text, "n.ipynb").findings[0].message
    assert "an IPython expression (`{model}`), filled in when the cell runs" in note and "$PORT" in note


def test_escapes_before_a_token_keep_its_column():
    source = ['# \u00e9\\t"x"\n', "import sglang as sgl; sgl.Engine(model_path='m', tp_szie=2)  # \u00e9\n"]
    text = json.dumps({"cells": [{"cell_type": "code", "source": source}]})  # one line, \u00e9 escapes
    [(code, line, column, _, token)] = located(text)
    assert (code, line, token) == ("FLG001", 1, "tp_szie")


def test_notebook_v3_worksheets_and_unreadable_json():
    text = json.dumps(
        {
            "worksheets": [
                {
                    "cells": [
                        {
                            "cell_type": "code",
                            "input": ["!python -m sglang.launch_server --model-path m --tp-szie 2\n"],
                        }
                    ]
                }
            ],
            "nbformat": 3,
        }
    )
    assert [c for c, *_ in located(text)] == ["FLG001"]
    broken = '{"cells": [{"cell_type": "code", "source": ["import sglang\\n"]}\n'
    [(code, line, column, severity, _)] = located(broken)
    assert (code, line, severity) == ("SLM001", 2, "error")
    message = lint_text(broken, "b.ipynb").findings[0].message
    assert "invalid JSON" in message and "not checked" in message


def test_notebook_without_sglang_is_not_parsed():
    text = json.dumps({"cells": [{"cell_type": "code", "source": ["print(1)\n"]}]})
    assert lint_text(text, "n.ipynb").findings == []
