"""The typed preflight result: what `check()` returns, what `--output-format json` prints."""

from __future__ import annotations

from dataclasses import asdict, field
from typing import Literal

from speclint.core.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

Status = Literal["clean", "busy", "insufficient", "unknown"]
EXIT_CODES: dict[str, int] = {"clean": 0, "busy": 1, "insufficient": 1, "unknown": 2}


@dataclass(slots=True)
class ProcessEntry:
    """A process holding memory on a GPU the launch will use."""

    pid: int
    name: str | None
    used_mib: int | None
    local: bool
    """The pid is this process's: visible here with the same program. False for a pid from
    another container or PID namespace (NVML reports host pids), which `kill` must not get."""


@dataclass(slots=True)
class GpuEntry:
    """One GPU the launch will use, and what holds memory on it."""

    index: int
    """nvidia-smi's index (PCI bus order)."""
    uuid: str
    cuda_ordinal: int | None
    """The device number the launch sees (after CUDA_VISIBLE_DEVICES)."""
    used_mib: int | None
    total_mib: int | None
    processes: list[ProcessEntry] = field(default_factory=list)
    clean: bool | None = None
    """None when it could not be read."""
    reason: str | None = None


@dataclass(slots=True)
class PreflightResult:
    """Whether the GPUs a launch will use are free, and why not."""

    status: Status
    backend: str | None
    max_used_mib: int
    gpus: list[GpuEntry] = field(default_factory=list)
    """The GPUs the launch will use (every visible one when the need is not known)."""
    visible: str = ""
    """Which GPUs are visible and why (`CUDA_VISIBLE_DEVICES=0,1`)."""
    visible_count: int | None = None
    needed: int | None = None
    missing_ordinals: list[int] = field(default_factory=list)
    kill_command: str | None = None
    """`kill PID...` for the local pids on busy GPUs, and nothing else; never run by speclint."""
    messages: list[str] = field(default_factory=list)
    waited_s: float = 0.0

    @property
    def exit_code(self) -> int:
        return EXIT_CODES[self.status]

    @property
    def clean(self) -> bool:
        return self.status == "clean"

    @property
    def busy_gpus(self) -> list[GpuEntry]:
        return [g for g in self.gpus if g.clean is False]

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["exit_code"] = self.exit_code
        return data
