"""A launch in an HTML `<pre>` (issue threads fold it in `<details><summary>...</summary>
<pre>`): plain text there is what the browser shows, read as an untagged code block. Before,
every HTML block was reported not read. A `<pre>` with markup or an entity (`&gt;`) inside
stays reported: its text is not what is written."""

from __future__ import annotations

from fixture_file import FixtureFile

DOC = FixtureFile("markdown/details_pre.md")


def test_a_command_in_a_details_pre_is_read_with_its_continuations() -> None:
    found = DOC.findings()
    assert (
        "SPD001",
        8,
        87,
        "16",
        "`--speculative-num-draft-tokens 16` is ignored: with `--speculative-eagle-topk 1` SGLang "
        "sets speculative_num_draft_tokens to speculative_num_steps + 1 = 4 and runs with 4, "
        "not 16 (it logs one warning)",
    ) in found
    assert ("FLG003", 6, 85, "--tp") in [f[:4] for f in found]


def test_a_pre_holding_an_entity_is_reported_not_read() -> None:
    assert (
        "SLM005",
        12,
        50,
        "python3 -m sglang.launch_server",
        "speclint did not read the command that runs `python3 -m sglang.launch_server` in this "
        "code block (it is inside an HTML block), so nothing in this launch was checked",
    ) in DOC.findings()
