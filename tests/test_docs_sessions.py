"""Pasted interactive sessions in documentation: a console command continued on lines that
start with bash's `> ` prompt, a Python interpreter session (`>>> ` / `... `, as the `doctest`
module reads it) in a Markdown fence, a reStructuredText doctest block and Sphinx's
`.. doctest::` / `.. testcode::` directives. Each launch is read and its findings point at the
token in the file."""

from __future__ import annotations

import pytest
from findings_at import findings_at

SPEC = (
    'speculative_algorithm="EAGLE", speculative_eagle_topk=1, speculative_num_steps=1, '
    "speculative_num_draft_tokens=16"
)


def located(text: str, path: str) -> list[tuple]:
    """(code, line, column, the text the finding points at) of each finding."""
    return findings_at(text, path)


def test_a_console_command_continued_after_bash_s_continuation_prompt() -> None:
    text = (
        "```console\n"
        "$ CUDA_VISIBLE_DEVICES=0,1 python -m sglang.launch_server \\\n"
        ">   --model-path /m --speculative-algorithm EAGLE \\\n"
        ">   --speculative-eagle-topk 1 --speculative-num-steps 1 --speculative-num-draft-tokens 16\n"
        "```\n"
    )
    found = located(text, "issue.md")
    assert ("SPD001", 4, 89, "16") in found
    assert not [f for f in found if f[0] == "FLG011"]  # was: no --model-path (`>` read as a redirect)


@pytest.mark.parametrize("tag", ["python", "pycon", "python-console"])
def test_a_python_interpreter_session_in_a_markdown_fence(tag: str) -> None:
    text = (
        f"```{tag}\n"
        ">>> import sglang as sgl\n"
        f'>>> llm = sgl.Engine(model_path="/m",\n'
        f"...                  {SPEC})\n"
        ">>> llm.generate('hi')\n"
        "{'text': 'hello'}\n"
        "```\n"
    )
    found = located(text, "issue.md")
    column = text.splitlines()[3].index("16") + 1
    assert ("SPD001", 4, column, "16") in found
    assert not [f for f in found if f[0].startswith("SLM")]  # no syntax error for the prompts


def test_a_python_fence_without_prompts_is_code_as_it_is() -> None:
    text = f'```python\nimport sglang as sgl\nllm = sgl.Engine(model_path="/m", {SPEC})\n```\n'
    assert ("SPD001", 3, text.splitlines()[2].index("16") + 1, "16") in located(text, "a.md")


RST = f"""Usage
=====

A doctest block:

>>> import sglang as sgl
>>> llm = sgl.Engine(model_path="/m1",
...                  {SPEC})

.. doctest:: serving

   >>> import sglang as sgl
   >>> llm = sgl.Engine(model_path="/m2", {SPEC})

.. testcode::

   import sglang as sgl
   llm = sgl.Engine(model_path="/m3", {SPEC})

.. testoutput::

   sgl.Engine(model_path="/m4", {SPEC})
"""


def test_rst_doctest_blocks_and_sphinx_doctest_directives() -> None:
    lines = RST.splitlines()
    found = [f for f in located(RST, "usage.rst") if f[0] == "SPD001"]
    expected = [(n + 1, line.index("=16") + 2) for n, line in enumerate(lines) if "=16" in line]
    assert [(line, column) for _, line, column, _ in found] == expected[:3]  # not testoutput
    assert all(token == "16" for *_, token in found)


UNIT = """[Unit]
Description=SGLang

[Service]
Environment="CUDA_VISIBLE_DEVICES=0,1"
ExecStart=/usr/bin/python3 -m sglang.launch_server \\
  --model-path /m --tp-szie 2
Restart=on-failure
"""


@pytest.mark.parametrize("tag", ["ini", "systemd", ""])
def test_a_systemd_unit_shown_in_a_markdown_fence(tag: str) -> None:
    text = f"# Run it as a service\n\n```{tag}\n{UNIT}```\n"
    lines = text.splitlines()
    line = next(n for n, content in enumerate(lines, start=1) if "--tp-szie" in content)
    assert ("FLG001", line, lines[line - 1].index("--tp-szie") + 1, "--tp-szie") in located(text, "ops.md")


def test_a_systemd_unit_in_a_rst_code_block() -> None:
    body = "".join(f"   {line}\n" if line else "\n" for line in UNIT.splitlines())
    text = f"Service\n=======\n\n.. code-block:: ini\n\n{body}"
    lines = text.splitlines()
    line = next(n for n, content in enumerate(lines, start=1) if "--tp-szie" in content)
    assert ("FLG001", line, lines[line - 1].index("--tp-szie") + 1, "--tp-szie") in located(text, "ops.rst")


def test_an_ini_fence_that_is_not_a_service_unit_is_not_read() -> None:
    text = "```ini\n[tool]\ncommand = python3 -m sglang.launch_server --tp-szie 2\n```\n"
    assert not [f for f in located(text, "a.md") if f[0] == "FLG001"]
