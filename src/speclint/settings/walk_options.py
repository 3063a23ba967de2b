"""What folder walks skip (`settings.options` holds the rest of a lint's options): made only
when a folder is walked."""

from __future__ import annotations

import fnmatch
from functools import cache

from speclint.core.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable


DEFAULT_EXCLUDE = ("node_modules", "__pycache__", "venv", ".venv", "build", "dist", "site-packages")
"""Folders no launch script lives in (hidden folders are skipped too)."""


@dataclass(frozen=True)
class WalkOptions:
    """What folder walks skip: exclude patterns and `.gitignore`."""

    exclude: tuple[str, ...] = DEFAULT_EXCLUDE
    extend_exclude: tuple[str, ...] = ()
    respect_gitignore: bool = True

    def excluded(self, relative: str, name: str) -> bool:
        """`relative`: the path from the walked root, with `/`; patterns match it, its base
        name, or (for patterns with a `/`) any trailing part of it."""
        by_name, by_path = _exclusion(self.exclude + self.extend_exclude)
        return by_name(name) is not None or by_path(relative) is not None


@cache
def _exclusion(patterns: tuple[str, ...]) -> tuple[Callable[[str], object], Callable[[str], object]]:
    """The patterns as two regular expressions, for a name and for a relative path: the
    `fnmatch.fnmatchcase` of each pattern, joined (a walk asks this of every entry)."""
    import re

    stripped = [pattern.rstrip("/") for pattern in patterns]
    on_path = stripped + ["*/" + pattern for pattern in stripped if "/" in pattern]

    def joined(globs: list[str]) -> Callable[[str], object]:
        if not globs:
            return lambda _: None
        return re.compile("|".join(f"(?:{fnmatch.translate(glob)})" for glob in globs)).match

    return joined(stripped), joined(on_path)
