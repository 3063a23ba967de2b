"""What lets an older SGLang release resolve inside the 0.5.23 oracle environment, for
``record_release.py``: the fake GPU of ``fake_gpu.py`` extended to the pre-``platforms``
probes (``sglang.srt.utils``, ``sglang.srt.layers.utils``), small shims for API drift in the
newer torch/triton/transformers, and the inert stubs of ``ORACLE_STUBS``. Nothing here fakes
a result of the release's own resolution."""

from __future__ import annotations

import os
import sys

import fake_gpu as rc  # (the fake GPU and its state; record_release.py puts this folder on sys.path)


def _utils_module():
    """The module holding the platform probes: ``sglang.srt.utils.common`` (0.5.x with the
    utils package) or ``sglang.srt.utils`` (a single module before)."""
    import importlib

    try:
        return importlib.import_module("sglang.srt.utils.common")
    except ImportError:
        return importlib.import_module("sglang.srt.utils")


def install_fakes() -> None:
    rc._install_torch_fakes()
    _torch_compat()
    _transformers_compat()
    _install_stubs()
    rc._install_import_hook()
    try:
        import sglang.srt.platforms  # noqa: F401
        from sglang.srt.platforms.cuda import CudaSRTPlatform  # noqa: F401

        has_platforms = hasattr(sys.modules["sglang.srt.platforms"], "_current_platform")
    except ImportError:
        has_platforms = False
    common = _utils_module()
    if common.__name__ not in rc.PROBE_MODULES:
        rc.PROBE_MODULES.append(common.__name__)
    # 0.5.1-0.5.1.post2 keep is_sm90_supported / is_sm100_supported (lru_cache) in
    # sglang.srt.layers.utils: cleared like the others, or the first GPU's answer sticks
    if "sglang.srt.layers.utils" not in rc.PROBE_MODULES:
        rc.PROBE_MODULES.append("sglang.srt.layers.utils")
    if (
        has_platforms
        and common.__name__ == "sglang.srt.utils.common"
        and all(
            hasattr(common, a)
            for a in ("get_nvgpu_memory_capacity", "is_flashinfer_available", "_get_device_sm_via_nvml")
        )
    ):
        rc._install_sglang_fakes()
        return
    _install_generic_fakes(common, has_platforms)


def _install_generic_fakes(common, has_platforms: bool) -> None:
    gpu = rc._gpu

    fakes = {
        "get_nvgpu_memory_capacity": lambda: float(gpu["mem_mib"]),
        "is_flashinfer_available": lambda: bool(common.is_cuda()),
        "_get_device_sm_via_nvml": lambda: gpu["cap"][0] * 10 + gpu["cap"][1],
    }
    for attr, fake in fakes.items():
        if hasattr(common, attr):
            rc._replacements[attr] = (getattr(common, attr), fake)
            setattr(common, attr, fake)
    if has_platforms:
        import sglang.srt.platforms as platforms
        from sglang.srt.platforms.cuda import CudaSRTPlatform

        platforms._current_platform = CudaSRTPlatform()
    rc._patching_ready = True
    rc._clear_platform_caches()
    rc._rebind_copies()


def _torch_compat() -> None:
    """Probes older releases call that the environment's newer torch no longer has. They
    ask about the host CPU, never about the (fake) GPU."""
    import torch

    cpu = getattr(torch._C, "_cpu", None)
    if cpu is not None and not hasattr(cpu, "_is_amx_tile_supported"):
        cpu._is_amx_tile_supported = lambda: False
    # 0.4.6 sglang/srt/utils.py imports triton's old cache-folder helpers (used only by
    # its triton-kernel cache tools)
    import tempfile

    import triton.runtime.cache as tcache

    for name in ("default_cache_dir", "default_dump_dir", "default_override_dir"):
        if not hasattr(tcache, name):
            setattr(tcache, name, lambda _n=name: os.path.join(tempfile.gettempdir(), _n))


class _StubFinder:
    """Serves inert modules for names in ``ORACLE_STUBS`` (comma-separated) that are not
    installed: CUDA-only or optional packages an older release imports at module level
    (``vllm._custom_ops`` in 0.4.x fp8.py) but never calls while resolving arguments.
    Its attributes are functions raising when called, so a stub never fakes a result.
    Appended to ``sys.meta_path``: an installed package always wins."""

    def __init__(self, names):
        self.names = set(names)
        for n in list(self.names):  # parents are stub packages too
            while "." in n:
                n = n.rpartition(".")[0]
                self.names.add(n)

    def find_spec(self, name, path=None, target=None):
        import importlib.machinery

        if name not in self.names:
            return None
        return importlib.machinery.ModuleSpec(name, self, is_package=True)

    def create_module(self, spec):
        import types

        mod = types.ModuleType(spec.name)
        mod.__path__ = []

        def __getattr__(attr, _name=spec.name):
            if attr.startswith("__") or attr in ("cache_clear", "cache_info"):
                raise AttributeError(attr)  # not a cached probe, not a dunder protocol

            def stub(*args, **kwargs):
                raise RuntimeError(f"oracle stub {_name}.{attr} called")

            return stub

        mod.__getattr__ = __getattr__
        return mod

    def exec_module(self, module):
        pass


def _install_stubs() -> None:
    names = [n.strip() for n in os.environ.get("ORACLE_STUBS", "").split(",") if n.strip()]
    if names:
        sys.meta_path.append(_StubFinder(names))


def _transformers_compat() -> None:
    """An older release registers config classes (``AutoConfig.register("qwen3_asr", ...)``)
    that the environment's newer transformers already defines; its own pin did not. Let
    the release's registration win instead of stopping the import."""
    from transformers.models.auto import configuration_auto as ca

    mapping_cls = type(ca.CONFIG_MAPPING)
    original = mapping_cls.register

    def register(self, key, value, exist_ok=False):
        return original(self, key, value, exist_ok=True)

    mapping_cls.register = register
    # 0.4.3.post1-0.4.4.post1 configs/qwen2_5_vl_config.py import `VideoInput` from
    # transformers.image_utils, which newer transformers moved to transformers.video_utils
    # (a type alias; nothing calls it while resolving)
    # 0.4.3.post1-0.4.4.post1 register their own Qwen2_5_VL processor for a config name this
    # transformers defines (`AutoProcessor.register`): the release's registration wins, as above
    from transformers.models.auto import auto_factory

    lazy = auto_factory._LazyAutoMapping
    original_lazy = lazy.register

    def register_lazy(self, key, value, exist_ok=False):
        return original_lazy(self, key, value, exist_ok=True)

    lazy.register = register_lazy
    import transformers.image_utils as image_utils

    if not hasattr(image_utils, "VideoInput"):
        from transformers.video_utils import VideoInput

        image_utils.VideoInput = VideoInput
    # 0.4.3.post1-0.4.3.post2 import `is_valid_list_of_images` from transformers' mllama image
    # processor, which newer transformers dropped; 0.4.3.post3+ define the same function in
    # their own configs/qwen2_5_vl_config.py (image inputs only; never called while resolving)
    from transformers.models.mllama import image_processing_mllama as mllama

    if not hasattr(mllama, "is_valid_list_of_images"):

        def is_valid_list_of_images(images):
            return images and all(image_utils.is_valid_image(image) for image in images)

        mllama.is_valid_list_of_images = is_valid_list_of_images
