"""Which files outside the linted one a lint read or looked for (model configs, safetensors
headers, Hugging Face cache refs): the cache re-checks them before trusting a stored result.

The model-config readers call `note(path)`; nothing is kept unless a caller is `recording()`.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

_noted: set[str] | None = None


def note(path: str) -> None:
    """`path` was read, or looked for (its absence matters as much as its content)."""
    if _noted is not None:
        _noted.add(path)


@contextmanager
def recording() -> Iterator[set[str]]:
    """Collect the paths noted while the block runs (one lint at a time per process)."""
    global _noted
    outer, _noted = _noted, set()
    try:
        yield _noted
    finally:
        _noted = outer
