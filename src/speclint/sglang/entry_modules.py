"""Which of SGLang's modules `python -m` runs as a script in each release, and which of those
parse SGLang's server flags (`sglang.compile_deep_gemm`, `sglang.benchmark.one_batch`), read
from each release's own source by tools/gen_sglang_entry_modules.py into
`data/sglang_entry_modules.json`."""

from __future__ import annotations

import os
from functools import cache

from speclint.sglang.linedata import LineData

_FILE = LineData(
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "sglang_entry_modules.json")
)


@cache
def _releases_of() -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """(script module -> releases that have it, server-flag module -> releases), in release order."""
    scripts: dict[str, list[str]] = {}
    server: dict[str, list[str]] = {}
    texts: dict[int, list[str]] = {}
    for version in _FILE.versions():
        row = _FILE.row(version)
        for key, found in (("scripts", scripts), ("server_flags", server)):
            index = row[key]
            if index not in texts:
                texts[index] = _FILE.shared(index)
            for module in texts[index]:
                found.setdefault(module, []).append(version)
    return scripts, server


def releases() -> tuple[str, ...]:
    """Every release read, oldest first."""
    return tuple(_FILE.versions())


def script_releases(module: str) -> list[str]:
    """The releases in which `python -m module` runs the module as a script."""
    return _releases_of()[0].get(module, [])


def server_flag_releases(module: str) -> list[str]:
    """The releases in which the module, run with `python -m`, parses SGLang's server flags."""
    return _releases_of()[1].get(module, [])
