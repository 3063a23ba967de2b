"""SGLang's classes that start a server from keyword arguments, per release, as
tools/gen_sglang_launch_classes.py read them from each release's wheel: `sglang.Runtime`
(the front-end language's backend: its keywords go to `ServerArgs`, except parameters of its
own that it keeps, `launch_timeout` from 0.5.7; `log_level` is its own too, passed on as
`log_level`) and `HttpServerEngineAdapter` (`ServerArgs(**kwargs)`, 0.4.5.post1 on).

The Python front-end reads a call of one as a keyword launch (its entry names the class:
`recognise.CLASS_ENTRIES`); `server_args_pairs` drops, for the release checked, the keywords
that release's class keeps. `data/sglang_launch_classes.json` is one JSON array, one element
per line: the header `{"format": 1, "versions": [...], "texts": N}`, one line per release
(header order) mapping class name -> index of its reading, then the N distinct readings
(format in the generator's docstring).
"""

from __future__ import annotations

import os
from functools import lru_cache

from speclint.core.records import dataclass
from speclint.sglang.linedata import LineData

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from speclint.core.words import Word

_DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "sglang_launch_classes.json")
_FILE = LineData(_DATA)
SERVER_ARGS_POSITIONAL = ("model_path",)
"""ServerArgs' first field: what the first of `*args` passed on to it sets."""


@dataclass(frozen=True, slots=True)
class ClassReading:
    """One release's launch class: what its `__init__` hands `ServerArgs`."""

    release: str
    name: str
    exported: str | None
    """The module `sglang/__init__.py` imports it from (None: not `sgl.NAME`)."""
    path: tuple[str, ...]
    """The modules followed to the class, the defining one last."""
    params: tuple[tuple[str, str | None], ...]
    """Its own parameters before `*args`, in order: (name, default source)."""
    forwarded: tuple[tuple[str, str], ...]
    """(parameter, the ServerArgs keyword it is passed as)."""
    consumed: tuple[str, ...]
    """Its own parameters that do not reach ServerArgs."""
    args: bool
    kwargs: bool
    """Whether `*args` / `**kwargs` are passed on to ServerArgs."""


def read_versions() -> tuple[str, ...]:
    """Releases whose wheel was read for launch classes, oldest first."""
    return _FILE.versions()


@lru_cache(maxsize=64)
def class_of(version: str, name: str) -> ClassReading | None:
    """Class `name` as `version` ships it; None when it has none or was not read."""
    row: dict[str, int] | None = _FILE.row(version)
    index = (row or {}).get(name)
    if index is None:
        return None
    raw: dict[str, Any] = _FILE.shared(index)
    return ClassReading(
        version,
        name,
        raw["exported"],
        tuple(raw["path"]),
        tuple((param, default) for param, default in raw["params"]),
        tuple(sorted(raw["forwarded"].items())),
        tuple(raw["consumed"]),
        raw["args"],
        raw["kwargs"],
    )


def _readings(name: str) -> list[ClassReading]:
    return [found for v in read_versions() if (found := class_of(v, name)) is not None]


@lru_cache(maxsize=4)
def newest_class(name: str) -> ClassReading | None:
    """The newest release's reading of `name`; None when no release read has it."""
    found = _readings(name)
    return found[-1] if found else None


@lru_cache(maxsize=1)
def class_names() -> dict[str, str]:
    """Dotted name -> class, for every name a release read gives a launch class:
    `sglang.Runtime` where the package exports it, and `MODULE.NAME` for each module on the
    way to the class (`sglang.lang.api.Runtime`, `sglang.srt.entrypoints.http_server_engine.
    HttpServerEngineAdapter`)."""
    names: dict[str, str] = {}
    for version in read_versions():
        for name in _FILE.row(version) or {}:
            found = class_of(version, name)
            assert found is not None
            names |= {f"{module}.{name}": name for module in found.path}
            if found.exported is not None:
                names[f"sglang.{name}"] = name
    return names


@lru_cache(maxsize=16)
def positional_bindings(name: str, index: int) -> tuple[str, ...]:
    """What the `index`th positional argument of class `name` sets across the releases read,
    sorted: one of its own parameters, or ServerArgs' `model_path` through `*args` (Runtime's
    second is `launch_timeout` from 0.5.7, `model_path` before); '' where nothing takes it (a
    TypeError)."""
    bound: set[str] = set()
    for found in _readings(name):
        if index < len(found.params):
            bound.add(found.params[index][0])
        else:
            rest = index - len(found.params)
            ok = found.args and rest < len(SERVER_ARGS_POSITIONAL)
            bound.add(SERVER_ARGS_POSITIONAL[rest] if ok else "")
    return tuple(sorted(bound))


@lru_cache(maxsize=16)
def keeping_releases(name: str, param: str) -> tuple[str, ...]:
    """The releases read whose class `name` keeps parameter `param` itself (Runtime's
    `launch_timeout`: 0.5.7 on), oldest first."""
    return tuple(found.release for found in _readings(name) if param in found.consumed)


def server_args_pairs(name: str, pairs: list[tuple[Word, Word]], version: str) -> list[tuple[Word, Word]]:
    """The (keyword, value) pairs of a launch by class `name` that reach ServerArgs in
    `version`: its own parameters that it keeps are left out, those it passes on go under the
    keyword it passes them as. A release whose class was not read (or has none) is read as the
    newest reading (`rules.class_launch` says it is unverified)."""
    reading = class_of(version, name) or newest_class(name)
    if reading is None:
        return pairs
    kept = set(reading.consumed)
    renamed = {param: keyword for param, keyword in reading.forwarded if param != keyword}
    out: list[tuple[Word, Word]] = []
    for key, value in pairs:
        if key.text in kept:
            continue
        if key.text in renamed:
            from dataclasses import replace

            key = replace(key, text=renamed[key.text])
        out.append((key, value))
    return out


@lru_cache(maxsize=4)
def releases_with(name: str) -> tuple[str, ...]:
    """The releases read that ship class `name`, oldest first."""
    return tuple(found.release for found in _readings(name))
