"""What speclint reports: findings, their severities and notes, and the edits that fix them.

Rules make findings; suppressions, reports, fixes, the cache, the editor server and preflight
read them.
"""

from __future__ import annotations

import enum
from dataclasses import field

from speclint.core.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.spans import Span


class Severity(enum.IntEnum):
    INFO = 0
    WARNING = 1
    ERROR = 2

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Severity:
        return cls[text.upper()]


@dataclass(frozen=True, slots=True)
class Note:
    """A second location that explains a finding (where a variable was set, the other copy)."""

    span: Span
    message: str


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


@dataclass(slots=True)
class Finding:
    """One problem a rule found: where, how bad, what SGLang will do, and how to fix it."""

    code: str
    name: str
    severity: Severity
    path: str
    span: Span
    message: str
    fix_hint: str = ""
    """One line saying what to write instead."""
    notes: list[Note] = field(default_factory=list)
    launch_span: Span | None = None
    """The whole launch command the finding is about (suppression comments cover it)."""
    fix: Edit | tuple[Edit, ...] | None = None
    """Edits `--fix` applies: only for changes that are certain."""
    claims: tuple[str, ...] = ()
    """Problems this finding reports besides its token (`precedence.REJECTION`: the
    launch's resolution stops): a general rule's finding with the same claim gives way."""
