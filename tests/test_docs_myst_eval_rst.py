"""A MyST page (Markdown for Sphinx) holds reStructuredText in a ```{eval-rst} fence: its
`.. code-block:: bash` is read as in an .rst file, positions in the Markdown file. A
template's variable in a command (`lmsysorg/sglang:{{ sglang_version }}`, filled in when the
site is built) is an unknown value, not three shell words. Before, neither launch was read:
the page got one "no launch found" note."""

from __future__ import annotations

from fixture_file import FixtureFile

DOC = FixtureFile("markdown/myst_eval_rst_and_template.md")


def _ignored(tokens: int, steps: int) -> str:
    return (
        f"`--speculative-num-draft-tokens {tokens}` is ignored: with `--speculative-eagle-topk 1` SGLang "
        f"sets speculative_num_draft_tokens to speculative_num_steps + 1 = {steps + 1} and runs with "
        f"{steps + 1}, not {tokens} (it logs one warning)"
    )


def test_an_eval_rst_code_block_is_read_at_its_markdown_position() -> None:
    assert ("SPD001", 12, 90, "16", _ignored(16, 3)) in DOC.findings()


def test_a_template_variable_in_the_image_leaves_the_launch_read() -> None:
    found = DOC.findings()
    assert ("SPD001", 21, 87, "8", _ignored(8, 2)) in found
    assert not [f for f in found if f[0] == "SLM005"]
