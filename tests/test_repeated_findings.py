"""A finding two files' results both give (a `--config` file linted on its own and through the
script that passes it, in one folder walk) is reported once. Before, each appeared twice
(survey 5's y60)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from speclint.core.findings import Finding, Severity
from speclint.core.spans import Span
from speclint.engine import FileResult
from speclint.report.repeats import RepeatFilter

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "fixtures" / "config" / "script_and_config"


def _check(*args: str) -> subprocess.CompletedProcess:
    env = {"PYTHONPATH": str(ROOT / "src"), "PYTHONDONTWRITEBYTECODE": "1", "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, "-m", "speclint", "check", "--no-cache", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        check=False,
    )


def test_the_config_files_finding_is_reported_once_in_a_folder_walk() -> None:
    done = _check("--output-format", "json", str(FOLDER))
    found = [(f["code"], Path(f["path"]).name, f["line"], f["column"]) for f in json.loads(done.stdout)]
    assert found == [("SPD002", "sglang.yaml", 6, 25)]
    summary = _check("--output-format", "concise", str(FOLDER)).stdout.splitlines()[-1]
    assert summary.startswith("Found 1 finding (1 error): 2 launches in 2 files")


def test_each_file_named_alone_still_reports_it() -> None:
    for name in ("serve.sh", "sglang.yaml"):
        done = _check("--output-format", "json", str(FOLDER / name))
        assert [(f["code"], f["line"]) for f in json.loads(done.stdout)] == [("SPD002", 6)]


def _results(names: list[str]) -> list[FileResult]:
    """One result per script, each giving the same finding in `config.yaml` (as a --config file's
    finding comes through every script that passes it)."""
    span = Span(6, 25, 6, 29)
    return [
        FileResult(name, [Finding("SPD002", "x", Severity.ERROR, "config.yaml", span, "draft tokens")])
        for name in names
    ]


def test_a_run_remembers_a_window_of_findings_not_all() -> None:
    """The memory of reported findings is bounded (issue 19: a run's memory stays flat); a repeat
    further apart than the window is reported again, never dropped wrongly."""
    repeats = RepeatFilter(window=3)
    first, near, *others = _results(["a.sh", "b.sh", "c.sh", "d.sh", "e.sh"])
    repeats.drop_repeats(first)
    repeats.drop_repeats(near)
    assert (len(first.findings), len(near.findings)) == (1, 0)  # the repeat dropped
    for line, result in enumerate(others, start=10):  # three other findings push it out
        result.findings = [Finding("SPD001", "y", Severity.ERROR, result.path, Span(line, 1, line, 2), "m")]
        repeats.drop_repeats(result)
    assert len(repeats.seen) == 3
    (late,) = _results(["f.sh"])
    repeats.drop_repeats(late)
    assert len(late.findings) == 1  # beyond the window: reported again
