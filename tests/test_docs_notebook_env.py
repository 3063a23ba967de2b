"""A notebook sets the kernel's environment (`%env NAME=value`, IPython's `set_env`; or
`os.environ["NAME"] = "value"`) and a later `!` command inherits it: the launch is checked
with that environment, the finding at the value where the notebook writes it. Before, the
value was not seen ("All checks passed" for a `--tp 2` on the one GPU `%env` leaves)."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text

DOC = FixtureFile("notebooks/env_magic.ipynb")


def test_an_env_magic_in_an_earlier_cell_is_the_launch_s_environment() -> None:
    assert (
        "PAR001",
        14,
        32,
        "0",
        "CUDA_VISIBLE_DEVICES=0 leaves 1 GPU visible (indices 0-0), but tp 2 makes SGLang start 2 "
        "workers on GPU indices up to 1: the workers on indices 1 fail when they select their "
        "device (CUDA: invalid device ordinal)",
    ) in DOC.findings()


def test_os_environ_and_an_expanded_env_value_give_no_false_finding() -> None:
    # "0,1" suits --tp 2; `$gpus` is expanded by IPython from the kernel: not known here
    assert [f[:2] for f in DOC.findings() if f[0] == "PAR001"] == [("PAR001", 14)]


def test_os_environ_sets_the_value_a_later_command_sees() -> None:
    text = DOC.text.replace('\\"0,1\\"', '\\"3\\"')
    found = [(f.code, f.span.line, f.span.column) for f in lint_text(text, "nb.ipynb").findings]
    assert ("PAR001", 33, 47) in found  # at the `3` of `os.environ[\"CUDA_VISIBLE_DEVICES\"] = \"3\"`


def test_an_env_set_after_a_command_in_its_cell_does_not_reach_it() -> None:
    source = (
        "```python\n!python -m sglang.launch_server --model-path /m --tp 2\n"
        "%env CUDA_VISIBLE_DEVICES=0\n```\n"
    )
    assert not [f for f in lint_text(source, "doc.md").findings if f.code == "PAR001"]
