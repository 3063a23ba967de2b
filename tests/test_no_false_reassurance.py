"""No false reassurance: a launch with unknown values, and a file that names SGLang's
launcher but yields no launch, are reported (info), counted in the summary line, and keep
"All checks passed" for runs where every launch was read whole."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from speclint_runs import run_speclint

from speclint.engine import lint_path, lint_text

ROOT = Path(__file__).resolve().parent.parent
UNREAD = ROOT / "fixtures" / "unread"


def speclint(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return run_speclint(*args, stdin=stdin)


@pytest.mark.parametrize(
    "name, where, named",
    [
        ("watch_restart.sh", (4, 25, 45), "sglang.launch_server"),
        ("launcher_in_string.py", (4, 13, 33), "sglang.launch_server"),
        ("flags_only.yaml", (4, 15, 38), "--speculative-algorithm"),
        ("prose_only.md", (3, 5, 15), "sgl.Engine"),
        ("Dockerfile", (2, 18, 38), "sglang.launch_server"),
        ("engine_note.ipynb", (1, 64, 74), "sgl.Engine"),
        ("fixture_subclass.py", (6, 6, 33), "sglang.test.server_fixtures"),
        ("config_in_string.py", (7, 1, 22), "speculative-algorithm"),
        ("recipe_keys.md", (6, 1, 22), "speculative-algorithm"),
    ],
)
def test_a_file_naming_the_launcher_without_a_launch_gets_one_finding(name, where, named):
    result = lint_path(str(UNREAD / name))
    assert result.contexts == []
    (finding,) = result.findings
    assert finding.code == "SLM005" and finding.severity.label == "info"
    assert (finding.span.line, finding.span.column, finding.span.end_column) == where
    assert f"names `{named}` but speclint found no launch" in finding.message


def test_the_reason_is_given_when_the_front_end_knows_it():
    (finding,) = lint_path(str(UNREAD / "watch_restart.sh")).findings
    assert "the command `watch` at line 4 names the launcher" in finding.message


def test_speculative_settings_in_other_spellings_are_mentions():
    (finding,) = lint_text('engine_args = {"speculative_algorithm": "EAGLE3"}\n', "a.py").findings
    assert "names `speculative_algorithm` but speclint found no launch" in finding.message
    assert (
        lint_text('my_speculative_algorithm = "EAGLE3"\nprint("speculative-algorithms")\n', "a.py").findings
        == []
    )


def test_the_launcher_is_named_before_a_helper_mentioned_earlier():
    text = (
        "import os\n"
        "from sglang.utils import launch_server_cmd\n"
        'USAGE = "runs python -m sglang.launch_server with the flags in CMD"\n'
        'launch_server_cmd(os.environ["CMD"])\n'
    )
    (finding,) = lint_text(text, "a.py").findings
    assert (finding.code, finding.span.line, finding.span.column) == ("SLM005", 3, 25)
    assert "names `sglang.launch_server`" in finding.message


def test_mentions_in_comments_and_files_with_launches_are_quiet():
    assert lint_text("# python -m sglang.launch_server runs elsewhere\necho ok\n", "a.sh").findings == []
    text = "python -m sglang.launch_server --model-path m\necho sglang.launch_server\n"
    assert [f.code for f in lint_text(text, "a.sh").findings] == []


def test_partly_read_launch_names_each_unknown_value_once():
    text = (
        "TP=$(nvidia-smi -L | wc -l)\n"
        'python -m sglang.launch_server --model-path "$MODEL" --tp-size $TP --port 30000\n'
    )
    (finding,) = lint_text(text, "a.sh").findings
    assert finding.code == "SLM004"
    assert (finding.span.line, finding.span.column, finding.span.end_column) == (2, 45, 53)
    assert "the value of `--model-path` ($MODEL is not assigned in this file" in finding.message
    assert "the value of `--tp-size` (output of command substitution `$(nvidia-smi" in finding.message
    assert [(n.span.line, n.span.column) for n in finding.notes] == [(2, 64)]


def test_summary_and_exit_code(tmp_path):
    whole = tmp_path / "whole.sh"
    whole.write_text("python -m sglang.launch_server --model-path m --tp-size 2\n")
    partly = tmp_path / "partly.sh"
    partly.write_text("python -m sglang.launch_server --model-path m --tp-size $TP\n")
    done = speclint(str(whole))
    assert done.returncode == 0 and done.stdout.strip().splitlines()[-1].startswith(
        "All checks passed: 1 launch in 1 file"
    )
    done = speclint(str(whole), str(partly))
    last = done.stdout.strip().splitlines()[-1]
    assert done.returncode == 0  # infos do not fail the default --fail-on warning
    assert last.startswith("Found 1 finding (1 info): 2 launches in 2 files")
    assert last.endswith("; 1 launch only partly read.")
    assert speclint("--fail-on", "info", str(partly)).returncode == 1
    done = speclint("--ignore", "SLM004", str(whole), str(partly))  # silenced, still counted
    last = done.stdout.strip().splitlines()[-1]
    assert last.startswith("No findings: 2 launches in 2 files") and "1 launch only partly read" in last
    done = speclint("--ignore", "SLM", str(UNREAD / "watch_restart.sh"))
    assert done.stdout.strip().endswith("1 file naming SGLang with no launch found.")
    assert "All checks passed" not in done.stdout


def test_machine_formats_carry_the_info_findings():
    found = json.loads(speclint("--output-format", "json", str(UNREAD / "flags_only.yaml")).stdout)
    assert [(f["code"], f["name"], f["severity"], f["line"]) for f in found] == [
        ("SLM005", "no-launch-found", "info", 4)
    ]
    sarif = json.loads(
        speclint(
            "--output-format",
            "sarif",
            "-",
            stdin="python -m sglang.launch_server --model-path m --tp-size $TP\n",
        ).stdout
    )
    run = sarif["runs"][0]
    assert [r["ruleId"] for r in run["results"]] == ["SLM004"]
    rule_ids = {rule["id"] for rule in run["tool"]["driver"]["rules"]}
    assert {"SLM004", "SLM005"} <= rule_ids
