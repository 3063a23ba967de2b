"""Data-parallel replicas over several nodes: every release's `check_server_args` refuses them
(`ReleaseTraits.multinode_dp_check`), in three wordings. Expected outcomes are the real
releases' (tools/oracle/record_release.py, session 6: 0.4.0, 0.4.6, 0.5.14, 0.5.21, 0.5.23);
speclint said nothing before."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from speclint_runs import run_speclint

ROOT = Path(__file__).resolve().parent.parent
LLAMA = "fixtures/models/llama-3.1-8b-instruct"
DP2 = f"python -m sglang.launch_server --model-path {LLAMA} --tp-size 8 --dp-size 2 --nnodes 2 --node-rank 0"


def check(tmp_path: Path, command: str, version: str) -> subprocess.CompletedProcess[str]:
    script = tmp_path / "launch.sh"
    script.write_text(command + "\n")
    return run_speclint("check", "--sglang-version", version, str(script), timeout=60)


@pytest.mark.parametrize(
    ("version", "message"),
    [
        ("0.5.14", "multi-node data parallel is not supported unless dp attention!"),
        (
            "0.5.23",
            "multi-node data-parallel replicas are not supported; use attention DP "
            "(--attn-dp-size) across nodes",
        ),
    ],
)
def test_dp_replicas_over_nodes_are_refused_at_the_dp_size(tmp_path, version, message):
    result = check(tmp_path, DP2, version)
    assert result.returncode == 1
    column = DP2.index("--dp-size 2") + len("--dp-size ") + 1
    assert (
        f"launch.sh:1:{column}: SPD009 [error] SGLang {version} refuses this launch in "
        f"check_server_args: AssertionError: {message}"
    ) in result.stdout


def test_0_4_0_refuses_them_even_with_dp_attention(tmp_path):
    """0.4.0's assert has no DP-attention exception, and DP attention makes dp_size = tp_size."""
    result = check(tmp_path, DP2 + " --enable-dp-attention", "0.4.0")
    assert "AssertionError: multi-node data parallel is not supported\n" in result.stdout
    assert result.returncode == 1


@pytest.mark.parametrize("version", ["0.4.6", "0.5.14", "0.5.23"])
def test_dp_attention_or_one_replica_over_nodes_is_accepted(tmp_path, version):
    for command in (DP2 + " --enable-dp-attention", DP2.replace("--dp-size 2", "--dp-size 1")):
        result = check(tmp_path, command, version)
        assert "multi-node data" not in result.stdout, (version, command)
