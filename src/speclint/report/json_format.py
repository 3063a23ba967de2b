"""`--output-format json` and `json-lines`: a JSON array of findings (written one finding at a
time, `speclint.report.reporter.JsonReporter`), or one JSON object per line, with 1-based,
end-exclusive positions."""

from __future__ import annotations

import json

from speclint.report.urls import rule_url
from speclint.runner.fix import applicability

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.findings import Finding


def finding_dict(finding: Finding) -> dict[str, object]:
    span = finding.span
    return {
        "code": finding.code,
        "name": finding.name,
        "severity": finding.severity.label,
        "path": finding.path,
        "line": span.line,
        "column": span.column,
        "end_line": span.end_line,
        "end_column": span.end_column,
        "message": finding.message,
        "fix": finding.fix_hint,
        "fix_applicability": applicability(finding),
        "url": rule_url(finding.code, finding.name),
        "notes": [
            {
                "line": n.span.line,
                "column": n.span.column,
                "message": n.message,
                **({"path": n.span.file} if n.span.file else {}),
            }
            for n in finding.notes
        ],
    }


def json_line(f: Finding) -> str:
    return json.dumps(finding_dict(f))
