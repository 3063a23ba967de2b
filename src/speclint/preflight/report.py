"""How a preflight result reads: one line per GPU, the processes on busy ones, and the
`kill` command for exactly those pids (never `pkill -f python` or `fuser -k /dev/nvidia*`)."""

from __future__ import annotations

import json

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.preflight.result import GpuEntry, PreflightResult


def _memory(gpu: GpuEntry) -> str:
    used = "?" if gpu.used_mib is None else str(gpu.used_mib)
    total = "?" if gpu.total_mib is None else str(gpu.total_mib)
    return f"{used} / {total} MiB"


def _gpu_name(gpu: GpuEntry) -> str:
    seen = f", CUDA device {gpu.cuda_ordinal}" if gpu.cuda_ordinal is not None else ""
    return f"GPU {gpu.index} ({gpu.uuid}{seen})"


def headline(result: PreflightResult) -> str:
    where = f"{result.visible}; " if result.visible else ""
    via = f"{where}read with {result.backend}" if result.backend else where.rstrip("; ")
    count = len(result.gpus)
    if result.status == "clean":
        return (
            f"clean: {count} GPU{'s' if count != 1 else ''} free (at most "
            f"{result.max_used_mib} MiB used, no compute process) [{via}]"
        )
    if result.status == "busy":
        busy = len(result.busy_gpus)
        return f"busy: {busy} of the {count} GPUs checked {'is' if busy == 1 else 'are'} in use [{via}]"
    if result.status == "insufficient":
        return f"insufficient: not enough GPUs are visible [{via}]"
    return (
        f"unknown: cannot tell whether the GPUs are free [{via}]"
        if via
        else "unknown: cannot tell whether the GPUs are free"
    )


def render_text(result: PreflightResult) -> str:
    lines = [headline(result)]
    for gpu in result.gpus:
        state = "free" if gpu.clean else ("BUSY" if gpu.clean is False else "unknown")
        lines.append(
            f"  {_gpu_name(gpu)}: {_memory(gpu)}, {state}" + (f": {gpu.reason}" if gpu.reason else "")
        )
        for process in gpu.processes:
            used = f"{process.used_mib} MiB" if process.used_mib is not None else "? MiB"
            lines.append(f"      pid {process.pid}  {process.name or '(name unknown)'}  {used}")
    for message in result.messages:
        lines.append(f"  note: {message}")
    if result.kill_command:
        pids = result.kill_command.removeprefix("kill ")
        lines.append(f"  to end only these processes (speclint never does): {result.kill_command}")
        lines.append(
            f"  (SIGTERM; if they are still listed after ~30 s: kill -9 {pids}; then run the preflight again)"
        )
    if result.waited_s:
        lines.append(f"  waited {result.waited_s:g} s")
    return "\n".join(lines)


def render_json(result: PreflightResult) -> str:
    return json.dumps(result.to_dict(), indent=2)


def progress_line(result: PreflightResult, seconds_left: float) -> str:
    """One line per poll while `--wait` waits for busy GPUs to free up."""
    parts = []
    for gpu in result.busy_gpus:
        pids = ", ".join(f"pid {p.pid} {p.name or '?'}" for p in gpu.processes)
        parts.append(
            f"GPU {gpu.index} {gpu.used_mib if gpu.used_mib is not None else '?'} MiB"
            + (f" ({pids})" if pids else "")
        )
    return f"waiting for {'; '.join(parts)}: {seconds_left:.0f} s left"
