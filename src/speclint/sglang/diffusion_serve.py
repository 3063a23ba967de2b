"""Which releases' `sglang serve` hands a diffusion model to SGLang's diffusion server, and that
server's flags, as tools/gen_sglang_diffusion_serve.py read them from each wheel
(`data/sglang_diffusion_serve.json`)."""

from __future__ import annotations

import os
from functools import lru_cache

from speclint.sglang.linedata import LineData

_FILE = LineData(
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "sglang_diffusion_serve.json")
)


@lru_cache(maxsize=32)
def diffusion_serve(version: str) -> tuple[bool, frozenset[str]] | None:
    """(whether `serve` reads `--model-type`, the diffusion server's flags) for a release
    whose `sglang serve` picks the diffusion server for a diffusion model; None otherwise."""
    row = _FILE.row(version) if version in _FILE.versions() else None
    if not row:
        return None
    return bool(_FILE.shared(row["model_type"])), frozenset(_FILE.shared(row["flags"]))


@lru_cache(maxsize=32)
def diffusers_markers(version: str) -> tuple[tuple[str, ...], str, str | None] | None:
    """How the release's `sglang serve` tells a diffusers pipeline on disk (0.5.5+): (the index
    files its folder check opens, first found deciding; the key that file must hold; the file
    it fetches first for a hub id); None where not read."""
    row = _FILE.row(version) if version in _FILE.versions() else None
    found = _FILE.shared(row["model_dir"]) if row and "model_dir" in row else None
    if not isinstance(found, dict):
        return None
    return tuple(found["files"]), str(found["key"]), found.get("hub_file")
