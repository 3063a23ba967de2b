"""An environment in which ANY SGLang release resolves launch commands (stdlib only).

The 0.5.23 oracle virtualenv (``setup_env.py``: torch, transformers, ...) is the base.
A release gets an overlay folder holding only its own ``sglang`` package
(``pip install --no-deps --target``), put in front of the base site-packages with
PYTHONPATH, plus a shared folder of pure-Python packages older releases import and the
base lacks (``COMMON_DEPS``), plus inert stubs for optional modules a release imports but
never calls while resolving (``STUBS``, served by release_compat.py only when the module
is not installed). The resolution code that runs is always the release's own.

    python3 tools/oracle/release_env.py 0.5.10.post1     # prepare; prints the env to use
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import sys
import types

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
OVERLAYS = os.path.join(ROOT, ".cache", "oracle", "overlays")
COMMON = os.path.join(OVERLAYS, "deps-common")
WHEELS = os.path.join(ROOT, ".cache", "sglang-wheels")  # the release wheels, when downloaded

COMMON_DEPS = (
    # imported at module level by sglang.srt.utils / server_args of 0.4.x - 0.5.x
    "fastapi==0.115.12",
    "uvicorn==0.34.2",
    "uvloop==0.21.0",
    "setproctitle==1.3.6",
    "interegular==0.3.3",
)
STUBS = (
    "vllm._custom_ops",  # 0.4.x layers/quantization/fp8.py imports it on a CUDA-less import
    # CUDA kernels: 0.5.2 layers/moe/cutlass_w4a8_moe.py and 0.5.4-0.5.5
    # moe_runner/deep_gemm.py import it unconditionally (no server_args.py reads it)
    "sgl_kernel",
)
RELEASE_STUBS: dict[str, tuple[str, ...]] = {
    # sglang/bench_serving.py imports it at module level
    **dict.fromkeys(("0.5.4", "0.5.4.post1", "0.5.4.post2", "0.5.4.post3", "0.5.5"), ("datasets",)),
    # sglang/srt/utils.py: `from decord import VideoReader, cpu` at module level (load_video only)
    **dict.fromkeys(("0.4.4.post4", "0.4.5", "0.4.5.post1"), ("decord",)),
}
RELEASE_DEPS: dict[str, tuple[str, ...]] = {
    # entrypoints/openai/protocol.py imports xgrammar's StructuralTag at module level (0.5.4.post2
    # in a try); their own pin
    **dict.fromkeys(("0.5.4", "0.5.4.post1"), ("xgrammar==0.1.25",)),
    # function_call/inkling_detector.py imports xgrammar at module level (their own pin)
    **dict.fromkeys(("0.5.16", "0.5.17", "0.5.18", "0.5.19", "0.5.20"), ("xgrammar==0.2.1",)),
}
"""Compiled packages some releases import while resolving; each set in its own shared folder
(overlays/deps-<name>-<version>), only on those releases' path."""


def stubs_for(version: str) -> tuple[str, ...]:
    return STUBS + RELEASE_STUBS.get(version, ())


def _setup_env() -> types.ModuleType:
    sys.path.insert(0, HERE)
    try:
        import setup_env
    finally:
        sys.path.remove(HERE)
    return setup_env


def _base_python() -> str:
    return str(_setup_env().ensure())


def _pip(python: str, target: str, specs: list[str]) -> None:
    cmd = [
        python,
        "-m",
        "pip",
        "install",
        "-q",
        "--disable-pip-version-check",
        "--no-deps",
        "--only-binary=:all:",
        "--no-input",
        "--target",
        target,
        *specs,
    ]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        noise = "is ignored: it is neither a file nor a directory"
        err = "\n".join(l for l in proc.stderr.splitlines() if noise not in l)
        raise RuntimeError(f"pip install {' '.join(specs)} failed:\n{err[-3000:]}")


def overlay_dir(version: str) -> str:
    return os.path.join(OVERLAYS, f"sglang-{version}")


def ensure(version: str) -> tuple[str, dict[str, str]]:
    """Install what `version` needs; return (python, environment variables to run it with).
    0.5.23 itself runs in the base environment unchanged."""
    python = _base_python()
    # two recordings that need the same overlay at once (two helpers, a test beside a run):
    # one installs it, the other waits and finds it there (before, both installed into the
    # same `.tmp` folder and the second `os.replace` failed on the first one's folder)
    with _setup_env().locked(os.path.join(OVERLAYS, ".install.lock")):
        return python, _ensure_overlays(python, version)


def _ensure_overlays(python: str, version: str) -> dict[str, str]:
    stamp = os.path.join(COMMON, ".stamp")
    want = "\n".join(COMMON_DEPS)
    if not os.path.exists(stamp) or open(stamp).read() != want:
        os.makedirs(COMMON, exist_ok=True)
        _pip(python, COMMON, list(COMMON_DEPS))
        with open(stamp, "w") as f:
            f.write(want)
    base_version = _installed_version(python)
    paths = [COMMON]
    if version != base_version:
        target = overlay_dir(version)
        if not os.path.isdir(os.path.join(target, "sglang")):
            wheels = sorted(glob.glob(os.path.join(WHEELS, f"sglang-{version}-*.whl")))
            shutil.rmtree(target + ".tmp", ignore_errors=True)  # (a run killed while installing)
            _pip(python, target + ".tmp", [wheels[0] if wheels else f"sglang=={version}"])
            os.replace(target + ".tmp", target)
        paths.insert(0, target)
    for spec in RELEASE_DEPS.get(version, ()):
        target = os.path.join(OVERLAYS, "deps-" + spec.replace("==", "-"))
        if not os.path.isdir(target):
            shutil.rmtree(target + ".tmp", ignore_errors=True)
            _pip(python, target + ".tmp", [spec])
            os.replace(target + ".tmp", target)
        paths.append(target)
    return {"PYTHONPATH": os.pathsep.join(paths), "ORACLE_STUBS": ",".join(stubs_for(version))}


def _installed_version(python: str) -> str:
    out = subprocess.run(
        [python, "-c", "import importlib.metadata as m; print(m.version('sglang'))"],
        capture_output=True,
        text=True,
    )
    return out.stdout.strip()


def disk_usage(version: str) -> int:
    total = 0
    for dirpath, _dirs, files in os.walk(overlay_dir(version)):
        for name in files:
            try:
                total += os.path.getsize(os.path.join(dirpath, name))
            except OSError:
                pass
    return total


if __name__ == "__main__":
    for v in sys.argv[1:]:
        py, env = ensure(v)
        print(v, py, env, f"{disk_usage(v) / 1e6:.0f} MB")
