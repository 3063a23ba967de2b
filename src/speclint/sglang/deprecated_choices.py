"""Values of a server flag a release still accepts but calls deprecated, with the value its
warning names instead (`--tool-call-parser qwen25` -> `qwen`), read from each release's own
source by tools/gen_sglang_deprecated_choices.py into `data/sglang_deprecated_choices.json`."""

from __future__ import annotations

import os
from functools import lru_cache

from speclint.sglang.linedata import LineData

_FILE = LineData(
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "sglang_deprecated_choices.json")
)


@lru_cache(maxsize=32)
def deprecated_choices(version: str) -> dict[str, dict[str, str]] | None:
    """field -> {deprecated value: the value SGLang's warning names}; None when the release
    was not read (not stored)."""
    row = _FILE.row(version)
    if not isinstance(row, dict) or "deprecated_choices" not in row:
        return None
    found: dict[str, dict[str, str]] = _FILE.shared(row["deprecated_choices"])
    return found


def fields() -> frozenset[str]:
    """Every field some release has a deprecated value of (the rule's gates)."""
    return frozenset(field for version in _FILE.versions() for field in deprecated_choices(version) or {})
