"""Which files outside the linted one a lint read or looked for (model configs, safetensors
headers, Hugging Face cache refs, requirements pins): the cache re-checks them before trusting
a stored result.

The readers call `note(path)` (or `note_glob` for a folder listing); nothing is kept unless a
caller is `recording()`.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Hashable
    from typing import Any, TypeVar

    T = TypeVar("T")

GLOB = "\0glob:"
"""The prefix of a noted folder listing: GLOB + folder + NUL + pattern (no path has a NUL)."""

_noted: set[str] | None = None


def note(path: str) -> None:
    """`path` was read, or looked for (its absence matters as much as its content)."""
    if _noted is not None:
        _noted.add(path)


_listed: dict[tuple[str, str], tuple[int, list[str]]] = {}
"""(folder, pattern) -> (the folder's mtime_ns before it was listed, the names matched)."""


def matching_names(folder: str, pattern: str, stamp: int | None = None) -> list[str]:
    """The names in `folder` that the glob `pattern` matches, sorted, as `glob.glob` finds them
    (hidden names only for a pattern that starts with `.`; none when `folder` cannot be
    listed): one listing, without glob's machinery (a replayed run checks every folder).
    With `stamp`, the folder's mtime_ns taken before the call: a listing made under the same
    stamp is reused (the pin reader's, recorded by the result cache's entry)."""
    if stamp is not None:
        found = _listed.get((folder, pattern))
        if found is not None and found[0] == stamp:
            return found[1]
    try:
        with os.scandir(folder) as entries:
            names = [entry.name for entry in entries]
    except OSError:
        names = []
    if not pattern.startswith("."):
        names = [name for name in names if not name.startswith(".")]
    names = sorted(glob_filter(names, pattern))
    if stamp is not None:
        if len(_listed) > 1024:
            _listed.clear()
        _listed[folder, pattern] = (stamp, names)
    return names


def glob_filter(names: list[str], pattern: str) -> list[str]:
    """`fnmatch.filter(names, pattern)`. A pattern whose only wildcard is one `*`
    (`requirements*.txt`) is a prefix and a suffix, where fnmatch compares names as they are
    (POSIX: no case folding): matched without compiling a pattern."""
    head, star, tail = pattern.partition("*")
    if star and os.path.__name__ == "posixpath" and not any(c in pattern for c in "?[") and "*" not in tail:
        least = len(head) + len(tail)
        return [
            name for name in names if len(name) >= least and name.startswith(head) and name.endswith(tail)
        ]
    import fnmatch

    return fnmatch.filter(names, pattern)


def note_glob(folder: str, pattern: str) -> None:
    """The names in `folder` matching `pattern` (a glob) were looked for."""
    if _noted is not None:
        _noted.add(f"{GLOB}{folder}\0{pattern}")


class recording:  # noqa: N801 (used as the function it was: `with recording() as noted`)
    """Collect the paths noted while the block runs (one lint at a time per process). A class,
    not `contextlib.contextmanager`: a replayed run imports this module and not contextlib."""

    def __enter__(self) -> set[str]:
        global _noted
        self.outer, _noted = _noted, set()
        return _noted

    def __exit__(self, *exc: object) -> None:
        global _noted
        _noted = self.outer


_settled: dict[Hashable, tuple[Any, tuple[str, ...]]] | None = None
"""While `settled_tree` holds: question -> (what looking at the files found, the paths noted)."""


class settled_tree:  # noqa: N801 (used as the function it was)
    """`check` without fixing: the files a lint reads beside the linted one (model configs,
    weights, requirements pins) do not change while the run lints, so what looking at them
    found is worked out once per run (`looked_up`), not once per launch (~10 `stat` calls
    each). The language server and the API never hold it: an edit between two lints counts."""

    def __enter__(self) -> None:
        global _settled
        self.outer = _settled
        if self.outer is None:
            _settled = {}

    def __exit__(self, *exc: object) -> None:
        global _settled
        _settled = self.outer


def looked_up(question: Hashable, compute: Callable[[], T]) -> T:
    """`compute()`, kept by `question` while `settled_tree` holds; the paths it noted are
    noted again on every use, so each lint's record for the result cache is complete."""
    settled = _settled
    if settled is None:
        return compute()
    found = settled.get(question)
    if found is None:
        with recording() as noted:
            computed = compute()
        found = settled[question] = (computed, tuple(sorted(noted)))
    if _noted is not None:
        _noted.update(found[1])
    value: T = found[0]  # what `compute` gave for this question
    return value
