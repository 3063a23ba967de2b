"""tools/compare_outputs.py, the before/after byte comparison of issue 18: a snapshot of the
same checkout is the same bytes twice, holds no scratch path, and `diff` catches one byte."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import compare_launches
import compare_outputs

LAUNCH = """#!/bin/sh
python -m sglang.launch_server --model-path /models/llama --speculative-algorithm EAGLE3 \\
  --speculative-draft-model-path /models/eagle3 --speculative-eagle-topk 1 \\
  --speculative-num-steps 1 --speculative-num-draft-tokens 16 --tp-szie 2
"""


@pytest.fixture(scope="module")
def two_snapshots(tmp_path_factory) -> tuple[Path, Path]:
    tmp = tmp_path_factory.mktemp("compare")
    fixtures = tmp / "fixtures"
    (fixtures / "shell").mkdir(parents=True)
    (fixtures / "shell" / "launch.sh").write_text(LAUNCH)
    outs = []
    for name in ("a.txt", "b.txt"):
        out = tmp / name
        compare_outputs.snapshot(
            str(ROOT),
            str(out),
            python=sys.executable,
            n_launches=6,
            per_file=6,
            fixtures=str(fixtures),
            rules_docs=None,
        )
        outs.append(out)
    return outs[0], outs[1]


def test_snapshot_is_deterministic_and_path_free(two_snapshots, capsys):
    a, b = two_snapshots
    text = a.read_text(encoding="utf-8")
    assert a.read_bytes() == b.read_bytes()
    assert compare_outputs.main(["diff", str(a), str(b)]) == 0
    assert "speclint-compare-" not in text and str(ROOT) not in text
    # what a user sees is there: the finding, exit codes, explain with and without a GPU
    assert "fixtures/shell/launch.sh:4:" in text and "FLG001" in text
    assert "exit 1\n" in text and "exit 2\n" in text
    assert "=== explain text fixtures gpu=b200" in text and "GPU: 8× NVIDIA B200" in text
    assert "=== check json gen_000.sh (6 launches)" in text


def test_diff_reports_one_changed_byte(two_snapshots, tmp_path, capsys):
    a, _ = two_snapshots
    changed = tmp_path / "changed.txt"
    shutil.copy(a, changed)
    data = bytearray(changed.read_bytes())
    at = data.index(b"FLG001")
    data[at + 5] = ord("2")
    changed.write_bytes(bytes(data))
    assert compare_outputs.main(["diff", str(a), str(changed)]) == 1
    out = capsys.readouterr().out
    assert "DIFFERENT: 1 of" in out and "+" in out and "FLG002" in out


def test_generated_launches_are_seeded(tmp_path):
    first = compare_launches.generate(40, 3, 20, str(tmp_path / "models"))
    again = compare_launches.generate(40, 3, 20, str(tmp_path / "models"))
    other = compare_launches.generate(40, 4, 20, str(tmp_path / "models"))
    assert [b.text for b in first] == [b.text for b in again] != [b.text for b in other]
    assert [b.count for b in first] == [20, 20]
    assert sum(b.text.count("sglang") for b in first) >= 40
