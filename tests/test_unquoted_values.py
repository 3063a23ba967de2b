"""An unquoted unknown word that stands as the one value of a flag taking exactly one value
(`--port $PORT`, `--tp $(nproc)`) is read as one word whose text is unknown: the flags around
it keep their values and the checks that need only them run (SLM004 says it was read as one
word). Anywhere else such a word may hold any number of words and flags: what it could set
is unknown, and so is every flag written before it."""

from __future__ import annotations

import pytest

from speclint.engine import lint_text

SPEC = (
    "--speculative-algorithm EAGLE3 --speculative-draft-model-path /d "
    "--speculative-num-steps 1 --speculative-num-draft-tokens 16 --speculative-eagle-topk 1"
)


@pytest.mark.parametrize(
    "value",
    ["$PORT", "${PORT}", "$(get_free_port)", '"$PORT"', "${PORT:-30000}"],
)
def test_the_draft_token_mistake_is_found_whatever_the_port_is_written_as(value):
    text = f"python3 -m sglang.launch_server --model-path /models/llama --port {value} {SPEC}\n"
    found = lint_text(text, "serve.sh").findings
    (spd001,) = [f for f in found if f.code == "SPD001"]
    assert spd001.span.column == text.index("16") + 1
    assert "runs with 2, not 16" in spd001.message


@pytest.mark.parametrize("before", [True, False])
def test_a_word_that_may_hold_any_flags_still_makes_them_unknown(before):
    """`$EXTRA_ARGS` alone may hold `--speculative-adaptive` (0.5.23 then changes the
    parameters): no claim about them, only SLM004."""
    extra = "$EXTRA_ARGS"
    text = (
        f"python3 -m sglang.launch_server --model-path /models/llama {extra} {SPEC}\n"
        if before
        else f"python3 -m sglang.launch_server --model-path /models/llama {SPEC} {extra}\n"
    )
    found = lint_text(text, "serve.sh").findings
    assert not {f.code for f in found} & {"SPD001", "SPD002", "SPD003"}
    (finding,) = [f for f in found if f.code == "SLM004"]
    assert "a word that may hold any flags ($EXTRA_ARGS is not assigned in this file" in finding.message


def test_a_flag_taking_several_values_keeps_the_word_unknown():
    """`--cuda-graph-bs $BS` is meant to split into several values: it may hold flags too."""
    text = f"python3 -m sglang.launch_server --model-path /models/llama --cuda-graph-bs-decode $BS {SPEC}\n"
    found = lint_text(text, "serve.sh").findings
    assert not {f.code for f in found} & {"SPD001", "SPD002", "SPD003"}
    (finding,) = [f for f in found if f.code == "SLM004"]
    assert "the value of `--cuda-graph-bs-decode` ($BS is not assigned" in finding.message
    assert "read as one word" not in finding.message


def test_slm004_says_the_word_was_read_as_one():
    text = "python3 -m sglang.launch_server --model-path $MODEL --port $PORT\n"
    (finding,) = lint_text(text, "serve.sh").findings
    assert finding.code == "SLM004" and (finding.span.line, finding.span.column) == (1, 46)
    assert finding.message == (
        "launch only partly read: speclint cannot know the value of `--model-path` ($MODEL is "
        "not assigned in this file (comes from the environment); unquoted, read as one word); "
        "the value of `--port` ($PORT is not assigned in this file (comes from the environment); "
        "unquoted, read as one word); checks that need these values did not run"
    )


def test_an_unknown_port_leaves_the_gpu_dependent_fields_as_a_known_one(tmp_path):
    """The port feeds no resolution hook of the GPU-dependent fields (`SERVING_ONLY`)."""
    import subprocess
    import sys
    from pathlib import Path

    model = Path(__file__).resolve().parent.parent / "fixtures" / "models" / "llama-3.1-8b-instruct"
    outputs = []
    for port in ("30000", '"$PORT"'):
        script = tmp_path / "serve.sh"
        script.write_text(f"python3 -m sglang.launch_server --model-path {model} --tp 2 --port {port}\n")
        run = subprocess.run(
            [sys.executable, "-m", "speclint", "explain", "--gpu", "h100", str(script)],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        effective = run.stdout.split("effective configuration:")[1]
        outputs.append([line for line in effective.splitlines() if "port" not in line])
    known, unknown = outputs
    assert any(line.strip().startswith("page_size: 1") for line in known)
    assert unknown == known


@pytest.mark.parametrize("written", ["--tp=$TP", '--tp="$TP"', '"--tp=$TP"', "--tp=$(nproc)"])
def test_an_option_written_with_an_unknown_value_after_its_equals_sign_is_read(written):
    """`--tp=$TP`: the option is known, only its value is not (was: a word that may be any flag)."""
    text = f"python3 -m sglang.launch_server --model-path /models/llama {written} {SPEC}\n"
    found = lint_text(text, "serve.sh").findings
    (spd001,) = [f for f in found if f.code == "SPD001"]
    assert spd001.span.column == text.index("16") + 1
    (partly,) = [f for f in found if f.code == "SLM004"]
    assert partly.message.startswith("launch only partly read: speclint cannot know the value of `--tp` (")
    assert partly.span.column == text.index(written) + 1


def test_a_switch_written_with_an_unknown_value_is_refused_whatever_the_value():
    text = "python3 -m sglang.launch_server --model-path /m --enable-mixed-chunk=$X\n"
    (refused,) = [f for f in lint_text(text, "serve.sh").findings if f.code == "FLG010"]
    assert refused.span.column == 49
    assert refused.message.endswith("argparse stops the launch with 'ignored explicit argument'")


def test_a_python_f_string_option_with_an_unknown_value_is_read():
    text = (
        "import os, subprocess\n"
        'tp = int(os.environ["TP"])\n'
        'subprocess.run(["python3", "-m", "sglang.launch_server", "--model-path", "/m", f"--tp={tp}",\n'
        '    "--speculative-algorithm", "EAGLE3", "--speculative-draft-model-path", "/d",\n'
        '    "--speculative-num-steps", "1", "--speculative-eagle-topk", "1",\n'
        '    "--speculative-num-draft-tokens", "16"])\n'
    )
    found = lint_text(text, "serve.py").findings
    (spd001,) = [f for f in found if f.code == "SPD001"]
    assert (spd001.span.line, spd001.span.column) == (6, 40)  # the `16`
    (partly,) = [f for f in found if f.code == "SLM004"]
    assert (partly.span.line, partly.span.column) == (3, 82)
    assert "the value of `--tp` (`int(...)` is computed when the program runs)" in partly.message
