"""`speclint preflight` and `speclint run` as a user runs them: the real CLI in a subprocess,
with the stub nvidia-smi (fixtures/nvidia-smi/) first on PATH."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SMI = os.path.join(ROOT, "fixtures", "nvidia-smi")


def speclint(
    args: list[str],
    scenario: str | None = "clean-8x",
    path_first: str | None = None,
    timeout: float = 60,
    **env_extra,
) -> subprocess.CompletedProcess:
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("NVIDIA_SMI_", "SPECLINT_", "CUDA_VISIBLE"))
    }
    env["PATH"] = os.pathsep.join(p for p in (path_first, SMI, env.get("PATH", "")) if p)
    env["SPECLINT_GPU_BACKEND"] = "nvidia-smi"  # the stub, even where a real driver exists
    if scenario:
        env["NVIDIA_SMI_FIXTURE"] = ":".join(os.path.join(SMI, s) for s in scenario.split(":"))
    env.update(env_extra)
    return subprocess.run(
        [sys.executable, "-m", "speclint", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
        cwd=ROOT,
    )


# --- speclint preflight ---------------------------------------------------------------------


def test_preflight_clean_exit_0():
    done = speclint(["preflight"])
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("clean: 8 GPUs free")


def test_preflight_busy_exit_1_with_report():
    done = speclint(["preflight"], "busy-gpu3")
    assert done.returncode == 1
    assert "GPU 3 (GPU-3c4d5e6f" in done.stdout and "71234 / 97887 MiB, BUSY" in done.stdout
    assert "pid 1843211  python3  71230 MiB" in done.stdout
    assert "pkill" not in done.stdout and "fuser" not in done.stdout


def test_preflight_only_the_listed_gpus_and_json():
    done = speclint(["preflight", "--gpus", "0,1,2", "--output-format", "json"], "busy-gpu3")
    assert done.returncode == 0
    data = json.loads(done.stdout)
    assert data["status"] == "clean" and [g["index"] for g in data["gpus"]] == [0, 1, 2]


def test_preflight_too_few_gpus_exit_1():
    done = speclint(["preflight", "--needed", "4"], CUDA_VISIBLE_DEVICES="5,6")
    assert done.returncode == 1 and done.stdout.startswith("insufficient")


def test_preflight_unknown_exit_2_without_any_tool(tmp_path):
    done = speclint(
        ["preflight", "--backend", "nvidia-smi"], None, SPECLINT_GPU_BACKEND="", PATH=str(tmp_path)
    )
    assert done.returncode == 2 and done.stdout.startswith("unknown")


def test_preflight_wait_until_memory_is_freed(tmp_path):
    state = tmp_path / "calls"
    done = speclint(["preflight", "--wait", "30"], "busy-gpu3:clean-8x", NVIDIA_SMI_STATE=str(state))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "speclint: waiting for GPU 3 71234 MiB (pid 1843211 python3)" in done.stderr
    assert "waited 2" in done.stdout


def test_preflight_wait_runs_out():
    done = speclint(["preflight", "--wait", "1"], "held-no-process")
    assert done.returncode == 1 and re.search(r"waited 1(\.\d)? s", done.stdout)


# --- speclint run ---------------------------------------------------------------------------


@pytest.fixture()
def fake_sglang(tmp_path):
    """An `sglang` on PATH that only says it was launched (pid, marker, argv)."""
    folder = tmp_path / "bin"
    folder.mkdir()
    script = folder / "sglang"
    script.write_text('#!/bin/sh\necho "launched pid=$$ checked=$SPECLINT_RUN_CHECKED $*"\n')
    script.chmod(0o755)
    return str(folder)


def test_run_launches_when_clean(fake_sglang):
    done = speclint(
        ["run", "--", "sglang", "serve", "--model-path", "m", "--tp-size", "2"], path_first=fake_sglang
    )
    assert done.returncode == 0, done.stderr
    line = done.stdout.strip()
    assert line.endswith("serve --model-path m --tp-size 2") and line.startswith("launched")
    # exec: the command runs in speclint's own process (same pid), marked as checked
    pid, checked = (part.split("=")[1] for part in line.split()[1:3])
    assert pid == checked
    assert "speclint: preflight clean: 2 GPUs free" in done.stderr


def test_run_refuses_a_busy_gpu(fake_sglang):
    done = speclint(
        ["run", "--", "sglang", "serve", "--model-path", "m", "--tp-size", "4"],
        "busy-gpu3",
        path_first=fake_sglang,
    )
    assert done.returncode == 1
    assert "launched" not in done.stdout
    assert "GPU 3" in done.stderr and "pid 1843211" in done.stderr
    assert "not launching: GPUs busy" in done.stderr


def test_run_checks_only_the_gpus_the_launch_uses(fake_sglang):
    done = speclint(
        ["run", "--", "sglang", "serve", "--model-path", "m", "--tp-size", "2"],
        "busy-gpu3",
        path_first=fake_sglang,
    )
    assert done.returncode == 0 and "launched" in done.stdout


def test_run_refuses_a_bad_flag(fake_sglang):
    done = speclint(
        ["run", "--", "sglang", "serve", "--model-path", "m", "--no-such-flag", "1"], path_first=fake_sglang
    )
    assert done.returncode == 1
    assert "launched" not in done.stdout
    assert "<command line>:1:" in done.stderr and "[error]" in done.stderr
    assert "not launching: 1 error finding" in done.stderr


def test_run_refuses_too_few_visible_gpus(fake_sglang):
    done = speclint(
        [
            "run",
            "--",
            "env",
            "CUDA_VISIBLE_DEVICES=0,1",
            "sglang",
            "serve",
            "--model-path",
            "m",
            "--tp-size",
            "4",
        ],
        path_first=fake_sglang,
    )
    assert done.returncode == 1 and "launched" not in done.stdout
    assert "PAR001" in done.stderr


def test_run_allows_a_command_that_is_not_sglang_with_a_note():
    done = speclint(["run", "--", sys.executable, "-c", "print('launched')"])
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "launched"
    assert "not an SGLang launch" in done.stderr


def test_run_unknown_gpus_stop_unless_allowed(tmp_path):
    args = ["run", "--", sys.executable, "-c", "print('launched')"]
    done = speclint(args, None, PATH=str(tmp_path))
    assert done.returncode == 2 and "--allow-unknown" in done.stderr
    done = speclint(["run", "--allow-unknown", *args[1:]], None, PATH=str(tmp_path))
    assert done.returncode == 0 and done.stdout.strip() == "launched"


def test_run_command_not_found():
    done = speclint(["run", "--", "speclint-no-such-command-xyz"])
    assert done.returncode == 127 and "command not found" in done.stderr


# --- a real driver --------------------------------------------------------------------------


@pytest.mark.gpu
def test_preflight_against_the_real_driver():
    """Runs only with `-m gpu` where an NVIDIA driver is present."""
    import shutil

    try:
        import pynvml

        pynvml.nvmlInit()
        pynvml.nvmlShutdown()
    except Exception:
        if shutil.which("nvidia-smi") is None:
            pytest.skip("no NVIDIA driver here")
    from speclint.preflight import check

    result = check(env={**os.environ, "SPECLINT_GPU_BACKEND": "auto"})
    assert result.status in ("clean", "busy"), result.messages
    assert result.backend in ("nvml", "nvidia-smi") and result.gpus
    assert all(g.uuid.startswith(("GPU-", "MIG-")) and g.total_mib for g in result.gpus)
