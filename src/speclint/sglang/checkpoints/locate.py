"""Find a model's config.json on disk: a local folder, the Hugging Face cache, or a mapping.

Never touches the network: a Hugging Face id is only looked up in the local cache layout
(`$HF_HUB_CACHE`, else `$HF_HOME/hub`, else `~/.cache/huggingface/hub`).
"""

from __future__ import annotations

import os
from functools import cache

from speclint.core import patterns
from speclint.core.records import dataclass
from speclint.runner.depends import looked_up, note

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from collections.abc import Mapping


@cache  # compiled on first use: only for a model path that is not on disk
def _hf_id() -> re.Pattern[str]:
    return patterns.compile(r"^[A-Za-z0-9][\w.-]*/[\w.-]+$")


@dataclass(frozen=True, slots=True)
class Located:
    """Where a model named by a launch was found on disk (or why not)."""

    reference: str
    """The model as the launch names it (`/models/llama`, `meta-llama/Llama-3.1-8B`)."""
    folder: str | None
    """The folder holding config.json (and maybe the weights), or None when not found."""
    config_path: str | None
    how: str
    """'mapping', 'local folder', 'hub cache' or 'not found'."""
    tried: tuple[str, ...] = ()


def hub_cache_dirs(env: Mapping[str, str] | None = None) -> list[str]:
    env = os.environ if env is None else env
    if env.get("HF_HUB_CACHE"):
        return [env["HF_HUB_CACHE"]]
    if env.get("HF_HOME"):
        return [os.path.join(env["HF_HOME"], "hub")]
    return [os.path.join(os.path.expanduser("~"), ".cache", "huggingface", "hub")]


def _from_config_or_folder(path: str) -> tuple[str, str] | None:
    note(path)
    if os.path.isfile(path) and os.path.basename(path).endswith(".json"):
        return os.path.dirname(path) or ".", path
    candidate = os.path.join(path, "config.json")
    note(candidate)
    if os.path.isfile(candidate):
        return path, candidate
    return None


def _from_hub_cache(model_id: str, revision: str | None, cache: str) -> tuple[str, str] | None:
    folder = hub_snapshot(model_id, revision, cache)
    if folder is None:
        return None
    config = os.path.join(folder, "config.json")
    note(config)
    return (folder, config) if os.path.isfile(config) else None


def hub_snapshot(model_id: str, revision: str | None, cache: str) -> str | None:
    """The snapshot folder `revision` (default `main`) of `model_id` names in the Hugging Face
    cache `cache` (its `refs/` file, or a commit hash), whether or not it exists."""
    repo = os.path.join(cache, "models--" + model_id.replace("/", "--"))
    wanted = revision or "main"
    snapshot = None
    ref_file = os.path.join(repo, "refs", wanted)
    note(ref_file)
    try:
        if os.path.isfile(ref_file):
            with open(ref_file, encoding="utf-8", errors="replace") as handle:
                snapshot = handle.read(200).strip()
        elif patterns.compile(r"[0-9a-f]{40}").fullmatch(wanted):
            snapshot = wanted
    except OSError:
        return None
    if not snapshot or "/" in snapshot or snapshot.startswith("."):
        return None
    return os.path.join(repo, "snapshots", snapshot)


def is_hub_id(reference: str) -> bool:
    """Whether `reference` has the form of a Hugging Face model id (`org/name`)."""
    return _hf_id().match(reference) is not None


def locate_model(
    reference: str | None,
    revision: str | None = None,
    mapping: dict[str, str] | None = None,
    base_dir: str | None = None,
) -> Located | None:
    """Where `reference`'s config.json is. `mapping` (from `--model-config NAME=PATH`) wins;
    relative folders are taken from `base_dir` (default: the working directory). Looked for
    once per model in a `check` run (`depends.looked_up`)."""
    if not reference:
        return None
    mapped = mapping.get(reference) if mapping else None
    return looked_up(
        ("model", reference, revision, mapped, base_dir),
        lambda: _locate(reference, revision, mapped, base_dir),
    )


def _locate(reference: str, revision: str | None, mapped: str | None, base_dir: str | None) -> Located:
    tried: list[str] = []
    if mapped is not None:
        found = _from_config_or_folder(os.path.expanduser(mapped))
        if found:
            return Located(reference, found[0], found[1], "mapping")
        tried.append(f"mapping {mapped}")
    path = os.path.expanduser(reference)
    if not os.path.isabs(path):
        path = os.path.join(base_dir or os.getcwd(), path)
    found = _from_config_or_folder(path)
    if found:
        return Located(reference, found[0], found[1], "local folder")
    tried.append(f"folder {path}")
    if _hf_id().match(reference):
        for cache in hub_cache_dirs():
            found = _from_hub_cache(reference, revision, cache)
            if found:
                return Located(reference, found[0], found[1], "hub cache")
            tried.append(f"hub cache {cache}")
    return Located(reference, None, None, "not found", tuple(tried))
