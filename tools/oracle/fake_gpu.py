"""The fake NVIDIA GPU of the oracle (``resolve_cases.py``, ``record_release.py``,
``release_compat.py``): ``torch.cuda`` probes answer for one GPU of ``GPUS``; while a module
body executes CUDA reads as absent (module-level ``_is_cuda = is_cuda()`` takes the CPU path
and skips ``sgl_kernel``); after each outermost import the platform caches of
``PROBE_MODULES`` are cleared and copied probes rebound. The state (``_gpu``,
``_patching_ready``, ``_replacements``, ``PROBE_MODULES``) lives here, one copy for all three."""

from __future__ import annotations

import importlib._bootstrap as _bootstrap
import sys

# --------------------------------------------------------------------------------------
# Fake GPUs.  Memory is what nvidia-smi reports as memory.total (MiB).
# --------------------------------------------------------------------------------------
GPUS = {
    "H100": dict(name="NVIDIA H100 80GB HBM3", cap=(9, 0), mem_mib=81559, sms=132),
    "H800": dict(name="NVIDIA H800", cap=(9, 0), mem_mib=81559, sms=132),
    "H200": dict(name="NVIDIA H200", cap=(9, 0), mem_mib=143771, sms=132),
    "H20": dict(name="NVIDIA H20", cap=(9, 0), mem_mib=97871, sms=78),
    "A100": dict(name="NVIDIA A100-SXM4-80GB", cap=(8, 0), mem_mib=81920, sms=108),
    "A100-40G": dict(name="NVIDIA A100-SXM4-40GB", cap=(8, 0), mem_mib=40960, sms=108),
    "L40S": dict(name="NVIDIA L40S", cap=(8, 9), mem_mib=46068, sms=142),
    "B200": dict(name="NVIDIA B200", cap=(10, 0), mem_mib=183359, sms=148),
    "GB200": dict(name="NVIDIA GB200", cap=(10, 0), mem_mib=189471, sms=152),
    "RTX5090": dict(name="NVIDIA GeForce RTX 5090", cap=(12, 0), mem_mib=32607, sms=170),
}
DEFAULT_GPU = "H100"
FAKE_CUDA_VERSION = "13.0"
FAKE_DEVICE_COUNT = 8

_gpu = dict(GPUS[DEFAULT_GPU])
_import_depth = 0  # > 0 while a module body is being executed


def _in_import() -> bool:
    return _import_depth > 0


class _FakeProps:
    def __init__(self, g):
        self.name = g["name"]
        self.major, self.minor = g["cap"]
        self.total_memory = g["mem_mib"] * 1024 * 1024
        self.multi_processor_count = g["sms"]
        self.is_integrated = False
        self.is_multi_gpu_board = False
        self.L2_cache_size = 50 * 1024 * 1024
        self.warp_size = 32
        self.gcnArchName = ""
        self.uuid = "GPU-00000000-0000-0000-0000-000000000000"

    def __repr__(self):
        return f"_FakeProps(name={self.name!r}, major={self.major}, minor={self.minor})"


def _install_torch_fakes():
    import torch

    cuda = torch.cuda
    cuda.is_available = lambda: not _in_import()
    cuda.device_count = lambda: 0 if _in_import() else FAKE_DEVICE_COUNT
    cuda.get_device_capability = lambda device=None: tuple(_gpu["cap"])
    cuda.get_device_name = lambda device=None: _gpu["name"]
    cuda.get_device_properties = lambda device=None: _FakeProps(_gpu)
    cuda.mem_get_info = lambda device=None: (
        int(_gpu["mem_mib"] * 1024 * 1024 * 0.98),
        _gpu["mem_mib"] * 1024 * 1024,
    )
    cuda.current_device = lambda: 0
    cuda.is_bf16_supported = lambda *a, **k: True
    torch.version.cuda = FAKE_CUDA_VERSION


