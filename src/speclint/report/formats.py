"""Machine formats for CI: concise, json-lines, github, gitlab, junit, sarif."""

from __future__ import annotations

import hashlib
import json
import os
from xml.sax.saxutils import quoteattr

from speclint import __version__
from speclint.report.json_format import finding_dict

_GITLAB_SEVERITY = {"error": "major", "warning": "minor", "info": "info"}
_SARIF_LEVEL = {"error": "error", "warning": "warning", "info": "note"}
_GITHUB_LEVEL = {"error": "error", "warning": "warning", "info": "notice"}


def _findings(results):
    return [f for r in results for f in r.findings]


def render_concise(results) -> str:
    return "\n".join(f"{f.path}:{f.span.line}:{f.span.column}: {f.code} [{f.severity.label}] "
                     f"{f.message}" for f in _findings(results))


def render_json_lines(results) -> str:
    return "\n".join(json.dumps(finding_dict(f)) for f in _findings(results))


def _github_escape(text: str, property_value: bool = False) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if property_value:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


def render_github(results) -> str:
    lines = []
    for f in _findings(results):
        s = f.span
        props = (f"file={_github_escape(f.path, True)},line={s.line},col={s.column},"
                 f"endLine={s.end_line},endColumn={s.end_column},"
                 f"title={_github_escape(f'speclint ({f.code} {f.name})', True)}")
        body = f"{f.message}" + (f" Fix: {f.fix_hint}" if f.fix_hint else "")
        lines.append(f"::{_GITHUB_LEVEL[f.severity.label]} {props}::{_github_escape(body)}")
    return "\n".join(lines)


def _fingerprint(f) -> str:
    key = f"{f.path}:{f.code}:{f.span.line}:{f.span.column}:{f.message}"
    return hashlib.sha256(key.encode()).hexdigest()


def render_gitlab(results) -> str:
    return json.dumps([{
        "description": f"{f.code} {f.message}",
        "check_name": f.code,
        "fingerprint": _fingerprint(f),
        "severity": _GITLAB_SEVERITY[f.severity.label],
        "location": {"path": f.path, "positions": {
            "begin": {"line": f.span.line, "column": f.span.column},
            "end": {"line": f.span.end_line, "column": f.span.end_column}}},
    } for f in _findings(results)], indent=2)


def render_junit(results) -> str:
    out = ['<?xml version="1.0" encoding="UTF-8"?>']
    findings = _findings(results)
    out.append(f'<testsuites name="speclint" tests="{max(len(findings), 1)}" '
               f'failures="{len(findings)}" errors="0">')
    for result in results:
        cases = result.findings
        out.append(f'  <testsuite name={quoteattr(result.path)} tests="{max(len(cases), 1)}" '
                   f'failures="{len(cases)}" errors="0">')
        if not cases:
            out.append(f'    <testcase name="speclint" classname={quoteattr(result.path)}/>')
        for f in cases:
            out.append(f'    <testcase name={quoteattr(f"{f.code} {f.name}")} '
                       f'classname={quoteattr(result.path)} line="{f.span.line}">')
            out.append(f'      <failure message={quoteattr(f.message)} type={quoteattr(f.severity.label)}>'
                       f'{f.path}:{f.span.line}:{f.span.column}: {_xml_text(f.message)}</failure>')
            out.append("    </testcase>")
        out.append("  </testsuite>")
    out.append("</testsuites>")
    return "\n".join(out)


def _xml_text(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _sarif_uri(path: str) -> str:
    """A path relative to the working directory (the repository root in CI), with forward
    slashes: GitHub code scanning matches results to files by it."""
    if path == "<stdin>":
        return "stdin"
    relative = os.path.relpath(path) if os.path.isabs(path) else os.path.normpath(path)
    return relative.replace(os.sep, "/")


def sarif_rule(rule) -> dict:
    from speclint.rules.base import rule_page

    return {
        "id": rule.code,
        "name": "".join(part.capitalize() for part in rule.name.split("-")),
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": rule_page(rule).split("## What it does", 1)[-1]
                            .split("## Example", 1)[0].strip()},
        "help": {"text": rule_page(rule), "markdown": rule_page(rule)},
        "defaultConfiguration": {"level": _SARIF_LEVEL[rule.severity.label]},
        "properties": {"tags": [rule.name, rule.code[:3]], "precision": "high",
                       "problem.severity": {"info": "recommendation"}.get(rule.severity.label,
                                                                           rule.severity.label)},
    }


def render_sarif(results) -> str:
    from speclint.rules import all_rules

    rules = list(all_rules())
    index = {rule.code: i for i, rule in enumerate(rules)}
    sarif_results = []
    for f in _findings(results):
        s = f.span
        sarif_results.append({
            "ruleId": f.code,
            "ruleIndex": index.get(f.code, 0),
            "level": _SARIF_LEVEL[f.severity.label],
            "message": {"text": f.message + (f" Fix: {f.fix_hint}" if f.fix_hint else "")},
            "locations": [{"physicalLocation": {
                "artifactLocation": {"uri": _sarif_uri(f.path), "uriBaseId": "%SRCROOT%"},
                "region": {"startLine": s.line, "startColumn": s.column,
                           "endLine": s.end_line, "endColumn": s.end_column}}}],
            "partialFingerprints": {"speclint/v1": _fingerprint(f)},
        })
    return json.dumps({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "speclint", "version": __version__,
                                "semanticVersion": __version__,
                                "rules": [sarif_rule(rule) for rule in rules]}},
            "automationDetails": {"id": "speclint/"},
            "originalUriBaseIds": {"%SRCROOT%": {"uri": "file:///" + os.getcwd().lstrip("/") + "/"}},
            "results": sarif_results,
        }],
    }, indent=2)
