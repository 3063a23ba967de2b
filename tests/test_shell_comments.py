"""Comments are found from each `#` when a script has few of them: the same comments, in the
same order, as walking the whole tree (what suppressions and SLM002 read)."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from speclint.frontends.shell.checks import _comment_nodes, _comments_at_hashes
from speclint.frontends.shell.text import TextMap, line_starts_of, parse_bytes

BITS = [
    "#",
    "# speclint: ignore[FLG001]\n",
    "#!/bin/bash\n",
    "${#A[@]}",
    "'#'",
    '"#x"',
    "a#b",
    "\\\n",
    "<<EOF\n# not a comment\nEOF\n",
    "$(echo #c\n)",
    "\n",
    " ",
    "--tp 2",
    '"',
    "'",
    "(",
    ")",
    "case x in a) ;; esac",
    "`#`",
    "echo ",
    "\ufeff",
    "é#",
    "\t#t",
]
FIXTURES = sorted((Path(__file__).resolve().parent.parent / "fixtures" / "shell").glob("*.sh"))


def _both(text: str):
    tm = TextMap(text, line_starts_of(text))
    root = parse_bytes(tm.data).root_node
    walked = [(n.start_byte, n.end_byte) for n in _comment_nodes(root)]
    looked_up = _comments_at_hashes(root, tm.data)
    return walked, None if looked_up is None else [(n.start_byte, n.end_byte) for n in looked_up]


@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(st.lists(st.sampled_from(BITS), max_size=40))
def test_lookup_finds_the_comments_a_walk_finds(bits):
    walked, looked_up = _both("".join(bits))
    if looked_up is not None:
        assert looked_up == walked


def test_fixtures_agree_and_the_shebang_is_a_comment():
    for path in FIXTURES:
        walked, looked_up = _both(path.read_text(encoding="utf-8"))
        assert looked_up in (None, walked), path.name
    walked, looked_up = _both("#!/bin/bash\necho '#' ${#X} # note\n")
    assert looked_up == walked and len(walked) == 2


def test_many_hashes_fall_back_to_the_walk():
    assert _both("#\n" * 100)[1] is None
