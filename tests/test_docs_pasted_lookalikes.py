"""A doc command pasted from blog text: an en dash or em dash typed for `--` (`–-model-path`,
`—tp`: a word processor's "smart dashes"), a no-break space between a flag and its value. bash
and argparse read the characters as written, so the findings stand (FLG010 a stray value,
FLG001 one unknown word, FLG011 no model path); each one says at the exact character which
character it is and what to type instead."""

from __future__ import annotations

from speclint_runs import ROOT, run_speclint

FIXTURE = ROOT / "fixtures" / "markdown" / "pasted_lookalikes.md"


def _lines() -> list[str]:
    result = run_speclint("--no-cache", str(FIXTURE))
    assert result.returncode == 1, result.stderr
    return result.stdout.splitlines()


def _finding(lines: list[str], head: str) -> list[str]:
    """The finding whose first line starts with `head` (after the path): its `= ...` lines."""
    start = next(i for i, line in enumerate(lines) if line.startswith(f"{FIXTURE}:{head}"))
    end = next((i for i in range(start + 1, len(lines)) if not lines[i]), len(lines))
    return [line.strip() for line in lines[start + 1 : end] if line.strip().startswith("=")]


DASH_NOTE = (
    "= note: line 6, column 32: U+2013 EN DASH here, not `-`: argparse reads a word as a flag only "
    "when it starts with `-`, so `\\u2013-model-path` is a plain value; type `-` in its place"
)
EM_NOTE = (
    "= note: line 6, column 68: U+2014 EM DASH here, not `-`: argparse reads a word as a flag only "
    "when it starts with `-`, so `\\u2014tp` is a plain value; type `--` in its place"
)
SPACE_NOTE = (
    "= note: line 12, column 44: U+00A0 NO-BREAK SPACE here, not a space: bash splits words only at "
    "spaces, tabs and line ends, so `--model-path\\u00a0Qwen/Qwen2-7B-Instruct` is one word; "
    "type a plain space"
)


def test_a_dash_typed_for_a_hyphen_is_named_at_the_character():
    lines = _lines()
    assert (
        f"{FIXTURE}:6:32: FLG010 [error] `\u2013-model-path` is not attached to any flag: argparse "
        "stops the launch with 'the following arguments are required: --model-path/--model' (it "
        "checks those before 'unrecognized arguments')"
    ) in lines  # (the pasted dash hid --model-path: argparse reports the missing flag first)
    assert DASH_NOTE in _finding(lines, "6:32: FLG010")
    assert EM_NOTE in _finding(lines, "6:68: FLG010")
    # the missing model path says which pasted characters hid the flag
    missing = _finding(lines, "6:1: FLG011")
    assert DASH_NOTE in missing and EM_NOTE in missing
    # a value word with no pasted character gets no note
    assert not [n for n in _finding(lines, "6:45: FLG010") if "note:" in n]


def test_a_no_break_space_is_named_at_the_character():
    lines = _lines()
    assert any(
        line.startswith(f"{FIXTURE}:12:32: FLG001 [error] `--model-path\u00a0Qwen/Qwen2-7B-Instruct` is not")
        for line in lines
    )
    assert SPACE_NOTE in _finding(lines, "12:32: FLG001")
    assert SPACE_NOTE in _finding(lines, "12:1: FLG011")


def test_the_command_typed_by_hand_has_no_finding():
    assert not [line for line in _lines() if line.startswith(f"{FIXTURE}:18:")]
