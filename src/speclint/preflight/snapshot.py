"""What a GPU backend (NVML or nvidia-smi) reports: every physical GPU with its memory and
compute processes, keyed by UUID so nothing depends on index order."""

from __future__ import annotations

from dataclasses import field

from speclint.core.records import dataclass


@dataclass(frozen=True, slots=True)
class GpuProcess:
    """A process the driver reports on one GPU."""

    pid: int
    name: str | None
    """As the driver reports it (`python3`, `/usr/bin/python3`); None when it cannot say."""
    used_mib: int | None
    """None when the driver does not report it (NVML_VALUE_NOT_AVAILABLE, `[N/A]`)."""


@dataclass(slots=True)
class PhysicalGpu:
    """One GPU as the driver reports it (NVML or nvidia-smi)."""

    index: int
    """nvidia-smi/NVML index (PCI bus order), not a CUDA ordinal."""
    uuid: str
    used_mib: int | None
    total_mib: int | None
    processes: list[GpuProcess] = field(default_factory=list)
    error: str | None = None
    """The backend could not read this GPU (fallen off the bus, no permission)."""


@dataclass(slots=True)
class Snapshot:
    """Every GPU and its processes, read once."""

    backend: str
    """'nvml' or 'nvidia-smi'."""
    gpus: list[PhysicalGpu]
    driver: str | None = None


class BackendUnavailable(Exception):
    """The backend cannot run here at all (no driver library, no nvidia-smi): try the next."""


class BackendError(Exception):
    """The backend ran but failed (driver not loaded, timeout, output it cannot read)."""
