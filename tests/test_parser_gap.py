"""A `$NAME` as the offset of `${x:offset}` (`${@:$#}`, `${GPUS:$i:1}`) is valid bash that
tree-sitter-bash cannot read: speclint says its own parser failed (SLM001 as a warning, at
the `$NAME`), never that bash would refuse the script; the braced form parses."""

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


def test_a_variable_offset_with_a_length_is_a_parser_gap_at_the_variable():
    text = f"GPUS=0123\nCUDA_VISIBLE_DEVICES=${{GPUS: $i:1}} {LAUNCH}\n"
    ((gap,),) = ([f for f in lint_text(text, "serve.sh").findings if f.code == "SLM001"],)
    assert (gap.span.line, gap.span.column, gap.severity) == (2, 30, Severity.WARNING)
    assert (
        "cannot read `$i` as the offset" in gap.message
        and "`${i}` in its place means the same and parses" in gap.message
    )


def test_the_braced_offset_parses_and_a_real_missing_brace_stays_a_syntax_error():
    braced = f'serve() {{\n  {LAUNCH} --port "${{@:${{#}}}}"\n}}\nserve a 30000\n'
    codes = [f.code for f in lint_text(braced, "serve.sh").findings]
    assert codes and "SLM001" not in codes
    broken = f'{LAUNCH} --port "${{PORT"\n'
    ((error,),) = ([f for f in lint_text(broken, "serve.sh").findings if f.code == "SLM001"],)
    assert error.severity == Severity.ERROR and "bash would refuse" in error.message
