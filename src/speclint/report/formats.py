"""Machine formats for CI (concise, json-lines, github, gitlab, junit, sarif), one finding or
file at a time: report/stream.py writes them as results arrive."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from typing import TYPE_CHECKING

from speclint import __version__
from speclint.report.json_format import finding_dict

if TYPE_CHECKING:
    from speclint.lint import FileResult
    from speclint.core.findings import Finding
    from speclint.rules.base import Rule

_GITLAB_SEVERITY = {"error": "major", "warning": "minor", "info": "info"}
_SARIF_LEVEL = {"error": "error", "warning": "warning", "info": "note"}
_GITHUB_LEVEL = {"error": "error", "warning": "warning", "info": "notice"}


def json_line(f: Finding) -> str:
    return json.dumps(finding_dict(f))


def _github_escape(text: str, property_value: bool = False) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if property_value:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


def github_line(f: Finding) -> str:
    s = f.span
    props = (f"file={_github_escape(f.path, True)},line={s.line},col={s.column},"
             f"endLine={s.end_line},endColumn={s.end_column},"
             f"title={_github_escape(f'speclint ({f.code} {f.name})', True)}")
    body = f"{f.message}" + (f" Fix: {f.fix_hint}" if f.fix_hint else "")
    return f"::{_GITHUB_LEVEL[f.severity.label]} {props}::{_github_escape(body)}"


def _fingerprint(f: Finding) -> str:
    import hashlib  # only gitlab and sarif need it (3 ms of start-up)

    key = f"{f.path}:{f.code}:{f.span.line}:{f.span.column}:{f.message}"
    return hashlib.sha256(key.encode()).hexdigest()


def gitlab_issue(f: Finding) -> dict[str, object]:
    return {
        "description": f"{f.code} {f.message}",
        "check_name": f.code,
        "fingerprint": _fingerprint(f),
        "severity": _GITLAB_SEVERITY[f.severity.label],
        "location": {"path": f.path, "positions": {
            "begin": {"line": f.span.line, "column": f.span.column},
            "end": {"line": f.span.end_line, "column": f.span.end_column}}},
    }


def junit_head(findings: int) -> list[str]:
    return ['<?xml version="1.0" encoding="UTF-8"?>',
            f'<testsuites name="speclint" tests="{max(findings, 1)}" '
            f'failures="{findings}" errors="0">']


def junit_suite(result: FileResult) -> list[str]:
    """One file's <testsuite>: a passing test case when it has no findings."""
    cases, path = result.findings, quoteattr(result.path)
    out = [f'  <testsuite name={path} tests="{max(len(cases), 1)}" '
           f'failures="{len(cases)}" errors="0">']
    if not cases:
        out.append(f'    <testcase name="speclint" classname={path}/>')
    for f in cases:
        out.append(f'    <testcase name={quoteattr(f"{f.code} {f.name}")} '
                   f'classname={path} line="{f.span.line}">')
        out.append(f'      <failure message={quoteattr(f.message)} type={quoteattr(f.severity.label)}>'
                   f'{f.path}:{f.span.line}:{f.span.column}: {_xml_text(f.message)}</failure>')
        out.append("    </testcase>")
    out.append("  </testsuite>")
    return out


def quoteattr(text: str) -> str:
    """`xml.sax.saxutils.quoteattr`, which is not imported because xml.sax pulls in
    urllib and http.client (27 ms of every run's start-up)."""
    text = _xml_text(text).replace("\n", "&#10;").replace("\r", "&#13;").replace("\t", "&#9;")
    if '"' not in text:
        return f'"{text}"'
    if "'" not in text:
        return f"'{text}'"
    return '"' + text.replace('"', "&quot;") + '"'


def _xml_text(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


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
        "fullDescription": {"text": rule_page(rule).split("## What it does", 1)[-1]
                            .split("## Example", 1)[0].strip()},
        "helpUri": rule.url,
        "help": {"text": rule_page(rule), "markdown": rule_page(rule)},
        "defaultConfiguration": {"level": _SARIF_LEVEL[rule.severity.label]},
        "properties": {"tags": [rule.name, rule.code[:3]], "precision": "high",
                       "problem.severity": {"info": "recommendation"}.get(rule.severity.label,
                                                                           rule.severity.label)},
    }


def sarif_result(f: Finding, index: dict[str, int]) -> dict[str, object]:
    s = f.span
    return {
        "ruleId": f.code,
        "ruleIndex": index.get(f.code, 0),
        "level": _SARIF_LEVEL[f.severity.label],
        "message": {"text": f.message + (f" Fix: {f.fix_hint}" if f.fix_hint else "")},
        "locations": [{"physicalLocation": {
            "artifactLocation": {"uri": _sarif_uri(f.path), "uriBaseId": "%SRCROOT%"},
            "region": {"startLine": s.line, "startColumn": s.column,
                       "endLine": s.end_line, "endColumn": s.end_column}}}],
        "partialFingerprints": {"speclint/v1": _fingerprint(f)},
    }


def sarif_log(rules: Iterable[Rule], results: object) -> dict[str, object]:
    """The whole log; `results` is last in it, so a stream writes it between the two halves."""
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "speclint", "version": __version__,
                                "semanticVersion": __version__,
                                "rules": [sarif_rule(rule) for rule in rules]}},
            "automationDetails": {"id": "speclint/"},
            "originalUriBaseIds": {"%SRCROOT%": {"uri": "file:///" + os.getcwd().lstrip("/") + "/"}},
            "results": results,
        }],
    }
