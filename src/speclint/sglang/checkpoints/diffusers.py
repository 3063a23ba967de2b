"""A diffusers pipeline on disk, as a release's `sglang serve` tells one (0.5.5+: it then runs
SGLang's diffusion server, which speclint does not model). What to look for is read per release
(`speclint.sglang.diffusion_serve.diffusers_markers`); where is `locate`'s: a mapped or local
folder, or the Hugging Face cache. Never the network."""

from __future__ import annotations

import os

from speclint.runner.depends import note
from speclint.sglang.checkpoints.locate import hub_cache_dirs, hub_snapshot, is_hub_id


def diffusers_index(
    reference: str,
    revision: str | None,
    mapped: str | None,
    markers: tuple[tuple[str, ...], str, str | None],
) -> str | None:
    """The index file (`model_index.json`) that makes the model a diffusers pipeline for the
    release whose `markers` these are, or None: none on disk, or one without the key."""
    files, key, hub_file = markers
    folders: list[tuple[str, str | None]] = []  # (folder, the file that must be there first)
    if mapped is not None:
        path = os.path.expanduser(mapped)
        folders.append((path if os.path.isdir(path) else os.path.dirname(path), None))
    path = os.path.expanduser(reference)
    folders.append((path, None))
    if not os.path.isdir(path) and is_hub_id(reference):
        for cache in hub_cache_dirs():
            snapshot = hub_snapshot(reference, revision, cache)
            if snapshot is not None:
                folders.append((snapshot, hub_file))
    for folder, first in folders:
        note(folder)
        if not os.path.isdir(folder):
            continue
        if first is not None and not os.path.isfile(os.path.join(folder, first)):
            continue  # (the release fetches this file first: without it, not a pipeline)
        for name in files:
            index = os.path.join(folder, name)
            note(index)
            if os.path.isfile(index):  # the first found decides
                return index if _holds(index, key) else None
    return None


def _holds(path: str, key: str) -> bool:
    """Whether the JSON object in `path` has `key` at its top level (unreadable: no)."""
    from speclint.core import json_read

    try:
        with open(path, "rb") as handle:
            loaded = json_read.loads(handle.read(1 << 20))
    except (OSError, ValueError):
        return False
    return isinstance(loaded, dict) and key in loaded
