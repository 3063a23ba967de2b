"""speclint never touches the network: the CLI on every fixture gives the same output when
creating any socket raises (a sitecustomize.py on PYTHONPATH replaces socket.socket)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STUB = """
import socket

class _NoNetwork(socket.socket):
    def __init__(self, *args, **kwargs):
        raise OSError("speclint test: network access attempted")

socket.socket = _NoNetwork
socket.create_connection = lambda *a, **k: _NoNetwork()
socket.getaddrinfo = lambda *a, **k: (_ for _ in ()).throw(OSError("speclint test: DNS attempted"))
"""


def _run(args, extra_path: str | None):
    env = dict(os.environ, SPECLINT_WORKERS="1")
    env.pop("PYTHONPATH", None)
    if extra_path:
        env["PYTHONPATH"] = extra_path
    return subprocess.run(
        [sys.executable, "-m", "speclint", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_fixtures_lint_the_same_without_network(tmp_path):
    (tmp_path / "sitecustomize.py").write_text(STUB)
    probe = subprocess.run(
        [sys.executable, "-c", "import socket; socket.socket()"],
        env=dict(os.environ, PYTHONPATH=str(tmp_path)),
        capture_output=True,
    )
    assert probe.returncode != 0, "the socket stub is not active"
    for args in (
        ["--output-format", "json", "--exit-zero", "fixtures"],
        ["explain", "--output-format", "json", "fixtures/shell"],
    ):
        free, cut_off = _run(args, None), _run(args, str(tmp_path))
        assert "network access attempted" not in cut_off.stderr + cut_off.stdout
        assert (cut_off.returncode, cut_off.stdout) == (free.returncode, free.stdout), cut_off.stderr
