"""A launch read from a block of another file (a Markdown `yaml` fence, a manifest in a
here-document) keeps everything the front-end found beside its words, moved to where it is
written: the GPUs its container is given (PAR001 at the limit in the Markdown file)."""

from __future__ import annotations

from pathlib import Path

from speclint.engine import lint_text

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "markdown" / "manifest_fence_gpu_limit.md"


def test_a_manifest_fences_gpu_limit_is_read_at_its_place_in_the_doc() -> None:
    text = FIXTURE.read_text()
    [finding] = [f for f in lint_text(text, str(FIXTURE)).findings if f.code == "PAR001"]
    line = text.splitlines()[finding.span.line - 1]
    assert (finding.span.line, finding.span.column) == (21, 31)
    assert line[finding.span.column - 1 : finding.span.end_column - 1] == "8"
    assert "leaves 8 GPUs visible, but tp 2 uses 2 on this node: 6 GPUs stay idle" in finding.message
