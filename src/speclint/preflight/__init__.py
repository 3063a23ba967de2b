"""Runtime preflight: are the GPUs a launch will use free? (`speclint preflight`,
`speclint run`, the SGLang plugin.) `check()` is the Python API for wrappers.

Imports nothing heavy: NVML's bindings load only when a check runs.
"""

from __future__ import annotations

from speclint.preflight.check import DEFAULT_MAX_USED_MIB, check
from speclint.preflight.result import GpuEntry, PreflightResult, ProcessEntry

__all__ = ["DEFAULT_MAX_USED_MIB", "GpuEntry", "PreflightResult", "ProcessEntry", "check"]
