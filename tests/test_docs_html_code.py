"""A launch in an inline HTML code element (`<code>`, `<kbd>`, as issue threads and model
cards write one, also in an HTML table's cell, its lines split with `<br>`): the element's
text is read as a code span. Before, `16</code>` was read as `16` and a `<` redirection, a
false `--speculative-num-draft-tokens needs a value` error, the `<br>` parts after the first
line were silently dropped, and an HTML table's `<code>` was not read at all. An element
whose text is not shown as written (`&gt;`) is said not read."""

from __future__ import annotations

from fixture_file import FixtureFile

DOC = FixtureFile("markdown/html_code_elements.md")


def _ignored(tokens: int, steps: int) -> str:
    return (
        f"`--speculative-num-draft-tokens {tokens}` is ignored: with `--speculative-eagle-topk 1` SGLang "
        f"sets speculative_num_draft_tokens to speculative_num_steps + 1 = {steps + 1} and runs with "
        f"{steps + 1}, not {tokens} (it logs one warning)"
    )


def test_a_code_element_on_a_prose_line_is_read_to_its_end_tag() -> None:
    found = DOC.findings()
    assert ("SPD001", 3, 261, "16", _ignored(16, 3)) in found
    assert not [f for f in found if f[0] == "FLG004"]


def test_a_kbd_element_is_read_as_a_command() -> None:
    assert ("SPD001", 5, 208, "8", _ignored(8, 2)) in DOC.findings()


def test_a_table_cell_code_element_goes_on_over_its_br_breaks() -> None:
    assert ("SPD001", 9, 197, "12", _ignored(12, 4)) in DOC.findings()


def test_an_element_holding_an_entity_is_said_not_read() -> None:
    assert (
        "SLM005",
        11,
        19,
        "python3 -m sglang.launch_server",
        "speclint did not read the command that runs `python3 -m sglang.launch_server` in this "
        "inline HTML element (its text holds markup or an entity, not shown as written), so "
        "nothing in this launch was checked",
    ) in DOC.findings()


def test_a_code_element_in_an_html_table_is_read() -> None:
    assert ("SPD001", 14, 202, "32", _ignored(32, 5)) in DOC.findings()


def test_a_command_in_a_paragraphs_html_comment_is_not_read() -> None:
    """`<!-- ... -->` is not shown: before, the command in it was read and its findings given."""
    assert not [f for f in DOC.findings() if f[1] == 17]
