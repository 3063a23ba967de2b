"""A shell variable written partly with known text (`ARGS="--model-path /m --port $PORT ..."`)
keeps its known runs: an unquoted `$ARGS` splits them into their words as the shell does, the
unknown part standing where it is written (one word when it is the one value of a flag). The
value as a whole is still unknown to everything else (conditions, `"$ARGS"` quoted)."""

from __future__ import annotations

from findings_at import findings_at

from speclint.engine import lint_text

SPEC = "--speculative-num-steps 1 --speculative-eagle-topk 1 --speculative-num-draft-tokens 16"


def test_the_known_words_of_a_partly_known_variable_are_read():
    text = (
        'ARGS="--model-path /m --port $PORT --speculative-algorithm EAGLE3"\n'
        f'ARGS="$ARGS --speculative-draft-model-path /d {SPEC}"\n'
        "python3 -m sglang.launch_server $ARGS\n"
    )
    findings = lint_text(text, "serve.sh").findings
    codes = {f.code: f for f in findings}
    assert {"SLM004", "SPD001", "SPD003"} <= set(codes)
    # at the `16` where the second assignment writes it (before: at `$ARGS`, line 3; the runs of
    # the partly known `$ARGS` it holds keep their places)
    assert (codes["SPD001"].span.line, codes["SPD001"].span.column) == (
        2,
        text.splitlines()[1].index("16") + 1,
    )
    assert "runs with 2, not 16" in codes["SPD001"].message
    assert "the value of `--port` ($PORT is not assigned in this file" in codes["SLM004"].message


def test_a_branch_that_appends_to_a_partly_known_variable_is_checked_as_an_alternative():
    text = (
        "dp=1\n"
        'eagle_path=""\n'
        "while [[ $# -gt 0 ]]; do\n"
        "  case $1 in\n"
        "    --dp) dp=$2; shift 2 ;;\n"
        "    --eagle) eagle_path=$2; shift 2 ;;\n"
        "  esac\n"
        "done\n"
        'args="--model-path /m --port 30000 --max-running-requests $((dp * 512))"\n'
        'if [ -n "$eagle_path" ]; then\n'
        '  args="$args --speculative-algorithm EAGLE --speculative-draft-model-path $eagle_path \\\n'
        f'    {SPEC}"\n'
        "fi\n"
        "python3 -m sglang.launch_server $args\n"
    )
    findings = lint_text(text, "serve.sh").findings
    (spd001,) = [f for f in findings if f.code == "SPD001"]
    assert (spd001.span.line, spd001.span.column) == (
        12,
        text.splitlines()[11].index("16") + 1,
    )  # (was `$args`)
    assert "the `then` branch at line 10" in " ".join(n.message for n in spd001.notes) + spd001.message
    (partly,) = [f for f in findings if f.code == "SLM004"]
    assert "the value of `--max-running-requests` (arithmetic expansion `$((dp * 512))`" in partly.message


def test_quoted_the_partly_known_value_is_one_unknown_word():
    text = f'ARGS="--model-path /m --port $PORT {SPEC}"\npython3 -m sglang.launch_server "$ARGS"\n'
    assert findings_at(text, "serve.sh") == [("SLM004", 2, 33, '"$ARGS"')]


def test_a_value_with_no_known_text_stays_one_word_that_may_hold_any_flags():
    text = f'ARGS="$EXTRA"\npython3 -m sglang.launch_server --model-path /m $ARGS {SPEC}\n'
    findings = lint_text(text, "serve.sh").findings
    assert [f.code for f in findings] == ["SLM004"]
    assert "a word that may hold any flags" in findings[0].message
