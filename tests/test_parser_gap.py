"""A `$NAME` as the offset of `${x:offset}` (`${@:$#}`, `${GPUS:$i:1}`) is valid bash that
tree-sitter-bash cannot read. A variable's (`$i`) is read anyway (the text parsed again with
` i`, the same arithmetic): the rest of the script is read, no warning. A special or
positional parameter's (`$#`, `$1`) is not: speclint says its own parser failed (SLM001 as a
warning, at the `$NAME`), never that bash would refuse the script; the braced form parses."""

from __future__ import annotations

from speclint.core.findings import Severity
from speclint.engine import lint_text

LAUNCH = "python -m sglang.launch_server --model-path /m"


def test_a_special_parameter_as_the_offset_is_a_parser_gap_not_a_syntax_error():
    text = f'serve() {{\n  {LAUNCH} --port "${{@:$#}}"\n}}\nserve a 30000\n'
    gaps = [f for f in lint_text(text, "serve.sh").findings if f.code == "SLM001"]
    ((gap,),) = (gaps,)
    assert (gap.span.line, gap.span.column, gap.span.end_column) == (2, 62, 64)
    assert gap.severity == Severity.WARNING
    assert gap.message.startswith(
        "speclint's shell parser (tree-sitter-bash) cannot read `$#` as the offset in `${@:$#...`, "
        "which bash accepts"
    )
    assert "bash would refuse" not in gap.message


def test_a_variable_offset_is_read_with_the_rest_of_the_script():
    text = (
        "GPUS=01234567\nfor i in 0 4; do\n"
        f"  CUDA_VISIBLE_DEVICES=${{GPUS:$i:4}} {LAUNCH} --port 3000$i &\ndone\n"
        f"{LAUNCH} --tp-size 2x\n"
    )
    result = lint_text(text, "serve.sh")
    assert [(f.code, f.span.line, f.span.column) for f in result.findings] == [("FLG005", 5, 58)]
    assert len(result.contexts) == 3  # the loop's two, then the last


def test_a_variable_offset_is_evaluated_from_the_scripts_variables():
    text = f"PORTS=3000x30001\ni=0\n{LAUNCH} --port ${{PORTS: $i:5}}\n"
    ((finding,),) = (lint_text(text, "serve.sh").findings,)
    assert (finding.code, finding.span.line, finding.span.column) == ("FLG005", 3, 55)
    assert finding.message.startswith("`3000x` is not a valid value for `--port`")
    assert lint_text(text.replace("i=0", "i=5"), "serve.sh").findings == []


def test_a_variable_offset_beside_a_special_one_keeps_only_that_warning():
    text = f'i=1\necho "${{x:$i}}" "${{@:$#}}"\n{LAUNCH} --tp-size 2x\n'
    got = [(f.code, f.span.line, f.span.column) for f in lint_text(text, "serve.sh").findings]
    assert got == [("SLM001", 2, 21), ("FLG005", 3, 58)]


def test_the_braced_offset_parses_and_a_real_missing_brace_stays_a_syntax_error():
    braced = f'serve() {{\n  {LAUNCH} --port "${{@:${{#}}}}"\n}}\nserve a 30000\n'
    codes = [f.code for f in lint_text(braced, "serve.sh").findings]
    assert codes and "SLM001" not in codes
    broken = f'{LAUNCH} --port "${{PORT"\n'
    ((error,),) = ([f for f in lint_text(broken, "serve.sh").findings if f.code == "SLM001"],)
    assert error.severity == Severity.ERROR and "bash would refuse" in error.message
