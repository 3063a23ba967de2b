"""Are the GPUs a launch will use clean? One snapshot (NVML, else nvidia-smi), mapped
through CUDA_VISIBLE_DEVICES by UUID, judged per GPU; optionally polled until clean.

Never kills anything: a busy GPU's report carries the `kill` command for the pids on it.
"""

from __future__ import annotations

import os
import time

from speclint.preflight.gpus import pick, resolve_visible
from speclint.preflight.result import GpuEntry, PreflightResult, ProcessEntry
from speclint.preflight.snapshot import BackendError, BackendUnavailable

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence

    from speclint.preflight.gpus import Visible
    from speclint.preflight.nvml import Nvml
    from speclint.preflight.result import Status
    from speclint.preflight.snapshot import PhysicalGpu, Snapshot

DEFAULT_MAX_USED_MIB = 500
"""An idle GPU shows 0-a few MiB (NVML v1 also counts a few hundred MiB the driver reserves)."""
POLL_INTERVAL_S = 2.0
BACKENDS = ("auto", "nvml", "nvidia-smi")


def take_snapshot(
    backend: str = "auto", env: Mapping[str, str] | None = None, nvml_module: Nvml | None = None
) -> tuple[Snapshot | None, list[str]]:
    """(snapshot, messages); the snapshot is None when no backend could read the GPUs."""
    env = os.environ if env is None else env
    from speclint.preflight import nvml, smi

    messages: list[str] = []
    if backend in ("auto", "nvml"):
        try:
            return nvml.query(nvml_module), messages
        except (BackendUnavailable, BackendError) as error:
            messages.append(f"{error}" + ("" if backend == "nvml" else "; trying nvidia-smi"))
            if backend == "nvml":
                return None, messages
    try:
        timeout = float(env.get("SPECLINT_NVIDIA_SMI_TIMEOUT", smi.DEFAULT_TIMEOUT_S))
        return smi.query(timeout, env.get("PATH")), messages
    except (BackendUnavailable, BackendError, ValueError) as error:
        messages.append(str(error))
    return None, messages


def check(
    gpus: str | Sequence[str | int] | None = None,
    max_used_mib: int = DEFAULT_MAX_USED_MIB,
    env: Mapping[str, str] | None = None,
    needed: int | Sequence[int] | None = None,
    *,
    wait_s: float = 0.0,
    backend: str | None = None,
    nvml_module: Nvml | None = None,
    on_progress: Callable[[PreflightResult, float], None] | None = None,
    sleep: Callable[[float], None] = time.sleep,
    clock: Callable[[], float] = time.monotonic,
    interval_s: float = POLL_INTERVAL_S,
) -> PreflightResult:
    """Check the GPUs a launch will use.

    `gpus`: physical GPUs (nvidia-smi indices or UUIDs) instead of `CUDA_VISIBLE_DEVICES`;
    `env`: the launch's environment (default `os.environ`); `needed`: how many GPUs the
    launch opens, or their CUDA ordinals (default: every visible GPU); `wait_s`: poll while
    busy, calling `on_progress(result, seconds_left)` before each pause.
    """
    env = os.environ if env is None else env
    backend = backend or env.get("SPECLINT_GPU_BACKEND") or "auto"
    if backend not in BACKENDS:
        raise ValueError(f"unknown GPU backend {backend!r} (expected one of {BACKENDS})")
    ordinals = (
        list(range(needed)) if isinstance(needed, int) else (list(needed) if needed is not None else None)
    )
    start = clock()
    while True:
        snapshot, messages = take_snapshot(backend, env, nvml_module)
        result = evaluate(snapshot, messages, gpus, env, ordinals, max_used_mib)
        left = wait_s - (clock() - start)
        if result.status != "busy" or left <= 0:
            result.waited_s = round(clock() - start, 1) if wait_s > 0 else 0.0
            return result
        if on_progress is not None:
            on_progress(result, left)
        sleep(min(interval_s, left))


