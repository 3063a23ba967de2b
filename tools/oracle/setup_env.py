#!/usr/bin/env python3
"""Create (once) the virtualenv in which the real SGLang 0.5.23 resolves launch commands.

    python3.11 tools/oracle/setup_env.py [--force] [--venv DIR] [--print-python]

Stdlib only. Makes ``.cache/oracle/sglang-0.5.23/`` (gitignored) with python3.11 and
installs ``tools/oracle/requirements.txt`` there with ``--no-deps`` (prebuilt wheels
only; about 2.5 GB, a minute or two from PyPI), then the torchvision schema workaround
as a ``.pth`` hook, then checks that ``prepare_server_args`` imports.

A stamp file keyed by a hash of requirements.txt and the hook records a successful
install; when it matches, the script returns at once. ``--force`` rebuilds the venv.

Exit status: 0 ready; 75 pip could not reach the package index (no network);
1 any other failure. The last line on stdout is the venv's python when
``--print-python`` is given.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SGLANG_VERSION = "0.5.23"
DEFAULT_VENV = os.path.join(ROOT, ".cache", "oracle", f"sglang-{SGLANG_VERSION}")
REQUIREMENTS = os.path.join(HERE, "requirements.txt")
TVFIX = os.path.join(HERE, "_sglang_oracle_tvfix.py")
STAMP_NAME = ".oracle-stamp"
EX_NO_NETWORK = 75

_NETWORK_SIGNS = (
    "NewConnectionError",
    "Failed to establish a new connection",
    "Temporary failure in name resolution",
    "Name or service not known",
    "Network is unreachable",
    "ConnectTimeoutError",
    "ReadTimeoutError",
    "Connection refused",
    "No matching distribution found",  # what pip says when every index is unreachable
)

_CHECK = (
    "import torch, transformers, torchvision\n"
    "from sglang.srt.server_args import prepare_server_args\n"
    "print('torch', torch.__version__, 'transformers', transformers.__version__)\n"
)


def log(msg: str) -> None:
    print(f"[oracle setup] {msg}", flush=True)


def stamp_key() -> str:
    h = hashlib.sha256()
    for path in (REQUIREMENTS, TVFIX):
        with open(path, "rb") as f:
            h.update(os.path.basename(path).encode() + b"\0" + f.read() + b"\0")
    return h.hexdigest()


def venv_python(venv: str) -> str:
    return os.path.join(venv, "bin", "python")


def find_python311() -> str:
    if sys.version_info[:2] == (3, 11):
        return sys.executable
    for name in ("python3.11",):
        path = shutil.which(name)
        if path:
            return path
    raise RuntimeError("python3.11 not found (the sglang 0.5.23 wheel is cp311 only)")


def site_packages(venv: str) -> str:
    out = subprocess.run(
        [venv_python(venv), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    )
    return out.stdout.strip()


@contextlib.contextmanager
def locked(path: str):
    """Serialise concurrent setups (two pytest processes, two helpers)."""
    import fcntl

    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def run_pip(venv: str, args: list[str]) -> None:
    cmd = [venv_python(venv), "-m", "pip", "--disable-pip-version-check", *args]
    log("$ " + " ".join(cmd[2:]))
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    tail: list[str] = []
    assert proc.stdout is not None
    for line in proc.stdout:
        line = line.rstrip()
        if "is ignored: it is neither a file nor a directory" in line:
            continue  # noise from this image's file:// extra indexes
        tail.append(line)
        del tail[:-60]
        if line.startswith(("Collecting", "Successfully", "ERROR", "Installing")):
            print("    " + line[:160], flush=True)
    if proc.wait() != 0:
        text = "\n".join(tail)
        err = NetworkError if any(s in text for s in _NETWORK_SIGNS) else RuntimeError
        raise err(f"pip failed ({proc.returncode}):\n{text}")


class NetworkError(RuntimeError):
    pass


def install(venv: str, force: bool) -> None:
    t0 = time.time()
    if force and os.path.isdir(venv):
        log(f"removing {venv}")
        shutil.rmtree(venv)
    stamp = os.path.join(venv, STAMP_NAME)
    if os.path.exists(stamp):
        os.remove(stamp)
    if not os.path.exists(venv_python(venv)):
        py = find_python311()
        log(f"creating virtualenv {venv} with {py}")
        subprocess.run([py, "-m", "venv", venv], check=True)
    log(f"installing {REQUIREMENTS} (--no-deps, wheels only; ~2.5 GB on a first run)")
    run_pip(venv, ["install", "--no-deps", "--only-binary=:all:", "--no-input", "-r", REQUIREMENTS])
    sp = site_packages(venv)
    log(f"installing the torchvision nms/qnms schema hook into {sp}")
    shutil.copyfile(TVFIX, os.path.join(sp, "_sglang_oracle_tvfix.py"))
    with open(os.path.join(sp, "_sglang_oracle_tvfix.pth"), "w") as f:
        f.write("import _sglang_oracle_tvfix; _sglang_oracle_tvfix.install()\n")
    log("checking that sglang.srt.server_args imports")
    env = dict(os.environ, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
    out = subprocess.run([venv_python(venv), "-c", _CHECK], capture_output=True, text=True, env=env, cwd=ROOT)
    if out.returncode != 0:
        raise RuntimeError(f"import check failed:\n{out.stderr[-4000:]}")
    log(out.stdout.strip())
    with open(stamp, "w") as f:
        f.write(stamp_key() + "\n")
    log(f"ready in {time.time() - t0:.1f}s: {venv_python(venv)}")


def ensure(venv: str = DEFAULT_VENV, force: bool = False) -> str:
    """Make sure the venv is ready; return its python. Raises NetworkError/RuntimeError."""
    venv = os.path.abspath(venv)
    with locked(venv.rstrip("/") + ".lock"):
        stamp = os.path.join(venv, STAMP_NAME)
        if not force and os.path.exists(venv_python(venv)) and os.path.exists(stamp):
            with open(stamp) as f:
                if f.read().strip() == stamp_key():
                    log(f"up to date (stamp matches): {venv}")
                    return venv_python(venv)
            log("requirements changed since the last install: updating")
        install(venv, force)
    return venv_python(venv)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--venv", default=DEFAULT_VENV, help="virtualenv folder (default %(default)s)")
    ap.add_argument("--force", action="store_true", help="delete and rebuild the virtualenv")
    ap.add_argument("--print-python", action="store_true", help="print the venv's python as the last line")
    args = ap.parse_args(argv)
    try:
        py = ensure(args.venv, args.force)
    except NetworkError as e:
        log(f"no network? {e}")
        return EX_NO_NETWORK
    except Exception as e:  # noqa: BLE001
        log(f"FAILED: {e}")
        return 1
    if args.print_python:
        print(py)
    return 0


if __name__ == "__main__":
    sys.exit(main())
