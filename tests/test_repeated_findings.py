"""A finding two files' results both give (a `--config` file linted on its own and through the
script that passes it, in one folder walk) is reported once. Before, each appeared twice
(survey 5's y60)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

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
