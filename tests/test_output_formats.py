"""Each output format carries what its consumer needs (GitHub, GitLab, JUnit readers, SARIF)."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from speclint_runs import run_speclint

ROOT = Path(__file__).resolve().parent.parent
TOPK1 = "fixtures/shell/eagle_topk1_draft_tokens.sh"


def run(*args: str) -> subprocess.CompletedProcess:
    return run_speclint(*args, timeout=60)


def test_sarif_has_every_property_github_code_scanning_requires():
    result = run("--output-format", "sarif", TOPK1)
    assert result.returncode == 1
    log = json.loads(result.stdout)
    assert log["version"] == "2.1.0" and log["$schema"].endswith("sarif-2.1.0.json")
    [run_] = log["runs"]
    driver = run_["tool"]["driver"]
    assert driver["name"] == "speclint" and driver["rules"]
    ids = [rule["id"] for rule in driver["rules"]]
    for rule in driver["rules"]:
        for key in ("shortDescription", "fullDescription", "help"):
            assert rule[key]["text"].strip(), (rule["id"], key)
        assert len(rule["shortDescription"]["text"]) <= 1024
        assert rule["defaultConfiguration"]["level"] in ("note", "warning", "error")
    assert run_["results"]
    for res in run_["results"]:
        assert res["message"]["text"].strip()
        assert ids[res["ruleIndex"]] == res["ruleId"]
        assert res["level"] in ("note", "warning", "error")
        [location] = res["locations"]
        artifact = location["physicalLocation"]["artifactLocation"]
        assert artifact["uri"] == TOPK1  # relative to the repository root, forward slashes
        region = location["physicalLocation"]["region"]
        assert all(
            isinstance(region[k], int) and region[k] >= 1
            for k in ("startLine", "startColumn", "endLine", "endColumn")
        )
    spd = next(r for r in run_["results"] if r["ruleId"] == "SPD001")
    assert spd["locations"][0]["physicalLocation"]["region"] == {
        "startLine": 9,
        "startColumn": 87,
        "endLine": 9,
        "endColumn": 89,
    }


def test_github_annotations():
    lines = run("--output-format", "github", "--select", "ALL", TOPK1).stdout.splitlines()
    spd = next(l for l in lines if "SPD001" in l)
    assert spd.startswith(
        f"::warning file={TOPK1},line=9,col=87,endLine=9,endColumn=89,"
        "title=speclint (SPD001 topk-one-overrides-draft-tokens)::"
    )
    assert any(l.startswith("::notice ") for l in lines)  # info findings


def test_gitlab_code_quality():
    issues = json.loads(run("--output-format", "gitlab", TOPK1).stdout)
    spd = next(i for i in issues if i["check_name"] == "SPD001")
    assert spd["severity"] == "minor" and len(spd["fingerprint"]) == 64
    assert spd["location"] == {
        "path": TOPK1,
        "positions": {"begin": {"line": 9, "column": 87}, "end": {"line": 9, "column": 89}},
    }
    assert len({i["fingerprint"] for i in issues}) == len(issues)


def test_junit_is_valid_xml_with_one_failure_per_finding():
    root = ET.fromstring(run("--output-format", "junit", TOPK1).stdout)
    failures = root.findall(".//failure")
    assert int(root.get("failures")) == len(failures) >= 2
    assert any(tc.get("name").startswith("SPD001") for tc in root.iter("testcase"))


def test_concise_and_json_lines():
    concise = run("--output-format", "concise", TOPK1).stdout.splitlines()
    assert f"{TOPK1}:9:87: SPD001 [warning]" in "\n".join(concise)
    assert not any(l.startswith(" ") for l in concise)
    records = [json.loads(l) for l in run("--output-format", "json-lines", TOPK1).stdout.splitlines()]
    assert any(r["code"] == "SPD001" and r["line"] == 9 for r in records)


def test_output_file(tmp_path):
    out = tmp_path / "report.sarif"
    result = run("--output-format", "sarif", "-o", str(out), TOPK1)
    assert result.returncode == 1 and result.stdout == ""
    assert json.loads(out.read_text())["version"] == "2.1.0"


def test_rule_and_rules_commands():
    page = run("rule", "topk-one-overrides-draft-tokens")
    assert page.returncode == 0 and page.stdout.startswith("# topk-one-overrides-draft-tokens (SPD001)")
    assert run("rule", "SPD001").stdout == page.stdout
    assert run("rule", "NOPE999").returncode == 2
    listing = json.loads(run("rules", "--output-format", "json").stdout)
    assert {"SPD001", "FLG001"} <= {r["code"] for r in listing}
    assert all(r["doc"].startswith("# ") for r in listing)


def test_junit_attribute_quoting_matches_the_standard_library():
    from xml.sax.saxutils import quoteattr as standard

    from speclint.report.junit import quoteattr

    for text in [
        "plain",
        'say "hi"',
        "it's",
        "both ' and \"",
        "a&b<c>d",
        "tab\there\nnew\rline",
        "",
        "&quot;",
        "\u2028 é",
    ]:
        assert quoteattr(text) == standard(text), text


def test_the_text_report_does_not_import_xml_or_urllib():
    import subprocess

    code = (
        "import sys; from speclint.cli import main\n"
        "try:\n    main(['--exit-zero', 'fixtures/shell/variables.sh'])\n"
        "except SystemExit:\n    pass\n"
        "print(sorted(m for m in ('xml.sax', 'urllib.request') if m in sys.modules), file=sys.stderr)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=str(__import__("pathlib").Path(__file__).resolve().parent.parent),
    )
    assert out.stderr.strip().splitlines()[-1] == "[]"
