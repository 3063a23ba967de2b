"""--fix and --diff: certain fixes only, every other byte kept, atomic, idempotent."""

from __future__ import annotations

import os
import stat
import subprocess
from pathlib import Path

import pytest
from speclint_runs import run_speclint

from speclint.engine import lint_text
from speclint.runner.fix import apply_edits, fix_path
from speclint.settings.options import LintOptions

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = (
    "#!/bin/bash\n"
    "# keep this comment\n"
    "python -m sglang.launch_server --model-path m --tp 4 --mem-fraction-static 0.8 \\\n"
    "  --speculative-algorithm EAGLE3 --speculative-draft-model-path d \\\n"
    "  --speculative-eagle-topk 1 --speculative-num-steps 3 --speculative-num-draft-tokens 8 \\\n"
    "  --max-running-requests 64 --tp-size 8   # trailing\n"
)
FIXED = (
    "#!/bin/bash\n"
    "# keep this comment\n"
    "python -m sglang.launch_server --model-path m --mem-fraction-static 0.8 \\\n"
    "  --speculative-algorithm EAGLE3 --speculative-draft-model-path d \\\n"
    "  --speculative-eagle-topk 1 --speculative-num-steps 3 --speculative-num-draft-tokens 4 \\\n"
    "  --max-running-requests 64 --tp-size 8   # trailing\n"
)


def run(*args: str) -> subprocess.CompletedProcess:
    return run_speclint(*args, timeout=60)


def test_fix_applies_safe_fixes_and_unsafe_ones_only_when_asked(tmp_path):
    script = tmp_path / "launch.sh"
    script.write_text(SCRIPT)
    safe = run("check", "--fix", str(script))
    # the overridden `--tp 4` goes (nothing changes at runtime); the author's 8 draft tokens
    # stay: rewriting them to 4 erases what they asked for, and SPD001 keeps saying so
    assert script.read_text() == FIXED.replace("num-draft-tokens 4", "num-draft-tokens 8")
    assert "Fixed 1 finding; 1 unsafe fix not applied (`--unsafe-fixes` applies them)." in safe.stderr
    assert "SPD001 [warning]" in safe.stdout and safe.returncode == 1


def test_fix_rewrites_in_place_and_relint_is_clean_of_fixed_findings(tmp_path):
    script = tmp_path / "launch.sh"
    script.write_text(SCRIPT)
    script.chmod(0o750)
    result = run("check", "--fix", "--unsafe-fixes", "--select", "ALL", str(script))
    assert script.read_text() == FIXED
    assert stat.S_IMODE(script.stat().st_mode) == 0o750
    assert "Fixed 2 findings." in result.stderr  # the spelled-out --tp was removed anyway
    codes = {f.code for f in lint_text(FIXED, "x.sh").findings}
    assert not codes & {"FLG003", "FLG007", "SPD001"}
    assert result.returncode == 0, result.stdout  # nothing at warning level is left


def test_fix_is_idempotent(tmp_path):
    script = tmp_path / "launch.sh"
    script.write_text(SCRIPT)
    run("check", "--fix", str(script))
    first = script.read_bytes()
    again = run("check", "--fix", str(script))
    assert script.read_bytes() == first and "Fixed" not in again.stderr


def test_diff_prints_a_unified_diff_and_changes_nothing(tmp_path):
    script = tmp_path / "launch.sh"
    script.write_text(SCRIPT)
    result = run("check", "--diff", "--unsafe-fixes", str(script))
    assert result.returncode == 1
    assert script.read_text() == SCRIPT
    assert (
        "-python -m sglang.launch_server --model-path m --tp 4 --mem-fraction-static 0.8 \\" in result.stdout
    )
    assert (
        "+  --speculative-eagle-topk 1 --speculative-num-steps 3 --speculative-num-draft-tokens 4 \\"
        in result.stdout
    )
    clean = tmp_path / "clean.sh"
    clean.write_text(FIXED)
    assert run("check", "--diff", "--unsafe-fixes", str(clean)).returncode == 0


def test_crlf_and_bom_are_kept(tmp_path):
    script = tmp_path / "launch.sh"
    script.write_bytes(b"\xef\xbb\xbf" + SCRIPT.replace("\n", "\r\n").encode())
    run("check", "--fix", "--unsafe-fixes", str(script))
    assert script.read_bytes() == b"\xef\xbb\xbf" + FIXED.replace("\n", "\r\n").encode()


def test_values_from_variables_and_quoted_words_are_not_touched(tmp_path):
    text = 'TP=4\npython -m sglang.launch_server --model-path m --tp "$TP" --tp-size 8 "--tp" 2\n'
    script = tmp_path / "launch.sh"
    script.write_text(text)
    result, diff, applied, problem = fix_path(str(script), LintOptions(), [str(tmp_path)], True)
    assert problem is None
    # `--tp` is spelled out where written literally (inside quotes too); of the overridden
    # copies, the literal `--tp-size 8` is removed and the one whose value is a variable stays
    assert script.read_text() == (
        'TP=4\npython -m sglang.launch_server --model-path m --tp-size "$TP" "--tp-size" 2\n'
    )


def test_invalid_utf8_is_refused_and_left_alone(tmp_path):
    script = tmp_path / "launch.sh"
    data = b"python -m sglang.launch_server --model-path m --tp 2 # \xff\n"
    script.write_bytes(data)
    result = run("check", "--fix", str(script))
    assert script.read_bytes() == data
    assert result.returncode == 2 and "not valid UTF-8" in result.stderr


def test_symlink_outside_the_tree_is_refused(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    real = outside / "real.sh"
    real.write_text(SCRIPT)
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "link.sh").symlink_to(real)
    result = run("check", "--fix", str(tree))
    assert real.read_text() == SCRIPT
    assert result.returncode == 2 and "outside the linted tree" in result.stderr


