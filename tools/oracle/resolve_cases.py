#!/usr/bin/env python3
"""Resolve SGLang launch commands with the REAL SGLang, on a machine without a GPU.

Runs inside the oracle virtualenv made by ``tools/oracle/setup_env.py``:

    .cache/oracle/sglang-0.5.23/bin/python tools/oracle/resolve_cases.py CASES.json [-o OUT.json]

CASES.json is a JSON array of objects:

    {"argv": ["--model-path", "fixtures/models/llama-3.1-8b-instruct", ...],
     "env": {"SGLANG_...": "1"},          # optional, applied for this case only
     "gpu": "H100",                       # optional, default H100 (see GPUS)
     "check": true}                       # optional: then run check_server_args() too

or, for a keyword launch (`sgl.Engine(**kwargs)`, `ServerArgs(**kwargs)`), ``"kwargs":
{"model_path": ..., "tp_size": 2}`` instead of ``argv``: the settings are made by
``ServerArgs(**kwargs)`` (what Engine.__init__ does with its keywords; no argparse), then
resolved the same way.

``argv`` is what follows ``python -m sglang.launch_server``.  For each case the script
runs what ``sglang.launch_server`` runs before it spawns a process:
``prepare_server_args(argv)`` and then ``server_args.resolve_once()`` (the body of
``run_server`` up to the resolution), with one fake NVIDIA GPU of the given model.

Output: a JSON array, one object per case, in order:

    {"ok": bool,
     "stage": "parse" | "resolve" | null,   # where it failed
     "error_type": "SystemExit" | "AssertionError" | ... | null,
     "error": str | null,                   # argparse's stderr message for SystemExit
     "effective": {field: value},           # ServerArgs.resolved_dict() (JSON-safe)
     "raw": {field: value},                 # the parsed input, only fields that differ
                                            #   from "effective" (what resolution changed)
     "declared": [[handler, {field: value}], ...],   # server_args._resolved_overrides
     "logs": [[level, logger, message], ...],        # SGLang log records, INFO and up
     "elapsed_ms": float}

All cases run in one process: importing SGLang takes seconds, a resolution ~20 ms.
``os.environ`` is restored after every case (resolution exports NCCL_*/SGLANG_*).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib._bootstrap as _bootstrap
import io
import json
import logging
import math
import os
import sys
import time
import traceback
import types  # noqa: F401

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


# --------------------------------------------------------------------------------------
# JSON helpers
# --------------------------------------------------------------------------------------
def _jsonable(v):
    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, float):
        return v if math.isfinite(v) else str(v)
    if isinstance(v, dict):
        return {str(k): _jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple, set, frozenset)):
        return [_jsonable(x) for x in v]
    if hasattr(v, "value") and type(v).__module__ != "builtins" and isinstance(v.value, (str, int)):  # enums
        return _jsonable(v.value)
    return str(v)


class _Capture(logging.Handler):
    def __init__(self):
        super().__init__(logging.INFO)
        self.records = []

    def emit(self, record):
        try:
            msg = record.getMessage()
        except Exception:  # pragma: no cover - a bad format string in SGLang
            msg = str(record.msg)
        self.records.append([record.levelname, record.name, msg])


# --------------------------------------------------------------------------------------
# One case
# --------------------------------------------------------------------------------------
def _resolve_case(case, prepare_server_args):
    from sglang.srt.arg_groups.overrides import resolution_result  # noqa: F401

    argv = [str(a) for a in case.get("argv", [])]
    env = {str(k): str(v) for k, v in (case.get("env") or {}).items()}
    _set_gpu(case.get("gpu") or DEFAULT_GPU)

    out = {
        "ok": False,
        "stage": None,
        "error_type": None,
        "error": None,
        "effective": {},
        "raw": {},
        "declared": [],
        "logs": [],
        "elapsed_ms": None,
    }
    saved_env = dict(os.environ)
    os.environ.update(env)
    capture = _Capture()
    sg_logger = logging.getLogger("sglang")
    sg_logger.addHandler(capture)
    t0 = time.perf_counter()
    server_args = None
    try:
        stderr = io.StringIO()
        try:
            with contextlib.redirect_stderr(stderr):
                if "kwargs" in case:  # `sgl.Engine(**kwargs)`: `ServerArgs(**kwargs)`, no argparse
                    from sglang.srt.server_args import ServerArgs

                    server_args = ServerArgs(**case["kwargs"])
                else:
                    server_args = prepare_server_args(argv)
        except SystemExit as e:
            text = stderr.getvalue().strip()
            # argparse prints the usage, then "<prog>: error: <message>"; keep the message.
            _, sep, msg = text.rpartition(": error: ")
            out.update(
                stage="parse",
                error_type="SystemExit",
                error=("error: " + msg.strip()) if sep else (text or f"exit {e.code}"),
            )
            out["stderr"] = text
            return out
        except BaseException as e:  # noqa: BLE001
            out.update(
                stage="parse", error_type=type(e).__name__, error=(str(e) or stderr.getvalue().strip())
            )
            out["traceback"] = traceback.format_exc(limit=-6)
            return out
        if stderr.getvalue().strip():
            out["parse_stderr"] = stderr.getvalue().strip()
        try:
            # What sglang.launch_server.run_server does before resolve_once().
            if (server_args.smg_grpc_mode or server_args.grpc_mode) and server_args.tokenizer_path is None:
                server_args.tokenizer_path = server_args.model_path
            server_args.resolve_once()
            out["ok"] = True
            if case.get("check"):  # optional: what launch runs next, check_server_args()
                try:
                    server_args.check_server_args()
                except BaseException as e:  # noqa: BLE001
                    out.update(ok=False, stage="check", error_type=type(e).__name__, error=str(e))
        except SystemExit as e:
            out.update(stage="resolve", error_type="SystemExit", error=str(e.code))
        except BaseException as e:  # noqa: BLE001
            out.update(stage="resolve", error_type=type(e).__name__, error=str(e))
            out["traceback"] = traceback.format_exc(limit=-6)
        # Declarations and effective values, also after a failed resolution (they show
        # how far it got).
        declared = getattr(server_args, "_resolved_overrides", None) or []
        out["declared"] = [[str(src), _jsonable(dict(fields))] for src, fields in declared]
        try:
            eff = server_args.resolved_dict()
        except BaseException as e:  # noqa: BLE001
            eff = {}
            out["effective_error"] = f"{type(e).__name__}: {e}"
        out["effective"] = {k: _jsonable(v) for k, v in eff.items()}
        raw = getattr(server_args, "_raw_input", None)
        if raw is not None:
            for k, v in raw.items():
                jv = _jsonable(v)
                if k in out["effective"] and out["effective"][k] != jv:
                    out["raw"][k] = jv
        return out
    finally:
        out["elapsed_ms"] = round((time.perf_counter() - t0) * 1000, 2)
        out["logs"] = capture.records
        sg_logger.removeHandler(capture)
        os.environ.clear()
        os.environ.update(saved_env)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("cases", help="JSON file with an array of cases ('-' for stdin)")
    ap.add_argument("-o", "--output", help="write the JSON result here (default stdout)")
    ap.add_argument("--quiet", action="store_true", help="silence SGLang's log output")
    args = ap.parse_args(argv)

    with sys.stdin if args.cases == "-" else open(args.cases) as f:
        cases = json.load(f)
    if not isinstance(cases, list):
        raise SystemExit("cases file must hold a JSON array")

    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

    t0 = time.perf_counter()
    _install_torch_fakes()
    _install_import_hook()
    _install_sglang_fakes()
    from sglang.srt.plugins import load_plugins
    from sglang.srt.server_args import prepare_server_args

    load_plugins()  # as sglang.launch_server does, once, before parsing
    if args.quiet:  # records are still captured per case by a handler on "sglang"
        logging.getLogger("sglang").propagate = False
    t_import = time.perf_counter() - t0
    results = []
    for case in cases:
        results.append(_resolve_case(case, prepare_server_args))
    print(
        f"resolve_cases: import {t_import:.2f}s, {len(cases)} cases "
        f"{', '.join(str(r['elapsed_ms']) for r in results[:50])} ms",
        file=sys.stderr,
    )
    text = json.dumps(results, indent=1)
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text + "\n")


if __name__ == "__main__":
    main()
