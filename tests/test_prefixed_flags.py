"""Frameworks forwarding SGLang flags under a prefix (slime's `--sglang-*`), built in and
configured with `[tool.speclint] flag-prefixes`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from speclint.engine import lint_text
from speclint.frontends import extract_file
from speclint.settings.errors import ConfigError
from speclint.settings.files import parse_settings
from speclint.settings.options import LintOptions

ROOT = Path(__file__).resolve().parent.parent
SLIME = ROOT / "fixtures" / "slime"
V = LintOptions(sglang_version="0.5.23")


def found(result) -> list[tuple[str, int, int]]:
    return [(f.code, f.span.line, f.span.column) for f in result.findings]


def test_slime_arrays_and_written_flags_in_a_ray_command():
    text = (SLIME / "run_rl.sh").read_text()
    [launch] = extract_file("run_rl.sh", text).launches
    assert launch.entry.startswith("slime")
    texts = [w.text for w in launch.args]
    assert texts[0] == "--model-path" and launch.args[1].dynamic
    assert "--router-port" not in texts and "--rollout-batch-size" not in texts  # slime's own flags
    assert texts[-2:] == ["--cuda-graph-max-bs", "128"]
    assert texts[2:4] == ["--tp-size", "8"]  # slime: tp = --rollout-num-gpus-per-engine
    assert launch.args[3].span.line == 4
    # argparse stops the launch at FLG002: SPD003/SPD001 (after parsing) are not reported
    assert found(lint_text(text, "run_rl.sh", V)) == [("SLM004", 15, 1), ("FLG002", 18, 4)]


def test_slime_engines_ignore_the_commands_visible_gpus():
    text = (
        "export CUDA_VISIBLE_DEVICES=4,5,6,7\npython3 train.py --rollout-num-gpus-per-engine 1 "
        "--sglang-mem-fraction-static 0.8\n"
    )
    [launch] = extract_file("t.sh", text).launches
    assert "CUDA_VISIBLE_DEVICES" not in launch.env
    assert "PAR001" not in {f.code for f in lint_text(text, "t.sh", V).findings}


def test_renamed_words_get_no_fix_edits():
    text = "python3 train.py --sglang-tp 2 --sglang-speculative-algo EAGLE\n"
    result = lint_text(text, "t.sh", V)
    assert all(f.fix is None for f in result.findings if f.code == "FLG003")
    assert ("FLG003", 1, 32) in found(result)


def test_readme_fragment_with_only_the_array():
    result = lint_text((SLIME / "README.md").read_text(), "README.md", V)
    assert found(result) == [
        ("SLM004", 7, 4),
        ("FLG001", 11, 4),
    ]  # argparse stops the launch: SPD003/SPD001 (after parsing) are not reported (issue 16)
    assert "the model is chosen by slime" in result.findings[0].message


def test_a_command_without_prefixed_flags_is_not_a_launch():
    assert extract_file("t.sh", "python3 train.py --sglang-router-port 3000 --lr 1e-5\n").launches == []


def test_configured_prefixes(tmp_path):
    settings = parse_settings(
        str(tmp_path / "speclint.toml"), {"flag-prefixes": {"myrl": "--engine-", "slime": ""}}
    )
    assert settings.flag_prefixes == (("myrl", "--engine-"), ("slime", ""))
    options = LintOptions(sglang_version="0.5.23", flag_prefixes=settings.flag_prefixes)
    text = "python3 rl.py --engine-tp-szie 2 --sglang-tp-szie 2\n"
    assert found(lint_text(text, "t.sh", options)) == [("SLM004", 1, 1), ("FLG001", 1, 15)]
    assert found(lint_text(text, "t.sh", V)) == [("SLM004", 1, 1), ("FLG001", 1, 34)]
    with pytest.raises(ConfigError, match="flag-prefixes"):
        parse_settings(str(tmp_path / "speclint.toml"), {"flag-prefixes": {"x": "engine-"}})


def test_cli_reads_flag_prefixes_from_pyproject(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[tool.speclint]\nsglang-version = "0.5.23"\n[tool.speclint.flag-prefixes]\nmyrl = "--engine-"\n'
    )
    (tmp_path / "run.sh").write_text("python3 rl.py --engine-tp-szie 2\n")
    out = subprocess.run(
        [sys.executable, "-m", "speclint", "--output-format", "json", str(tmp_path / "run.sh")],
        capture_output=True,
        text=True,
    )
    findings = json.loads(out.stdout)
    assert [(f["code"], f["line"], f["column"]) for f in findings] == [("SLM004", 1, 1), ("FLG001", 1, 15)]
