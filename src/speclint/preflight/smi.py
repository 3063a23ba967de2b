"""The nvidia-smi backend: two CSV queries, joined by GPU UUID (compute-app rows carry the
UUID, not the index). Used when NVML cannot be loaded; a hung nvidia-smi is timed out."""

from __future__ import annotations

import os
import shutil
import subprocess

from speclint.preflight.snapshot import BackendError, BackendUnavailable, GpuProcess, PhysicalGpu, Snapshot

GPU_QUERY = ["--query-gpu=index,uuid,memory.used,memory.total", "--format=csv,noheader,nounits"]
APPS_QUERY = ["--query-compute-apps=gpu_uuid,pid,process_name,used_memory", "--format=csv,noheader,nounits"]
DEFAULT_TIMEOUT_S = 15.0


def query(timeout_s: float = DEFAULT_TIMEOUT_S, path: str | None = None) -> Snapshot:
    """Read every GPU and its compute processes. `path`: the PATH to find nvidia-smi on."""
    tool = shutil.which("nvidia-smi", path=path if path is not None else os.environ.get("PATH"))
    if tool is None:
        raise BackendUnavailable("nvidia-smi is not on PATH")
    gpus = parse_gpus(_run(tool, GPU_QUERY, timeout_s))
    by_uuid = {g.uuid: g for g in gpus}
    for uuid, process in parse_apps(_run(tool, APPS_QUERY, timeout_s)):
        gpu = by_uuid.get(uuid)
        if gpu is not None:
            gpu.processes.append(process)
    return Snapshot("nvidia-smi", gpus)


def _run(tool: str, args: list[str], timeout_s: float) -> str:
    try:
        done = subprocess.run(
            [tool, *args],
            capture_output=True,
            text=True,
            timeout=timeout_s,
            errors="replace",
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired:
        raise BackendError(
            f"nvidia-smi did not answer within {timeout_s:g} s (a hung driver or GPU?)"
        ) from None
    except OSError as error:
        raise BackendError(f"cannot run {tool}: {error.strerror or error}") from None
    if done.returncode != 0:
        said = (done.stdout.strip() or done.stderr.strip()).splitlines()
        raise BackendError(
            f"nvidia-smi exited with {done.returncode}" + (f": {said[0].strip()}" if said else "")
        )
    return done.stdout


def _mib(text: str) -> int | None:
    text = text.strip()
    try:
        return int(float(text))
    except ValueError:
        return None  # [N/A], [Not Supported], [Insufficient Permissions]


def parse_gpus(text: str) -> list[PhysicalGpu]:
    gpus = []
    for line in text.splitlines():
        if not line.strip():
            continue
        cells = [cell.strip() for cell in line.split(",")]
        if len(cells) != 4 or not cells[0].isdigit() or not cells[1].startswith(("GPU-", "MIG-")):
            raise BackendError(f"cannot read nvidia-smi's GPU line {line.strip()!r}")
        gpus.append(PhysicalGpu(int(cells[0]), cells[1], _mib(cells[2]), _mib(cells[3])))
    return gpus


def parse_apps(text: str) -> list[tuple[str, GpuProcess]]:
    """(gpu_uuid, process) rows. The process name may itself contain commas."""
    rows = []
    for line in text.splitlines():
        if not line.strip() or line.strip().startswith("No running"):
            continue
        cells = [cell.strip() for cell in line.split(",")]
        if len(cells) < 4 or not cells[1].isdigit():
            raise BackendError(f"cannot read nvidia-smi's process line {line.strip()!r}")
        name = ",".join(cells[2:-1]).strip() or None
        if name in ("[N/A]", "[Not Found]"):
            name = None
        rows.append((cells[0], GpuProcess(int(cells[1]), name, _mib(cells[-1]))))
    return rows
