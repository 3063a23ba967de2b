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
    from speclint.core.edits import Edit as Edit
    from speclint.core.notes import Note as Note
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


def __getattr__(name: str) -> object:
    """`Note` and `Edit`, each from a module of its own: a record class costs ~0.5 M
    instructions to make, and a launch without findings (or with plain ones) needs neither."""
    if name == "Note":
        from speclint.core.notes import Note

        return Note
    if name == "Edit":
        from speclint.core.edits import Edit

        return Edit
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