def test_a_failed_write_leaves_the_original(tmp_path, monkeypatch):
    script = tmp_path / "launch.sh"
    script.write_text(SCRIPT)

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    _, _, _, problem = fix_path(str(script), LintOptions(), [str(tmp_path)], True)
    assert "No space left on device" in problem
    assert script.read_text() == SCRIPT
    assert [p.name for p in tmp_path.iterdir()] == ["launch.sh"]  # no temporary left behind


def test_overlapping_edits_apply_one_per_pass():
    from speclint.core.findings import Edit
    from speclint.core.spans import Span

    text = "abcdef\n"
    edits = [Edit(Span(1, 1, 1, 4), "X", "a"), Edit(Span(1, 2, 1, 5), "Y", "b")]
    fixed, applied = apply_edits(text, edits)
    assert applied == 1 and fixed in ("Xdef\n", "aYef\n")


def test_seed_kimi_launch_is_fixed_to_eagle3(tmp_path):
    script = tmp_path / "kimi.sh"
    original = (ROOT / "fixtures/shell/kimi_eagle_launch.sh").read_text()
    script.write_text(original)
    maps = [
        "--model-config",
        f"/models/Kimi-K2.5={ROOT}/fixtures/models/kimi-k2.5",
        "--model-config",
        f"/models/kimi-eagle3={ROOT}/fixtures/models/eagle3-kimi-k2.5",
    ]
    before = run("--output-format", "json", *maps, str(script))
    assert any(f["code"] == "DRF001" and f["line"] == 19 for f in __import__("json").loads(before.stdout))
    safe = run("check", "--fix", *maps, str(script))
    assert script.read_text() == original  # serving with EAGLE3 changes what runs: unsafe
    assert "DRF001 [error]" in safe.stdout
    run("check", "--fix", "--unsafe-fixes", "--select", "ALL", *maps, str(script))
    fixed = script.read_text()
    assert "--speculative-algorithm EAGLE3 \\\n" in fixed
    assert fixed.replace("EAGLE3", "EAGLE").replace("--tp-size", "--tp") == original
    after = run("--output-format", "json", *maps, str(script))
    assert "DRF001" not in {f["code"] for f in __import__("json").loads(after.stdout)}


PY_WRAPPER = """import subprocess
import sys

ARGS = [sys.executable, "-m", "sglang.launch_server", "--model-path", "/m",
        "--tp", "2", "--speculative-algorithm", "EAGLE3",
        "--speculative-draft-model-path", "/d", "--max-running-requests", "32",
        "--speculative-eagle-topk", "1", "--speculative-num-steps", "3",
        "--speculative-num-draft-tokens", "8"]
subprocess.Popen(ARGS)
"""

K8S_ARGS = """apiVersion: v1
kind: Pod
spec:
  containers:
    - name: sglang
      image: lmsysorg/sglang:v0.5.6.post2
      command: ["python3", "-m", "sglang.launch_server"]
      args: ["--model-path", "/m", "--tp", "4", "--mem-fraction-static", "0.8"]
"""


@pytest.mark.parametrize(
    "name, source, expected",
    [
        (
            "wrap.py",
            PY_WRAPPER,
            PY_WRAPPER.replace('"--tp", "2"', '"--tp-size", "2"').replace(
                '"--speculative-num-draft-tokens", "8"', '"--speculative-num-draft-tokens", "4"'
            ),
        ),
        ("pod.yaml", K8S_ARGS, K8S_ARGS.replace('"--tp", "4"', '"--tp-size", "4"')),
    ],
)
def test_python_and_yaml_sources_are_fixed_in_place_keeping_quotes(tmp_path, name, source, expected):
    path = tmp_path / name
    path.write_text(source)
    before = {f.code for f in lint_text(source, str(path)).findings}
    assert "FLG003" in before
    every = ("--select", "ALL", "--unsafe-fixes")
    result = run("check", "--fix", *every, str(path))
    assert path.read_text() == expected, result.stdout + result.stderr
    after = {f.code for f in lint_text(expected, str(path)).findings}
    assert not after & {"FLG003", "SPD001"}
    assert run("check", "--diff", *every, str(path)).returncode == 0  # idempotent


@pytest.mark.parametrize(
    "name, expected_lines",
    [
        (
            "old_docs_cuda_graph.sh",
            [
                "  --cuda-graph-max-bs-decode 160 --cuda-graph-bs-decode 1 2 4 8 16 \\",
                "  --incremental-streaming-output --cuda-graph-backend-prefill disabled \\",
                "  --enable-ep-moe --tp-size 8",
            ],
        ),
        (
            "old_docs_speculative.sh",
            [
                "  --speculative-algorithm EAGLE --speculative-draft-model-path "
                "lmsys/sglang-EAGLE-llama2-chat-7B \\",
                "  --mem-fraction-static 0.7 --cuda-graph-max-bs-decode 8",
            ],
        ),
    ],
)
def test_old_docs_launches_are_upgraded_for_0_5_23(tmp_path, name, expected_lines):
    script = tmp_path / name
    script.write_text((ROOT / "fixtures" / "shell" / name).read_text())
    run("check", "--fix", "--unsafe-fixes", "--select", "ALL", "--sglang-version", "0.5.23", str(script))
    fixed = script.read_text().splitlines()
    for line in expected_lines:
        assert line in fixed
    left = {
        f.code
        for f in lint_text(script.read_text(), str(script), LintOptions(sglang_version="0.5.23")).findings
        if f.fix is not None
    }
    assert not left  # every certain fix applied; what is left needs a person (--enable-ep-moe)
