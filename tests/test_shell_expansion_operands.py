"""The operand of an unquoted `${X:+...}` / `${X:-...}` splits into words as bash splits the
expansion's result (`${SPEC_ALGO:+--speculative-algorithm "$SPEC_ALGO"}` is a flag and its
value, two words, never `--speculative-algorithmEAGLE3`), each plain word pointing where it
is written; a quoted or escaped blank does not split. An associative array's key takes a
default too: `${TP_FOR[$NAME]:-1}` is the key's value, else 1."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text
from speclint.frontends import extract_file

OPERANDS = FixtureFile("shell/expansion_operand_words.sh")
DEFAULTS = FixtureFile("shell/assoc_array_default.sh")


def test_an_unquoted_operand_is_split_into_a_flag_and_its_value():
    (launch,) = extract_file(str(OPERANDS.path), OPERANDS.text).launches
    texts = [word.text for word in launch.args]
    assert texts[2:] == [
        "--speculative-algorithm",
        "EAGLE3",
        "--speculative-draft-model-path",
        "lmsys/sglang-EAGLE3-LLaMA3.1-Instruct-8B",
        "--speculative-num-steps",
        "3",
        "--speculative-eagle-topk",
        "1",
        "--speculative-num-draft-tokens",
        "4",
        "--chunked-prefil-size",
        "8192",
        "--max-running-requests",
        "32",
    ]  # `${NO_SUCH_VAR:+...}` of a variable never set here: no word (bash: unset, no value)
    assert OPERANDS.at(launch.args[4].span) == (9, 16, "--speculative-draft-model-path")


def test_a_finding_in_an_operand_points_at_its_word():
    assert OPERANDS.findings() == [
        (
            "FLG001",
            11,
            12,
            "--chunked-prefil-size",
            "`--chunked-prefil-size` is not an SGLang 0.5.23 flag: argparse stops the launch with "
            "'unrecognized arguments'; did you mean `--chunked-prefill-size`?",
        )
    ]


def test_a_quoted_or_escaped_blank_in_an_operand_does_not_split():
    text = 'python3 -m sglang.launch_server --model-path /m ${X:-"a b"} ${Y:-c\\ d}\n'
    (launch,) = extract_file("serve.sh", text).launches
    assert [word.text for word in launch.args][2:] == ["a b", "c d"]


def test_an_associative_arrays_key_takes_a_default():
    launches = extract_file(str(DEFAULTS.path), DEFAULTS.text).launches
    values = [[w.text for w in launch.args] for launch in launches]
    assert values[0][-2:] == ["--tp-size", "2x"]  # the key's value
    assert values[1][-2:] == ["--tp-size", "8x"]  # a key never assigned: the default
    assert values[2][2:] == ["--tp-size", "2", "--port", "30001"]  # `:+` of a set key
    found = DEFAULTS.findings()
    assert [f[:4] for f in found] == [
        ("FLG005", 5, 71, "${TP_FOR[$NAME]:-1}"),
        ("FLG005", 8, 98, "8x"),
        ("SLM004", 10, 80, "${TP_FOR[$UNSET_NAME]:-2}"),
    ]
    assert found[0][4].startswith("`2x` is not a valid value for `--tp-size`")
    assert "the key `$UNSET_NAME` is not known" in found[2][4]


def test_without_the_operand_form_the_output_is_unchanged():
    text = "X=1\npython3 -m sglang.launch_server --model-path /m --tp-size ${X:-2}\n"
    assert lint_text(text, "serve.sh").findings == []