# --------------------------------------------------------------------------------------
# "No CUDA while a module body runs": module-level probes (``_is_cuda = is_cuda()``)
# then take the CPU path and do not import the CUDA-only sgl_kernel & co.  After every
# outermost import the cached platform checks are cleared so that resolution code sees
# the fake GPU again.
# --------------------------------------------------------------------------------------
_orig_find_and_load = _bootstrap._find_and_load


def _find_and_load(name, import_):
    global _import_depth
    if _import_depth == 0 and _patching_ready:
        # An import from inside a resolution handler (``_handle_dflash`` imports
        # dflash_utils): the platform probes were cached as CUDA-present while resolving,
        # so module-level ``_is_cuda = is_cuda()`` would take the CUDA path (sgl_kernel).
        _clear_platform_caches()
    _import_depth += 1
    try:
        return _orig_find_and_load(name, import_)
    finally:
        _import_depth -= 1
        if _import_depth == 0:
            _after_import()


_patching_ready = False


def _after_import():
    if _patching_ready:
        _clear_platform_caches()
        _rebind_copies()


def _install_import_hook():
    _bootstrap._find_and_load = _find_and_load


PROBE_MODULES = ["sglang.srt.utils.common"]
"""Modules whose cached functions hold platform probes (release_compat.py adds the older
releases' ``sglang.srt.utils``)."""


def _clear_platform_caches():
    for name in PROBE_MODULES:
        common = sys.modules.get(name)
        if common is None:
            continue
        # Every cached function in the module: the plain probes (is_cuda, ...) and the
        # lru_cache(partial(...)) ones (is_hopper_with_cuda_12_3, is_sm100_supported, ...),
        # which runtime_context.get_platform() reads through on every access.
        for obj in list(vars(common).values()):
            if callable(getattr(obj, "cache_clear", None)):
                obj.cache_clear()


_replacements: dict[str, tuple[object, object]] = {}  # attr -> (original, fake)


def _rebind_copies():
    """Modules that did ``from ... import is_flashinfer_available`` hold a copy."""
    platform = None
    pmod = sys.modules.get("sglang.srt.platforms")
    if pmod is not None:
        platform = pmod.__dict__.get("_current_platform")
    for mname, mod in list(sys.modules.items()):
        if not mname.startswith("sglang") or mod is None:
            continue
        d = getattr(mod, "__dict__", None)
        if d is None:
            continue
        for attr, (orig, fake) in _replacements.items():
            if d.get(attr) is orig:
                d[attr] = fake
        if platform is not None and mname != "sglang.srt.platforms":
            cp = d.get("current_platform")
            if cp is not None and cp is not platform and type(cp).__name__.endswith("SRTPlatform"):
                d["current_platform"] = platform


def _install_sglang_fakes():
    """Import SGLang's probe modules (CUDA hidden) and replace the GPU probes."""
    global _patching_ready
    import sglang.srt.platforms as platforms
    import sglang.srt.utils.common as common
    from sglang.srt.platforms.cuda import CudaSRTPlatform

    def get_nvgpu_memory_capacity():
        return float(_gpu["mem_mib"])

    def is_flashinfer_available():
        return common.is_cuda()

    def _get_device_sm_via_nvml():
        return _gpu["cap"][0] * 10 + _gpu["cap"][1]

    for attr, fake in (
        ("get_nvgpu_memory_capacity", get_nvgpu_memory_capacity),
        ("is_flashinfer_available", is_flashinfer_available),
        ("_get_device_sm_via_nvml", _get_device_sm_via_nvml),
    ):
        _replacements[attr] = (getattr(common, attr), fake)
        setattr(common, attr, fake)

    platforms._current_platform = CudaSRTPlatform()
    _patching_ready = True
    _clear_platform_caches()
    _rebind_copies()


def _set_gpu(name: str):
    if name not in GPUS:
        raise ValueError(f"unknown fake GPU {name!r}; known: {sorted(GPUS)}")
    _gpu.clear()
    _gpu.update(GPUS[name])
    _clear_platform_caches()
