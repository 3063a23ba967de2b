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
