"""Which releases declare which flags, over every release of the stored schemas (`table()`:
the whole data file at once): for the flag history (`flags.history`) and the rules that name
the releases a flag belongs to. Worked out from the whole table once and kept (`core.kept`, in
the schemas' store) as marshalled blobs: a run that needs them decodes those, not the
500 KB of JSON."""

from __future__ import annotations

import marshal
from functools import cache, lru_cache

from speclint.core import json_read
from speclint.sglang.flags import schema

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from speclint.sglang.flags.schema import FlagSpec


@lru_cache(maxsize=1)
def table() -> dict[str, Any]:
    """Every release's flags at once, in the format `schema`'s docstring describes: for the
    flag history, tools and tests. Parses the whole file in one go (a few ms)."""
    data = schema.flag_file()
    header, lines = data.header, data.lines
    first = 1 + len(header["versions"])
    return {
        "format": header["format"],
        "versions": header["versions"],
        "parser": header["parser"],
        "order": dict(zip(header["versions"], json_read.loads(b"[" + b",".join(lines[1:first]) + b"]"))),
        "flags": json_read.loads(b"[" + b",".join(lines[first:]) + b"]"),
    }


def _kept_blob(key: str, work_out: Callable[[], Any]) -> Any:
    """A value worked out from the whole table, kept marshalled (decoded only when asked,
    not with every run's store)."""
    kept = schema.kept_tables()
    blob = kept.get(key)
    if type(blob) is bytes:
        try:
            return marshal.loads(blob)
        except Exception:  # damaged: worked out again
            pass
    value = work_out()
    kept.put(key, marshal.dumps(value))
    return value


@lru_cache(maxsize=1)
def entry_versions() -> tuple[tuple[str, ...], ...]:
    """For each definition in the shared table, the releases it belongs to, oldest first."""
    found: tuple[tuple[str, ...], ...] = _kept_blob("entry_versions", _entry_versions)
    return found


def _entry_versions() -> tuple[tuple[str, ...], ...]:
    raw = table()
    found: list[list[str]] = [[] for _ in raw["flags"]]
    for version in raw["versions"]:
        for index in raw["order"][version]:
            found[index].append(version)
    return tuple(tuple(v) for v in found)


@lru_cache(maxsize=1)
def option_entries() -> dict[str, tuple[int, ...]]:
    """Option string -> the definitions (table indexes) that declare it in some release:
    one flag across every release without building each release's whole table."""
    entries: dict[str, tuple[int, ...]] = _kept_blob("option_entries", _option_entries)
    return entries


def _option_entries() -> dict[str, tuple[int, ...]]:
    found: dict[str, list[int]] = {}
    for index, entry in enumerate(table()["flags"]):
        for option in entry["option_strings"]:
            found.setdefault(option, []).append(index)
    return {option: tuple(indexes) for option, indexes in found.items()}


@cache
def _release_set(index: int) -> frozenset[str]:
    return frozenset(entry_versions()[index])


def spec_in(version: str, option: str) -> FlagSpec | None:
    """`option`'s definition in one release (None if that release does not know it)."""
    for index in option_entries().get(option, ()):
        if version in _release_set(index):
            return schema.spec_at(index)
    return None


@lru_cache(maxsize=4096)
def releases_of(option: str) -> tuple[str, ...]:
    """The releases whose parser knows `option` exactly, oldest first."""
    indexes = option_entries().get(option, ())
    if len(indexes) == 1:
        return entry_versions()[indexes[0]]
    rank = schema.flag_file().header["rank"]
    return tuple(sorted({v for i in indexes for v in entry_versions()[i]}, key=rank.__getitem__))


def versions_with_option(option: str) -> list[str]:
    """Every supported release whose parser knows `option` exactly."""
    return list(releases_of(option))
