"""Blanks between two expansions in a double-quoted string (`"$A $B"`) are kept: tree-sitter-bash
puts them in the second expansion's node, and they were lost (`python3-m`)."""

from __future__ import annotations

import pytest

from speclint.engine import lint_text
from speclint.frontends import extract_file


@pytest.mark.parametrize("joined", ['"$A $B"', '"${A} ${B}"', '"$A  ${B}"', '"${A}\t$B"'])
def test_a_command_assembled_from_variables_keeps_its_blanks(joined):
    text = f'A=python3\nB="-m sglang.launch_server"\nC={joined}" --model-path /m --tp-szie 2"\n$C\n'
    (finding,) = lint_text(text, "serve.sh").findings
    at = text.splitlines()[2].index("--tp-szie") + 1  # where C's value writes it (not at `$C`)
    assert (finding.code, finding.span.line, finding.span.column) == ("FLG001", 3, at)
    assert "`--tp-szie` is not an SGLang" in finding.message


def test_two_unknown_expansions_in_a_bash_c_string_stay_two_words():
    text = 'bash -c "python3 -m sglang.launch_server --model-path ${M} ${ARGS} --port 1"\n'
    (launch,) = extract_file("serve.sh", text).launches
    words = [(w.text, w.dynamic_reason.split(" ")[0] if w.dynamic_reason else None) for w in launch.args]
    assert words == [
        ("--model-path", None),
        (None, "$M"),
        (None, "$ARGS"),
        ("--port", None),
        ("1", None),
    ]


def test_compose_double_dollar_reaches_the_container_shell_as_one_dollar():
    """Compose's `$$` escape: `$${MODEL}` is `${MODEL}` for the container's shell."""
    text = (
        "services:\n"
        "  sglang:\n"
        "    image: lmsysorg/sglang:v0.5.4\n"
        "    command: >\n"
        '      bash -c "python3 -m sglang.launch_server --model-path $${MODEL_PATH} $${EXTRA}\n'
        '      --tp-szie 2"\n'
    )
    result = lint_text(text, "compose.yaml")
    partly = next(f for f in result.findings if f.code == "SLM004")
    assert "the value of `--model-path` ($MODEL_PATH is not assigned" in partly.message
    assert "a word that may hold any flags ($EXTRA is not assigned" in partly.message
    assert "__speclint" not in partly.message
    (typo,) = [f for f in result.findings if f.code == "FLG001"]
    assert (typo.span.line, typo.span.column) == (6, 7)
