"""The edits that fix a finding (`core.findings.Finding.fix`): made only when a finding has one."""

from __future__ import annotations

from speclint.core.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.spans import Span


@dataclass(frozen=True, slots=True)
class Edit:
    """A certain fix: replace `expected` inside `span` (the whole span when None) by `replacement`.

    Matching `expected` inside the span keeps what surrounds the token (quotes in Python
    and YAML, `=` in `--flag=value`)."""

    span: Span
    replacement: str
    description: str
    expected: str | None = None
    safe: bool = False
    """ruff's split: a safe edit keeps what the launch does and what its author asked for
    (spelling out an abbreviation, dropping a value overridden later) and `--fix` applies it;
    any other edit (one that changes a value, a flag's meaning, or makes a failing launch
    run) is applied only with `--unsafe-fixes`."""
