"""Refusals keyed to one switch that speclint did not report (session 6's random launches
against the real releases): two-batch overlap without an all-to-all backend, EPLB without
expert parallelism, LoRA without adapters or their shape. Expected outcomes are the
releases' own (tools/oracle/record_release.py on a fake H100)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DSV3 = "fixtures/models/deepseek-v3"
QWEN3 = "fixtures/models/qwen3-8b"


def check(tmp_path: Path, command: str, version: str) -> subprocess.CompletedProcess[str]:
    script = tmp_path / "launch.sh"
    script.write_text(command + "\n")
    return subprocess.run(
        [sys.executable, "-m", "speclint", "check", "--sglang-version", version, str(script)],
        text=True,
        capture_output=True,
        cwd=ROOT,
        timeout=60,
    )


def at(command: str, token: str) -> int:
    return command.index(token) + 1


TBO = f"python -m sglang.launch_server --model-path {DSV3} --tp-size 8 --enable-two-batch-overlap"


@pytest.mark.parametrize(
    ("version", "message"),
    [
        ("0.5.14", "When enabling two batch overlap, moe_a2a_backend cannot be 'none'."),
        ("0.5.18", "(moe_a2a_backend='none'), --enable-dp-attention is required"),
        ("0.5.23", "(moe_a2a_backend='none'), attention DP (--attn-dp-size) is required"),
    ],
)
def test_two_batch_overlap_without_an_all_to_all_backend_is_refused(tmp_path, version, message):
    result = check(tmp_path, TBO, version)
    assert result.returncode == 1
    assert (
        f"launch.sh:1:{at(TBO, '--enable-two-batch-overlap')}: SPD009 [error] SGLang {version}"
        in result.stdout
    )
    assert message in result.stdout


@pytest.mark.parametrize(
    ("version", "extra"),
    [
        ("0.5.14", "--moe-a2a-backend deepep"),
        ("0.5.18", "--dp-size 8 --enable-dp-attention"),
        ("0.5.23", "--dp-size 8 --enable-dp-attention"),
        ("0.5.6.post2", ""),  # no such check yet
    ],
)
def test_two_batch_overlap_with_what_it_needs_is_accepted(tmp_path, version, extra):
    result = check(tmp_path, f"{TBO} {extra}", version)
    assert "two batch overlap" not in result.stdout


EPLB = f"python -m sglang.launch_server --model-path {DSV3} --tp-size 8 --enable-eplb"


@pytest.mark.parametrize("version", ["0.5.2", "0.5.14", "0.5.23"])
def test_eplb_without_expert_parallelism_is_refused(tmp_path, version):
    result = check(tmp_path, EPLB, version)
    assert result.returncode == 1
    assert (
        f"launch.sh:1:{at(EPLB, '--enable-eplb')}: SPD009 [error] SGLang {version} refuses this launch "
        "in _handle_eplb_and_dispatch: AssertionError"
    ) in result.stdout
    assert "--enable-eplb" not in check(tmp_path, EPLB + " --ep-size 8", version).stdout


LORA = f"python -m sglang.launch_server --model-path {QWEN3} --enable-lora"


@pytest.mark.parametrize("version", ["0.4.10", "0.5.6.post2", "0.5.23"])
def test_lora_without_adapters_needs_rank_and_modules(tmp_path, version):
    result = check(tmp_path, LORA, version)
    assert result.returncode == 1
    assert f"launch.sh:1:{at(LORA, '--enable-lora')}: SPD009 [error]" in result.stdout
    assert "you need to specify both --max-lora-rank and --lora-target-modules" in result.stdout
    fine = check(tmp_path, LORA + " --max-lora-rank 16 --lora-target-modules all", version)
    assert "--lora-target-modules for LoRA" not in fine.stdout


RETIRED = f"python -m sglang.launch_server --model-path {QWEN3} --enable-expert-distribution-metrics"


@pytest.mark.parametrize("version", ["0.5.18", "0.5.19"])
def test_a_flag_kept_only_to_refuse_it_is_an_argparse_error(tmp_path, version):
    """0.5.18-0.5.19 register --enable-expert-distribution-metrics with a DeprecatedAction whose
    error_message argparse prints as it exits (recorded: parse-stage SystemExit); speclint
    said "argparse still takes it" before."""
    result = check(tmp_path, RETIRED, version)
    assert result.returncode == 1
    assert (
        f"launch.sh:1:{at(RETIRED, '--enable-expert')}: FLG008 [error] "
        f"`--enable-expert-distribution-metrics` is retired in SGLang {version}: argparse stops "
        'the launch with "error: --enable-expert-distribution-metrics is no longer supported. '
        'Use --expert-balancedness-report-mode with one of: off, server_log, prometheus, both."'
    ) in result.stdout
    assert "argparse still takes it" not in result.stdout
    assert "FLG008" not in check(tmp_path, RETIRED, "0.5.14").stdout  # a plain switch there


FAKE = (
    f"python -m sglang.launch_server --model-path {QWEN3} --disaggregation-mode prefill "
    "--disaggregation-transfer-backend fake"
)


@pytest.mark.parametrize(("version", "refused"), [("0.5.9", False), ("0.5.14", True), ("0.5.23", True)])
def test_a_prefill_server_cannot_use_the_fake_transfer_backend(tmp_path, version, refused):
    result = check(tmp_path, FAKE, version)
    line = (
        f"launch.sh:1:{FAKE.rindex('fake') + 1}: SPD009 [error] SGLang {version} refuses this launch in "
        "_handle_disaggregation: AssertionError: Prefill server does not support 'fake' as the "
        "transfer backend"
    )
    assert (line in result.stdout) is refused
    assert "support 'fake'" not in check(tmp_path, FAKE.replace("prefill", "decode"), version).stdout
