"""What a drafter's name says about its kind, for when its config.json is not on disk.

Published EAGLE-3 heads are named for it (`...-eagle3-mla`, `EAGLE3-LLaMA3.1-...`,
`...-Eagle3`, `...-EAGLE-3`): a hint, never evidence. The drafter's config, when found,
always decides (models/drafter.py), and a rule reporting a name-inferred kind says so.
"""

from __future__ import annotations

from speclint.core import patterns

_EAGLE3_NAME = patterns.compile(r"(?<![a-z0-9])eagle[-_]?3(?![0-9])", patterns.IGNORECASE)


def eagle3_in_name(reference: str) -> str | None:
    """The part of the drafter's path or repo name (its last two components) that says
    EAGLE-3 (`eagle3`, `Eagle3`, `EAGLE-3`, `eagle_3`), or None."""
    tail = "/".join(reference.rstrip("/").split("/")[-2:])
    match = _EAGLE3_NAME.search(tail)
    return match.group(0) if match else None
