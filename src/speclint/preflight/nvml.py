"""The NVML backend, through nvidia-ml-py (module `pynvml`), imported only here and only
when a preflight runs. NVML is the first choice: nvidia-smi's output is not guaranteed to
stay compatible, NVML and its bindings are."""

from __future__ import annotations

import sys
from typing import Any

from speclint.preflight.snapshot import BackendError, BackendUnavailable, GpuProcess, PhysicalGpu, Snapshot

MIB = 1024 * 1024
# nvmlReturn_t codes meaning "NVML cannot run here": fall back to nvidia-smi.
_UNAVAILABLE = {
    9: "the NVIDIA driver is not loaded",
    12: "libnvidia-ml.so was not found",
    13: "a function is missing from the driver library",
}

Nvml = Any
"""The `pynvml` module, or the stand-in tests pass: nvidia-ml-py ships no type information."""
Handle = Any
"""A device handle `pynvml` returns."""
ErrorType = type[BaseException]
"""`pynvml.NVMLError`, or `Exception` when the module has none."""


def _module(module: Nvml | None = None) -> Nvml:
    if module is not None:
        return module
    if "pynvml" in sys.modules and sys.modules["pynvml"] is not None:
        return sys.modules["pynvml"]
    try:
        import pynvml
    except ImportError:
        raise BackendUnavailable("nvidia-ml-py (module pynvml) is not installed") from None
    return pynvml


def _text(value: object) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def _code(error: BaseException) -> int | None:
    code = getattr(error, "value", None)
    return code if isinstance(code, int) else None


def query(module: Nvml | None = None) -> Snapshot:
    """Read every GPU and its compute processes; `module` replaces `pynvml` (tests)."""
    nvml = _module(module)
    error_type: ErrorType = getattr(nvml, "NVMLError", Exception)
    try:
        nvml.nvmlInit()
    except error_type as error:
        code = _code(error)
        reason = _UNAVAILABLE.get(code) if code is not None else None
        if reason is not None:
            raise BackendUnavailable(f"NVML: {reason}") from None
        raise BackendError(f"NVML could not start: {error}") from None
    except OSError as error:
        raise BackendUnavailable(f"NVML: {error}") from None
    try:
        driver = None
        try:
            driver = _text(nvml.nvmlSystemGetDriverVersion())
        except error_type:
            pass
        try:
            count = nvml.nvmlDeviceGetCount()
        except error_type as error:
            raise BackendError(f"NVML could not count the GPUs: {error}") from None
        gpus = [_read_gpu(nvml, error_type, index) for index in range(count)]
        return Snapshot("nvml", gpus, driver)
    finally:
        try:
            nvml.nvmlShutdown()
        except error_type:
            pass


def _read_gpu(nvml: Nvml, error_type: ErrorType, index: int) -> PhysicalGpu:
    try:
        handle = nvml.nvmlDeviceGetHandleByIndex(index)
        uuid = _text(nvml.nvmlDeviceGetUUID(handle))
    except error_type as error:
        return PhysicalGpu(index, f"<GPU {index}: unreadable>", None, None, error=str(error))
    gpu = PhysicalGpu(index, uuid, None, None)
    try:
        memory = _memory(nvml, error_type, handle)
        gpu.used_mib, gpu.total_mib = int(memory.used) // MIB, int(memory.total) // MIB
        for item in nvml.nvmlDeviceGetComputeRunningProcesses(handle):
            used = getattr(item, "usedGpuMemory", None)
            gpu.processes.append(
                GpuProcess(
                    int(item.pid),
                    _process_name(nvml, error_type, item.pid),
                    int(used) // MIB if used is not None else None,
                )
            )
    except error_type as error:
        gpu.error = str(error)
    return gpu


def _memory(nvml: Nvml, error_type: ErrorType, handle: Handle) -> Any:
    """Memory v2 when the bindings have it: its `used` leaves out the driver's reserved
    memory, which v1 counts (hundreds of MiB on an idle Hopper)."""
    version = getattr(nvml, "nvmlMemory_v2", None)
    if version is not None:
        try:
            return nvml.nvmlDeviceGetMemoryInfo(handle, version=version)
        except (error_type, TypeError):
            pass
    return nvml.nvmlDeviceGetMemoryInfo(handle)


def _process_name(nvml: Nvml, error_type: ErrorType, pid: int) -> str | None:
    try:
        return _text(nvml.nvmlSystemGetProcessName(pid)) or None
    except error_type:
        return None
