"""`--output-format gitlab`: GitLab's code-quality report, a JSON array of issues."""

from __future__ import annotations

from speclint.report.fingerprint import fingerprint

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.findings import Finding

_GITLAB_SEVERITY = {"error": "major", "warning": "minor", "info": "info"}


def gitlab_issue(f: Finding) -> dict[str, object]:
    return {
        "description": f"{f.code} {f.message}",
        "check_name": f.code,
        "fingerprint": fingerprint(f),
        "severity": _GITLAB_SEVERITY[f.severity.label],
        "location": {
            "path": f.path,
            "positions": {
                "begin": {"line": f.span.line, "column": f.span.column},
                "end": {"line": f.span.end_line, "column": f.span.end_column},
            },
        },
    }
