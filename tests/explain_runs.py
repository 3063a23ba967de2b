"""`speclint explain --output-format json` on launch lines, as a user runs it (one process per
call): the tests that compare a release's explained values share this."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODELS = "fixtures/models/"


def explain_lines(tmp_path: Path, version: str, lines: list[str], gpu: str | None = None) -> list[dict]:
    """Each launch's explained record, for `lines` written to a script and explained against
    SGLang `version` (and `gpu` when given)."""
    script = tmp_path / "launch.sh"
    script.write_text("".join(line + "\n" for line in lines))
    result = subprocess.run(
        [sys.executable, "-m", "speclint", "explain", "--output-format", "json", "--sglang-version", version]
        + (["--gpu", gpu] if gpu else [])
        + [str(script)],
        text=True,
        capture_output=True,
        cwd=ROOT,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    found: list[dict] = json.loads(result.stdout)
    return found


def explain_launches(tmp_path: Path, version: str, *flags: str, gpu: str | None = None) -> list[dict]:
    """`python -m sglang.launch_server --model-path fixtures/models/<flags>` per entry."""
    return explain_lines(
        tmp_path, version, [f"python -m sglang.launch_server --model-path {MODELS}{f}" for f in flags], gpu
    )
