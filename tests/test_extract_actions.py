"""GitHub Actions workflows: `run:` steps, env levels, the job container's image."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from findings_at import text_at

from speclint.engine import lint_text
from speclint.frontends import extract_file
from speclint.runner.walk import iter_lint_paths

ROOT = Path(__file__).resolve().parent.parent
WORKFLOW = ROOT / "fixtures" / "actions" / ".github" / "workflows" / "serve-smoke.yml"
PATH = ".github/workflows/serve-smoke.yml"


def test_run_steps_env_levels_and_container_image():
    text = WORKFLOW.read_text()
    first, second = extract_file(PATH, text).launches  # the `shell: python` step is not read
    assert first.image == "lmsysorg/sglang:v0.5.6.post2" and first.image_span.line == 10
    assert first.env["CUDA_VISIBLE_DEVICES"].text == "0,1" and first.env["SGLANG_LOG_LEVEL"].text == "info"
    tp = first.args[3]
    assert (
        tp.dynamic and "${{ matrix.tp }}" in tp.dynamic_reason and (tp.span.line, tp.span.column) == (18, 23)
    )
    flag = next(w for w in first.args if w.text == "--speculative-num-draft-tokens")
    assert (flag.span.line, flag.span.column) == (20, 39) and text_at(text, flag.span) == flag.text
    assert second.env["TP"].text == "4" and second.args[3].text == "4"
    result = lint_text(text, PATH)
    # SLM004: `--tp-size ${{ matrix.tp }}` is only known when the workflow runs
    assert [(f.code, f.span.line, f.span.column) for f in result.findings] == [
        ("DRF011", 17, 56),  # (opt-in: no config.json on disk for /models/llama)
        ("SLM004", 18, 23),
        ("SPD003", 19, 37),  # `${{ matrix.tp }}` is one word: the flags around it are known
        ("SPD001", 20, 70),
        ("FLG001", 26, 25),
    ]  # argparse stops the second
    # launch at `--tp-szie`: its PAR001 (4 GPUs of 2 visible) would come after parsing


def test_workflow_detected_outside_the_folder_by_jobs_and_on():
    text = (
        "on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n"
        "      - run: python -m sglang.launch_server --model-path m --tp-szie 2\n"
    )
    [finding] = lint_text(text, "ci.yml").findings
    assert (finding.code, finding.span.line, finding.span.column) == ("FLG001", 6, 60)


def test_folder_scan_enters_dot_github(tmp_path):
    folder = tmp_path / ".github" / "workflows"
    folder.mkdir(parents=True)
    (folder / "a.yml").write_text("on: push\n")
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "b.yml").write_text("x: 1\n")
    assert [Path(p).name for p, _ in iter_lint_paths([str(tmp_path)])] == ["a.yml"]


def test_cli_on_the_fixture_folder():
    out = subprocess.run(
        [sys.executable, "-m", "speclint", "--output-format", "concise", str(ROOT / "fixtures" / "actions")],
        capture_output=True,
        text=True,
    )
    # 4 problems, and the `${{ matrix.tp }}` launch only partly read (SLM004)
    assert out.returncode == 1 and out.stdout.count("serve-smoke.yml:") == 5, out.stdout
    assert out.stdout.count("SLM004") == 1, out.stdout
