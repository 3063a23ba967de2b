"""What a refusal test asks of a launch: its error findings for a release on a GPU profile,
and where a token stands (shared by the start-up refusal tests)."""

from __future__ import annotations

from speclint.engine import lint_text
from speclint.settings.options import LintOptions
from speclint.sglang.resolve.gpu_profiles import profile


def errors(text: str, version: str, gpu: str):
    """The ERROR findings of `text` (a shell launch) checked against `version` on `gpu`."""
    options = LintOptions(sglang_version=version, gpu=profile(gpu), read_pyproject=False)
    return [f for f in lint_text(text, "x.sh", options).findings if f.severity.name == "ERROR"]


def at(text: str, token: str) -> tuple[int, int]:
    """(line, 1-based column) of `token`'s first occurrence."""
    for number, line in enumerate(text.splitlines(), 1):
        if token in line:
            return number, line.index(token) + 1
    raise AssertionError(token)
