"""`--output-format sarif`: a SARIF 2.1.0 log (GitHub code scanning), the rules' metadata
first, then one result per finding."""

from __future__ import annotations

import json
import os

from speclint import __version__
from speclint.report.fingerprint import fingerprint
from speclint.report.reporter import JsonArray, Reporter

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

    from speclint.core.findings import Finding
    from speclint.engine import FileResult
    from speclint.rules.base import Rule

_SARIF_LEVEL = {"error": "error", "warning": "warning", "info": "note"}


def _sarif_uri(path: str) -> str:
    """A path relative to the working directory (the repository root in CI), with forward
    slashes: GitHub code scanning matches results to files by it."""
    if path == "<stdin>":
        return "stdin"
    relative = os.path.relpath(path) if os.path.isabs(path) else os.path.normpath(path)
    return relative.replace(os.sep, "/")


def sarif_rule(rule: Rule) -> dict[str, object]:
    from speclint.rules.pages import rule_page

    return {
        "id": rule.code,
        "name": "".join(part.capitalize() for part in rule.name.split("-")),
        "shortDescription": {"text": rule.summary},
        "fullDescription": {
            "text": rule_page(rule).split("## What it does", 1)[-1].split("## Example", 1)[0].strip()
        },
        "helpUri": rule.url,
        "help": {"text": rule_page(rule), "markdown": rule_page(rule)},
        "defaultConfiguration": {"level": _SARIF_LEVEL[rule.severity.label]},
        "properties": {
            "tags": [rule.name, rule.code[:3]],
            "precision": "high",
            "problem.severity": {"info": "recommendation"}.get(rule.severity.label, rule.severity.label),
        },
    }


def sarif_result(f: Finding, index: dict[str, int]) -> dict[str, object]:
    s = f.span
    return {
        "ruleId": f.code,
        "ruleIndex": index.get(f.code, 0),
        "level": _SARIF_LEVEL[f.severity.label],
        "message": {"text": f.message + (f" Fix: {f.fix_hint}" if f.fix_hint else "")},
        "locations": [
            {
                "physicalLocation": {
                    "artifactLocation": {"uri": _sarif_uri(f.path), "uriBaseId": "%SRCROOT%"},
                    "region": {
                        "startLine": s.line,
                        "startColumn": s.column,
                        "endLine": s.end_line,
                        "endColumn": s.end_column,
                    },
                }
            }
        ],
        "partialFingerprints": {"speclint/v1": fingerprint(f)},
    }


def sarif_log(rules: Iterable[Rule], results: object) -> dict[str, object]:
    """The whole log; `results` is last in it, so a stream writes it between the two halves."""
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "speclint",
                        "version": __version__,
                        "semanticVersion": __version__,
                        "rules": [sarif_rule(rule) for rule in rules],
                    }
                },
                "automationDetails": {"id": "speclint/"},
                "originalUriBaseIds": {"%SRCROOT%": {"uri": "file:///" + os.getcwd().lstrip("/") + "/"}},
                "results": results,
            }
        ],
    }


_RESULTS_HERE = "speclint: the results go here"


class SarifReporter(Reporter):
    """The rule metadata is known up front: the log is written around its `results` array."""

    def start(self) -> None:
        from speclint.rules import all_rules

        rules = list(all_rules())
        self.index = {rule.code: i for i, rule in enumerate(rules)}
        log = json.dumps(sarif_log(rules, _RESULTS_HERE), indent=2)
        head, self.tail = log.split(json.dumps(_RESULTS_HERE))
        self.out.write(head)
        self.array = JsonArray(self.out, 3)  # log → runs → run → results

    def file(self, result: FileResult) -> None:
        for finding in result.findings:
            self.array.add(sarif_result(finding, self.index))

    def finish(self, unreadable: int = 0) -> None:
        self.array.close()
        self.out.write(self.tail + "\n")
