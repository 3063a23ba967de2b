"""Property-based and mutation tests of the shell front-end and the whole lint pipeline: any
bytes, and any mangling of the real fixtures, give findings with valid locations, never an
exception. SPECLINT_FUZZ_EXAMPLES=5000 runs a longer campaign than the default."""

from __future__ import annotations

import os
from pathlib import Path

from frontend_checks import check
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from speclint.engine import lint_text

EXAMPLES = int(os.environ.get("SPECLINT_FUZZ_EXAMPLES", "60"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize="SPECLINT_FUZZ_EXAMPLES" not in os.environ,
    suppress_health_check=list(HealthCheck),
)
FIXTURES = sorted((Path(__file__).resolve().parent.parent / "fixtures" / "shell").glob("*.sh"))
SEEDS = [p.read_text(encoding="utf-8", errors="replace") for p in FIXTURES]
SHELL_BITS = [
    '"',
    "'",
    "$(",
    ")",
    "`",
    "${",
    "}",
    "\\\n",
    "\\",
    "#",
    ";",
    "|",
    "&",
    "<<EOF\n",
    "\n",
    "\r\n",
    "\0",
    "\ufeff",
    " ",
    "--tp",
    "=",
    "$X",
    '"${A[@]}"',
    "bash -c '",
    "python -m sglang.launch_server ",
    "if true; then ",
    "fi",
    "((",
    "))",
    "\udcff",
    "alias s='",
    'eval "',
    "else ",
    "elif x; then ",
    "ARGS+=(",
    "case $X in a) ",
    ";;",
    "esac",
    "srun -N 1 ",
    "&& TP=8 || TP=4 ",
    "--tp $TP ",
    "mpirun -np ",
    "-- ",
]


@FUZZ
@given(st.binary(max_size=2000))
def test_random_bytes(data):
    check(data.decode("utf-8", errors="replace"), "fuzz.sh")


@FUZZ
@given(st.lists(st.sampled_from(SHELL_BITS) | st.text(max_size=8), max_size=60))
def test_random_shell_tokens(parts):
    check("".join(parts), "fuzz.sh")


@FUZZ
@given(st.sampled_from(SEEDS) if SEEDS else st.just(""), st.data())
def test_mutated_fixtures(seed, data):
    text = seed
    for _ in range(data.draw(st.integers(1, 4))):
        where = data.draw(st.integers(0, len(text)))
        action = data.draw(st.sampled_from(["truncate", "insert", "delete", "crlf", "bom", "dup"]))
        if action == "truncate":
            text = text[:where]
        elif action == "insert":
            text = text[:where] + data.draw(st.sampled_from(SHELL_BITS)) + text[where:]
        elif action == "delete":
            text = text[:where] + text[where + data.draw(st.integers(1, 20)) :]
        elif action == "crlf":
            text = text.replace("\n", "\r\n")
        elif action == "bom":
            text = "\ufeff" + text
        else:
            text = text[:where] + text[max(0, where - 200) : where] + text[where:]
    check(text, "fuzz.sh")


def test_seeds_exist():
    assert len(SEEDS) >= 5


def test_brace_before_a_high_plane_character_does_not_crash_tree_sitter():
    """tree-sitter-bash 0.25 segfaults on `{` + a code point from about U+80000 up (found by
    this file's fuzzing); the characters stay in the words speclint reads."""
    for text in (
        "{\U000f20ab",
        "echo {\U000e0001",
        "{{\U0010ffff",
        "python -m sglang.launch_server --model-path m --served-model-name {\U000f20ab}\n",
    ):
        check(text, "fuzz.sh")
    [ctx] = lint_text(
        "{ python -m sglang.launch_server --model-path m --served-model-name n\U000f20ab; }\n", "x.sh"
    ).contexts
    assert ctx.config.value("served_model_name") == "n\U000f20ab"


def test_nested_eval_and_alias_strings_are_bounded():
    """eval inside alias inside eval ...: nested strings stop at a fixed depth, no crash."""
    import shlex

    text = "python -m sglang.launch_server --tp 2"
    for depth in range(12):
        text = ("eval " if depth % 2 else f"alias a{depth}=") + shlex.quote(text)
    check(text + "\n", "fuzz.sh")
    check(text[: len(text) // 2] + "\n", "fuzz.sh")  # cut in the middle of the quotes


def test_many_conditional_values_and_nested_branches_are_bounded():
    many_ifs = "".join(f"if c{i}; then TP={i}; else DP={i}; fi\n" for i in range(300))
    nested = "if a; then " * 200 + "X=1; else X=2; " + "fi; " * 200 + "\n"
    cases = "case $G in\n" + "".join(f"  g{i}) ARGS+=(--x{i}) ;;\n" for i in range(500)) + "esac\n"
    launch = 'python -m sglang.launch_server --tp $TP --dp $DP $X "${ARGS[@]}"\n'
    for text in (many_ifs + launch, nested + launch, cases + launch, many_ifs + cases + nested + launch):
        check(text, "fuzz.sh")