def evaluate(
    snapshot: Snapshot | None,
    messages: list[str],
    gpus: str | Sequence[str | int] | None,
    env: Mapping[str, str],
    ordinals: list[int] | None,
    max_used_mib: int,
) -> PreflightResult:
    """Judge one snapshot (no waiting, no I/O but /proc)."""
    result = PreflightResult(
        "unknown", snapshot.backend if snapshot else None, max_used_mib, messages=list(messages)
    )
    result.needed = len(ordinals) if ordinals is not None else None
    if snapshot is None:
        result.messages.insert(0, "cannot read the GPUs: no NVIDIA driver library and no working nvidia-smi")
        return result
    if gpus is not None:
        listed = gpus if isinstance(gpus, str) else ",".join(str(g) for g in gpus)
        visible = resolve_visible(listed, snapshot.gpus, f"--gpus {listed}", "PCI_BUS_ID")
    else:
        visible = resolve_visible(
            env.get("CUDA_VISIBLE_DEVICES"), snapshot.gpus, device_order=env.get("CUDA_DEVICE_ORDER")
        )
    result.visible, result.visible_count = visible.source, len(visible.gpus)
    result.messages.extend(visible.notes)
    if visible.unknown:
        result.messages.append(visible.unknown)
        return result
    chosen, missing = pick(visible, ordinals)
    result.missing_ordinals = missing
    proc_root = env.get("SPECLINT_PROC_ROOT") or "/proc"
    for ordinal, gpu in chosen:
        result.gpus.append(_judge(gpu, ordinal, max_used_mib, proc_root))
    result.status = _status(result, visible)
    result.kill_command = _kill_command(result)
    foreign = sorted({p.pid for g in result.busy_gpus for p in g.processes if not p.local})
    if foreign:
        result.messages.append(
            "pid " + ", ".join(map(str, foreign)) + " is not visible here, or runs another "
            "program here (the driver reports host pids; another container or PID namespace): "
            "end it where it runs; no kill command is given for it"
        )
    return result


def _status(result: PreflightResult, visible: Visible) -> Status:
    if result.missing_ordinals or not visible.gpus:
        have = len(visible.gpus)
        need = result.needed if result.needed is not None else 1
        result.messages.insert(
            0,
            f"the launch needs {need} GPU{'s' if need != 1 else ''} but "
            f"{visible.source} leaves {have} visible",
        )
        return "insufficient"
    if result.busy_gpus:
        return "busy"
    if any(g.clean is None for g in result.gpus):
        return "unknown"
    return "clean"


def _judge(gpu: PhysicalGpu, ordinal: int | None, max_used_mib: int, proc_root: str) -> GpuEntry:
    entry = GpuEntry(gpu.index, gpu.uuid, ordinal, gpu.used_mib, gpu.total_mib)
    entry.processes = [
        ProcessEntry(p.pid, p.name, p.used_mib, _is_local(p.pid, p.name, proc_root)) for p in gpu.processes
    ]
    if gpu.error:
        entry.reason = f"could not be read: {gpu.error}"
    elif entry.processes:
        count = len(entry.processes)
        entry.clean = False
        entry.reason = f"{count} compute process{'es' if count != 1 else ''} on it"
    elif gpu.used_mib is None:
        entry.reason = "its memory use is not reported"
    elif gpu.used_mib > max_used_mib:
        entry.clean = False
        entry.reason = (
            f"{gpu.used_mib} MiB used with no listed process (one still exiting, or one in another container)"
        )
    else:
        entry.clean = True
    return entry


def _is_local(pid: int, name: str | None, proc_root: str) -> bool:
    """The pid exists here and runs the program the driver named: only then may `kill` get it."""
    folder = os.path.join(proc_root, str(pid))
    if name is None or not os.path.isdir(folder):
        return False
    reported = os.path.basename(name.split()[0]) if name.split() else ""
    seen = set()
    for item in ("comm", "cmdline"):
        try:
            with open(os.path.join(folder, item), "rb") as handle:
                raw = handle.read(4096).decode("utf-8", "replace")
        except OSError:
            continue
        first = raw.split("\0")[0].strip() if item == "cmdline" else raw.strip()
        if first:
            seen.add(os.path.basename(first.split()[0]))
    try:
        seen.add(os.path.basename(os.readlink(os.path.join(folder, "exe"))))
    except OSError:
        pass
    # comm is cut at 15 characters
    return any(reported == s or (len(s) == 15 and reported.startswith(s)) for s in seen)


def _kill_command(result: PreflightResult) -> str | None:
    pids = sorted({p.pid for g in result.busy_gpus for p in g.processes if p.local})
    return "kill " + " ".join(map(str, pids)) if pids else None
