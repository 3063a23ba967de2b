"""`$(( ... ))` is worked out from the script's own integers (bash's integer arithmetic: `/`
and `%` truncate toward zero), never run; anything else stays one unknown word."""

from __future__ import annotations

import pytest

from speclint.engine import lint_text
from speclint.frontends.shell.arithmetic import evaluate

LAUNCH = (
    "STEPS=1\nWIDTH=4\n"
    "python3 -m sglang.launch_server --model-path /m --speculative-algorithm EAGLE3 "
    "--speculative-draft-model-path /d --speculative-num-steps $STEPS --speculative-eagle-topk 1 "
    "--speculative-num-draft-tokens {tokens}\n"
)


def test_the_draft_tokens_worked_out_by_arithmetic_are_checked():
    text = LAUNCH.format(tokens="$((STEPS * WIDTH * 4))")
    (spd001,) = [f for f in lint_text(text, "serve.sh").findings if f.code == "SPD001"]
    assert spd001.message.startswith("`--speculative-num-draft-tokens 16` is ignored")
    assert "runs with 2, not 16" in spd001.message
    assert spd001.span.column == text.splitlines()[2].index("$((") + 1


@pytest.mark.parametrize(
    "expression, value",
    [
        ("dp * 512", 1024),
        ("(1 + 2) * 3", 9),
        ("-7 / 2", -3),
        ("-7 % 2", -1),
        ("7 % -2", 1),
        ("2 ** 3 ** 2", 512),
        ("${dp} + $dp", 4),
        ("dp / 0", None),
        ("dp++", None),
        ("dp < 3", None),
        ("unknown + 1", None),
        ("name + 1", None),
        ("010", None),
        ("$1 + 1", None),
    ],
)
def test_what_is_worked_out_and_what_is_not(expression, value):
    assert evaluate(expression, {"dp": "2", "name": "llama"}.get) == value


def test_an_unknown_operand_leaves_the_value_unknown_but_one_word():
    text = LAUNCH.format(tokens="$((STEPS * $N))")
    found = lint_text(text, "serve.sh").findings
    assert not [f for f in found if f.code == "SPD001"]
    (partly,) = [f for f in found if f.code == "SLM004"]
    assert "the value of `--speculative-num-draft-tokens` (arithmetic expansion `$((STEPS * $N))`)" in (
        partly.message
    )
