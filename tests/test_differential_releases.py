"""What `speclint explain` shows for launches where session 11's fresh-seed differential
(tools/oracle/differential.py --unknown, seeds 11011/11012 on releases other than 0.5.23)
found speclint leaving unknown a value the release resolves. Expected values are the
releases' own, from their recordings (tests/data/oracle/) and the source lines named."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
M = "fixtures/models/"


def explain(tmp_path: Path, version: str, *launches: str, gpu: str | None = None) -> list[dict]:
    script = tmp_path / "launch.sh"
    script.write_text("".join(f"python -m sglang.launch_server --model-path {M}{a}\n" for a in launches))
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


def test_0_5_2_eagle_turns_the_overlap_scheduler_off_without_a_beta_spec_flag(tmp_path):
    # 0.5.2 has no --enable-beta-spec (0.5.3 added it): `__post_init__` disables the overlap
    # scheduler for EAGLE, EAGLE3 and STANDALONE whatever else is given
    [launch] = explain(
        tmp_path,
        "0.5.2",
        f"llama-3.1-8b-instruct --speculative-algorithm EAGLE3 --speculative-draft-model-path "
        f"{M}eagle3-llama-3.1-8b-instruct --speculative-num-steps 3 --speculative-eagle-topk 1 "
        "--speculative-num-draft-tokens 4",
    )
    assert launch["resolution_exact"] is True and launch["resolution_modelled_on"] == "0.5.2"
    assert launch["effective"]["disable_overlap_schedule"] is True
    assert "disable_overlap_schedule" not in launch.get("unknown", {})
