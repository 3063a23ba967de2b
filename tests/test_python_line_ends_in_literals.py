"""A launch string written over several lines of a CR LF (or old-Mac CR) file: Python reads
each line end inside the literal as one newline, and a backslash before it continues the
line, so each word is placed where it is written, as in an LF file."""

from __future__ import annotations

import pytest

from speclint.engine import lint_text
from speclint.settings.options import LintOptions

LAUNCH = (
    'import subprocess{eol}subprocess.run({prefix}"""python -m sglang.launch_server --model-path /m \\{eol}'
    '  --tp-size x""", shell=True){eol}'
)


@pytest.mark.parametrize("eol", ["\n", "\r\n", "\r"])
@pytest.mark.parametrize("prefix", ["", "r", "f", "rf"])
def test_a_word_after_a_continued_line_is_placed_at_its_token(eol, prefix):
    text = LAUNCH.format(eol=eol, prefix=prefix)
    findings = lint_text(text, "serve.py", LintOptions()).findings
    assert [(f.code, f.span.line, f.span.column, f.span.end_column) for f in findings] == [
        ("FLG005", 3, 13, 14)
    ]
    assert "invalid int value: 'x'" in findings[0].message
