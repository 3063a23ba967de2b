"""A notebook cell that starts with `%%writefile NAME` writes its text to a file; IPython
does not run it as Python. A shell script written so (`serve.sh`, or a `#!/bin/bash` first
line), which a later cell runs, is read as a script; another file (`job.yaml`), and a cell
of another language (`%%html`), is said not read where it runs the launcher. Before, all
of them were parsed as Python: a syntax-error warning, and the notebook's launch unread."""

from __future__ import annotations

from fixture_file import FixtureFile

NOTEBOOK = FixtureFile("notebooks/writefile_cells.ipynb")


def test_a_shell_script_written_by_writefile_is_read() -> None:
    found = NOTEBOOK.findings()
    assert (
        "SPD001",
        21,
        92,
        "16",
        "`--speculative-num-draft-tokens 16` is ignored: with `--speculative-eagle-topk 1` SGLang "
        "sets speculative_num_draft_tokens to speculative_num_steps + 1 = 4 and runs with 4, "
        "not 16 (it logs one warning)",
    ) in found
    assert not [f for f in found if f[0] == "SLM001"]


def test_another_written_file_is_said_not_read() -> None:
    assert (
        "SLM005",
        42,
        15,
        "python3 -m sglang.launch_server",
        "speclint did not read the command that runs `python3 -m sglang.launch_server` in this code "
        "block (the cell is written to `job.yaml` by `%%writefile`, a file speclint does not read "
        "from a notebook), so nothing in this launch was checked",
    ) in NOTEBOOK.findings()


def test_a_cell_of_another_language_is_said_not_read() -> None:
    assert (
        "SLM005",
        52,
        11,
        "python -m sglang.launch_server",
        "speclint did not read the command that runs `python -m sglang.launch_server` in this code "
        "block (`%%html` runs the cell as another language, not as Python or shell), so nothing "
        "in this launch was checked",
    ) in NOTEBOOK.findings()


def test_a_raw_cell_holding_a_command_is_said_not_read() -> None:
    """A raw cell is not run (nbconvert copies it as it is): before, a notebook with another
    launch read was "All checks passed" over the command in one."""
    assert (
        "SLM005",
        61,
        26,
        "python3 -m sglang.launch_server",
        "speclint did not read the command that runs `python3 -m sglang.launch_server` in this code "
        "block (it is a raw cell, which the notebook does not run), so nothing in this launch was "
        "checked",
    ) in NOTEBOOK.findings()
