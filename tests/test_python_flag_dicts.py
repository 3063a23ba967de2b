"""Flags kept in a dict (or a list) and turned into argv words by a comprehension or a `for`
loop over elements the file writes out: each element binds the loop's names in turn, so the
words are known; `d |= {...}` merges keys. A comprehension with an `if` clause, or a loop
that may `break`, is not followed (its words stay unknown)."""

from __future__ import annotations

from pathlib import Path

from findings_at import place

from speclint.engine import lint_text
from speclint.frontends import extract_file

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "python"
FIXTURE = FIXTURES / "flag_dicts.py"
TEXT = FIXTURE.read_text()
LINES = TEXT.splitlines()
LOOPS = FIXTURES / "loop_elements.py"


def test_each_element_makes_known_words_in_order():
    launches = (
        extract_file(str(FIXTURE), TEXT).launches + extract_file(str(LOOPS), LOOPS.read_text()).launches
    )
    assert [[w.text for w in launch.args] for launch in launches[:4]] == [
        [
            "--model-path", "Qwen/Qwen3-8B",
            "--speculative-algorithm", "EAGLE",
            "--speculative-num-steps", "3",
            "--speculative-eagle-topk", "1",
            "--speculative-num-draft-tokens", "8",
        ],
        [
            "--model-path", "meta-llama/Llama-3.1-8B-Instruct",
            "--speculative-algorithm", "EAGLE3",
            "--speculative-draft-model-path", "jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B",
            "--max-running-requests", "16",
        ],
        ["--model-path", "Qwen/Qwen3-8B", "--port", "30000"],
        ["--model-path", "Qwen/Qwen3-8B", "--port", "30001"],
    ]  # fmt: skip
    # the loop's words are where the dict writes them (the loop's name is the same for every
    # pass: before, each value was placed at `value`)
    value = launches[1].args[7]
    assert place(LINES, value.span) == (20, 32, "16")


def test_findings_of_the_comprehension_and_the_if_clause():
    findings = [f for f in lint_text(TEXT, str(FIXTURE)).findings if f.code != "DRF011"]
    assert [(f.code, *place(LINES, f.span)) for f in findings] == [
        ("SPD003", 6, 42, "EAGLE"),  # (before: both at the comprehension's `item`)
        ("SPD001", 10, 37, "8"),
    ]
    assert findings[1].message.startswith(
        "`--speculative-num-draft-tokens 8` is ignored: with `--speculative-eagle-topk 1`"
    )
    loops = LOOPS.read_text()
    (partly,) = lint_text(loops, str(LOOPS)).findings
    assert (partly.code, *place(loops.splitlines(), partly.span)) == (
        "SLM004",
        12,
        7,
        '[f"--{k}" for k, v in extra.items() if v is True]',
    )


def test_loops_that_may_leave_early_or_iterate_unknowns_are_not_followed():
    for loop in (
        "for flag, value in FLAGS.items():\n    if value is None:\n        break\n    argv.extend([flag, value])\n",
        "for flag, value in FLAGS.items():\n    argv.extend([flag, value])\nelse:\n    pass\n",
        "for flag, value in load().items():\n    argv.extend([flag, value])\n",
    ):
        source = (
            "import subprocess\nFLAGS = {'--tp-size': '2'}\n"
            "argv = ['python', '-m', 'sglang.launch_server', '--model-path', 'm']\n"
            + loop
            + "subprocess.run(argv)\n"
        )
        (launch,) = extract_file("a.py", source).launches
        assert any(w.text is None for w in launch.args), loop


def test_nested_loops_stop_being_followed_past_the_file_budget():
    """Each element walks the loop body once; 16 + 16 x 16 passes exceed the 256 of one file,
    so the loops past the budget leave their names unknown instead of walking on."""
    source = (
        "import subprocess\n"
        "for a in [" + ", ".join(map(str, range(16))) + "]:\n"
        "    for b in [" + ", ".join(map(str, range(16))) + "]:\n"
        "        pass\n"
        "x = 'tp'\n"
        "for size in ['2']:\n"
        "    subprocess.run(['python', '-m', 'sglang.launch_server', '--model-path', 'm', '--tp-size', size])\n"
    )
    (launch,) = extract_file("a.py", source).launches
    assert launch.args[3].text is None
    assert launch.args[3].dynamic_reason is not None and "loop variable" in launch.args[3].dynamic_reason
