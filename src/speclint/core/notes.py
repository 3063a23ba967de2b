"""A finding's second locations (`core.findings.Finding.notes`): made only when a finding has one."""

from __future__ import annotations

from speclint.core.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.spans import Span


@dataclass(frozen=True, slots=True)
class Note:
    """A second location that explains a finding (where a variable was set, the other copy)."""

    span: Span
    message: str
