"""The GPU profile of the machine a launch runs on, read with NVML for `speclint run` and
the SGLang plugin: name, total memory and compute capability of the first GPU the launch
can see (SGLang's resolution reads the same facts from CUDA). None when NVML cannot tell:
the GPU-dependent fields then stay unknown, nothing else changes."""

from __future__ import annotations

from speclint.preflight.nvml import _text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from speclint.preflight.nvml import Handle, Nvml
    from speclint.sglang.resolve.gpu_profiles import GpuProfile


def visible_profile(environ: Mapping[str, str], module: Nvml | None = None) -> GpuProfile | None:
    """`GpuProfile` of the first visible GPU (CUDA_VISIBLE_DEVICES: index or UUID), or None."""
    from speclint.preflight.nvml import MIB, _memory, _module
    from speclint.sglang.resolve.gpu_profiles import from_device

    try:
        nvml = _module(module)
        nvml.nvmlInit()
    except Exception:  # no driver, no pynvml: the fields stay unknown
        return None
    try:
        count = nvml.nvmlDeviceGetCount()
        if count < 1:
            return None
        handle = _first_visible(nvml, environ.get("CUDA_VISIBLE_DEVICES"), count)
        if handle is None:
            return None
        name = _text(nvml.nvmlDeviceGetName(handle))
        total = _memory(nvml, getattr(nvml, "NVMLError", Exception), handle).total // MIB
        major, minor = nvml.nvmlDeviceGetCudaComputeCapability(handle)
        return from_device(name, int(total), (int(major), int(minor)), count)
    except Exception:
        return None
    finally:
        try:
            nvml.nvmlShutdown()
        except Exception:
            pass


def _first_visible(nvml: Nvml, visible: str | None, count: int) -> Handle | None:
    if visible is None:
        return nvml.nvmlDeviceGetHandleByIndex(0)
    entry = visible.split(",")[0].strip()
    if entry.isdigit():
        return nvml.nvmlDeviceGetHandleByIndex(int(entry)) if int(entry) < count else None
    if entry.startswith("GPU-"):
        for index in range(count):
            handle = nvml.nvmlDeviceGetHandleByIndex(index)
            if _text(nvml.nvmlDeviceGetUUID(handle)).startswith(entry):
                return handle
    return None
