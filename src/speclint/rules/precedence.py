"""One finding per problem: a general rule gives way to a more specific one.

A rule lists the codes it defers to (`Rule.defers_to`). On one launch, its finding is
dropped when a finding of one of those rules points at an overlapping token, or names the
same claim (`REJECTION`: both report the one error SGLang's resolution stops on). The rules
themselves never look at each other: the engine applies this after they ran.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.findings import Finding

REJECTION = "rejection"
"""The launch's resolution raises: SPD009 reports any rejection, specific rules the ones
they explain better."""


def drop_deferred(findings: list[Finding], defers: dict[str, tuple[str, ...]]) -> list[Finding]:
    """`findings` of one launch without those that give way; `defers`: code -> the codes
    it defers to (only codes that defer)."""
    by_code: dict[str, list[Finding]] = {}
    for finding in findings:
        by_code.setdefault(finding.code, []).append(finding)
    kept = []
    for finding in findings:
        stronger = [other for code in defers.get(finding.code, ()) for other in by_code.get(code, ())]
        if not any(_same_problem(finding, other) for other in stronger):
            kept.append(finding)
    return kept


def _same_problem(weaker: Finding, stronger: Finding) -> bool:
    if set(weaker.claims) & set(stronger.claims):
        return True
    a, b = weaker.span, stronger.span
    return (a.line, a.column) < (b.end_line, b.end_column) and (b.line, b.column) < (a.end_line, a.end_column)
