"""A pasted IPython terminal session (`In [1]: `, `   ...: ` on a statement's further lines,
`Out[1]:` output) in an untagged block: read as a notebook cell is, `!` lines as shell and the
rest as Python; a plain interpreter session (`>>> `) in an untagged block too, unless a shell
prompt shows the block is a shell session. Before, the block was read as shell and the launch
reported not read."""

from __future__ import annotations

from fixture_file import FixtureFile

DOC = FixtureFile("markdown/ipython_session.md")


def test_a_shell_escape_after_an_ipython_prompt_is_read_through_its_continued_lines() -> None:
    assert (
        "SPD001",
        8,
        71,
        "16",
        "`--speculative-num-draft-tokens 16` is ignored: with `--speculative-eagle-topk 1` SGLang "
        "sets speculative_num_draft_tokens to speculative_num_steps + 1 = 4 and runs with 4, "
        "not 16 (it logs one warning)",
    ) in DOC.findings()


def test_python_after_ipython_prompts_is_read_and_its_output_skipped() -> None:
    found = DOC.findings()
    assert (
        "SPD001",
        17,
        42,
        "6",
        "`speculative_num_draft_tokens=6` is ignored: with `speculative_eagle_topk=1` SGLang sets "
        "speculative_num_draft_tokens to speculative_num_steps + 1 = 3 and runs with 3, not 6 "
        "(it logs one warning)",
    ) in found
    assert not [f for f in found if f[0] in ("SLM001", "SLM005")]  # `Out[3]:` is no code


def test_an_untagged_interpreter_session_is_read_as_python() -> None:
    assert (
        "SPD001",
        26,
        161,
        "12",
        "`speculative_num_draft_tokens=12` is ignored: with `speculative_eagle_topk=1` SGLang sets "
        "speculative_num_draft_tokens to speculative_num_steps + 1 = 5 and runs with 5, not 12 "
        "(it logs one warning)",
    ) in DOC.findings()


def test_a_shell_session_that_then_runs_python_stays_shell() -> None:
    assert ("SPD001", 32, 175, "10") in [f[:4] for f in DOC.findings()]
