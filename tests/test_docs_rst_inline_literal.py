"""A launch in a reStructuredText inline literal (``` ``python3 -m sglang.launch_server ...`` ```
on a paragraph line), read as a Markdown code span holding one is. Before, the page said it
named the launcher but held no launch. A literal naming only the module or a flag is a
mention; one in a comment is not read."""

from __future__ import annotations

from fixture_file import FixtureFile

DOC = FixtureFile("rst/inline_literal_launch.rst")


def test_a_launch_in_an_inline_literal_is_read() -> None:
    assert (
        "SPD001",
        4,
        198,
        "10",
        "`--speculative-num-draft-tokens 10` is ignored: with `--speculative-eagle-topk 1` SGLang "
        "sets speculative_num_draft_tokens to speculative_num_steps + 1 = 3 and runs with 3, "
        "not 10 (it logs one warning)",
    ) in DOC.findings()


def test_a_mention_and_a_comment_are_not_launches() -> None:
    found = DOC.findings()
    assert not [f for f in found if f[1] > 5]
    assert not [f for f in found if f[0].startswith("SLM")]
