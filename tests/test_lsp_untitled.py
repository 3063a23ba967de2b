"""An unsaved editor document is linted as the kind its language id names."""

from __future__ import annotations

import pytest

pytest.importorskip("pygls")

from speclint.lsp.server import _path_for, lint_document  # noqa: E402

DOCKERFILE = (
    "FROM lmsysorg/sglang:v0.5.6.post2\n"
    'CMD ["python3", "-m", "sglang.launch_server", "--model-path", "/m", "--tp-szie", "2"]\n'
)
MAKEFILE = "serve:\n\tpython3 -m sglang.launch_server --model-path /m --tp-szie 2\n"


@pytest.mark.parametrize(
    "language, text, line",
    [("dockerfile", DOCKERFILE, 2), ("makefile", MAKEFILE, 2), ("shellscript", MAKEFILE.split("\t")[1], 1)],
)
def test_an_unsaved_document_is_read_by_its_language(language, text, line):
    linted = lint_document(text, _path_for("untitled:Untitled-1", language), None, ())
    (finding,) = linted.result.findings
    assert finding.code == "FLG001" and finding.span.line == line
