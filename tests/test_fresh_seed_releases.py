"""What `speclint explain` shows where session 12's fresh-seed differential
(tools/oracle/differential.py, seeds 12011-12013 on releases no earlier differential drew)
found a value speclint stated wrong. Expected values are the releases' own, from their
recordings (tests/data/oracle/seeds/12011/) and the source lines named."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
M = "fixtures/models/"


def explain(tmp_path: Path, version: str, line: str) -> dict:
    script = tmp_path / "launch.sh"
    script.write_text(line + "\n")
    result = subprocess.run(
        [sys.executable, "-m", "speclint", "explain", "--output-format", "json", "--sglang-version", version]
        + [str(script)],
        text=True,
        capture_output=True,
        cwd=ROOT,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    [found] = json.loads(result.stdout)
    return dict(found)


STANDALONE = (
    f"SGLANG_ENABLE_SPEC_V2=1 python -m sglang.launch_server --model-path {M}llama-3.1-8b-instruct "
    f"--speculative-algorithm STANDALONE --speculative-draft-model-path {M}llama-3.1-8b-instruct "
    "--speculative-num-steps 2 --speculative-eagle-topk 8 --speculative-num-draft-tokens 4"
)


def test_spec_v2_keeps_the_overlap_scheduler_only_for_eagle_in_0_5_7_to_0_5_10(tmp_path):
    # 0.5.7-0.5.10.post1 `_handle_speculative_decoding`: `if algorithm in ["EAGLE", "EAGLE3"]
    # and SGLANG_ENABLE_SPEC_V2: disable_overlap_schedule = False ... else: ... = True`
    # (recorded: 0.5.7, seed 12011, STANDALONE with spec v2 -> True)
    for version in ("0.5.7", "0.5.10.post1"):
        launch = explain(tmp_path, version, STANDALONE)
        assert launch["effective"]["disable_overlap_schedule"] is True, version
    eagle = STANDALONE.replace("STANDALONE", "EAGLE3").replace(
        f"{M}llama-3.1-8b-instruct --speculative-num", f"{M}eagle3-llama-3.1-8b-instruct --speculative-num"
    )
    assert (
        explain(tmp_path, "0.5.7", eagle.replace("topk 8", "topk 1"))["effective"]["disable_overlap_schedule"]
        is False
    )


def test_spec_v2_leaves_the_overlap_scheduler_as_given_for_standalone_in_0_5_6(tmp_path):
    # 0.5.6.post2: only `if not SGLANG_ENABLE_SPEC_V2: disable_overlap_schedule = True`
    assert explain(tmp_path, "0.5.6.post2", STANDALONE)["effective"]["disable_overlap_schedule"] is False
