"""Launch forms seen in public docs, issue threads, blog posts and deployment manifests (sweep
28), each described by a fixture of our own (fixtures/docs28): every launch is read whole, or
what speclint could not read is said (SLM004 partly read, SLM005 not read), and no finding is
a false error. Each finding is asserted at the token it names (code, line, column, text)."""

from __future__ import annotations

import pytest
from fixture_file import FixtureFile

from speclint.engine import lint_text

EXPECTED = {
    # rst bullet and auto-numbered list items whose text is the command, one going on over an
    # indented line of flags (before: SLM005, the bullet taken for prose)
    "docs28/r01_bullet_item_commands.rst": [
        ("FLG005", 6, 82, "2x"),
        ("FLG005", 10, 25, "0.9x"),
        ("FLG003", 13, 72, "--tp"),
        ("FLG006", 13, 119, "fa9"),
    ],
    # an issue: "for the decode node I only added these", a fence of SGLang flags, no launcher
    # (before: "All checks passed: 0 launches")
    "docs28/f01_decode_node_flag_fence.md": [("SLM005", 7, 1, "--disaggregation-mode")],
    # a review's suggested change: a diff of flag lines (the removed line not the one named)
    "docs28/f02_review_diff_flag_lines.md": [("SLM005", 7, 6, "--mem-fraction-static")],
    # a comparison page: vLLM's flags in a fence (`--gpu-memory-utilization` is no SGLang
    # option) and TGI's in prose: not SGLang's, nothing said
    "docs28/f03_other_engine_flags.md": [],
    # flags every one of which SGLang also has, but introduced as vLLM's (the sentence above,
    # the fence's comment): not reported as SGLang's
    "docs28/f04_other_engine_named_above.md": [],
    # a flag fragment on a page whose launch is read: the launch is what was checked
    "docs28/f05_fragment_beside_launch.md": [],
    # an rst literal block of flags after `::`
    "docs28/f06_rst_literal_flags.rst": [("SLM005", 6, 5, "--disaggregation-mode")],
}


@pytest.mark.parametrize("relative", sorted(EXPECTED))
def test_each_public_launch_form_is_read_or_said_unread(relative: str) -> None:
    assert [f[:4] for f in FixtureFile(relative).findings()] == EXPECTED[relative]


@pytest.mark.parametrize(
    "item",
    [
        "- Start it: python -m sglang.launch_server --model-path m --tp-size 2x",  # prose first
        "- python -m sglang.launch_server --model-path <path> --tp-size 2x",  # a placeholder
        "- *python -m sglang.launch_server --model-path m --tp-size 2x*",  # emphasis
    ],
)
def test_a_rst_list_item_that_is_not_a_literal_command_stays_unread(item: str) -> None:
    found = [(f.code, f.span.column) for f in lint_text(f"Steps\n\n{item}\n", "p.rst").findings]
    assert [code for code, _ in found] == ["SLM005"]


def test_a_rst_item_command_ends_where_the_next_item_starts() -> None:
    text = "Steps\n\n- python -m sglang.launch_server --model-path m\n- --tp-size 2x\n"
    assert [f.code for f in lint_text(text, "p.rst").findings] == []  # the flag item is not its flag


def test_a_flag_only_block_is_said_not_read_and_never_passed() -> None:
    fixture = FixtureFile("docs28/f01_decode_node_flag_fence.md")
    (finding,) = fixture.findings()
    assert "holds only flags (`--disaggregation-mode`, an option of SGLang's server)" in finding[4]
    assert "nothing here was checked" in finding[4]
    from speclint_runs import run_speclint

    done = run_speclint("--no-cache", str(fixture.path))
    assert "All checks passed" not in done.stdout
    assert "1 file naming SGLang with no launch found" in done.stdout


@pytest.mark.parametrize(
    "block",
    [
        "--disaggregation-mode decode --tp-size 2x\n",  # a flag SGLang has: said
        "--disaggregation-mode decode --no-such-sglang-flag 1\n",  # one it never had: not SGLang's
        "--disaggregation-mode decode\npython -m other.server\n",  # not only flags
    ],
)
def test_only_blocks_of_sglang_options_alone_are_said(block: str) -> None:
    text = f"SGLang decode node:\n\n```bash\n{block}```\n"
    said = [f.code for f in lint_text(text, "i.md").findings]
    assert said == (["SLM005"] if "2x" in block else [])
