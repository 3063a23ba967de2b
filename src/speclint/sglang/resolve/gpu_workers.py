"""The GPUs one node's launch opens (`gpu_layout.gpu_use`): apart, so that a lint whose
launch leaves a size unknown does not make its record class."""

from __future__ import annotations

from speclint.core.records import dataclass


@dataclass(frozen=True, slots=True)
class GpuUse:
    """The GPUs one node's launch opens, as CUDA indices into the visible devices."""

    indices: tuple[int, ...]
    """Every worker's device index, in launch order."""
    replicas: int

    @property
    def count(self) -> int:
        return len(self.indices)

    @property
    def highest(self) -> int:
        return max(self.indices)
