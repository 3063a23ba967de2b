"""SGLang's launch test helpers (`sglang.test.test_utils.popen_launch_server`,
`popen_launch_pd_server`, and the benchmark helpers `run_bench_one_batch`,
`run_bench_offline_throughput` that run one of SGLang's modules with the caller's server
flags), per release, as tools/gen_sglang_helpers.py read them from each release's wheel: the
command a plain call builds (`python3 -m sglang.launch_server --model-path MODEL *[str(x) for
x in other_args]`, then `--host`/`--port`, ...; `python3 -m sglang.benchmark.one_batch
--batch-size 1 ... *other_args`, then `--model-path MODEL` when MODEL is not None).

The Python front-end reads a call to such a helper with the reading of the newest release
that has it (`newest_helper`), as it reads fixture bases. `data/sglang_helpers.json` is one
JSON array, one element per line: the header `{"format": 1, "versions": [...], "texts": N}`,
one line per release (header order) mapping helper name -> index of its reading, then the N
distinct readings (format in the generator's docstring).
"""

from __future__ import annotations

import os
from functools import lru_cache

from speclint.core.records import dataclass
from speclint.sglang.linedata import LineData

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "sglang_helpers.json")
_FILE = LineData(_DATA)
MODULE = "sglang.test.test_utils"
"""The module that defines the helpers."""


@dataclass(frozen=True, slots=True)
class HelperWord:
    """One word of the command: a literal (`text`), a parameter's value (`param`), the
    parameter's items spliced in (`splat`, each through str() when `str_items`), or a value
    computed at run time (`unknown`, its source)."""

    text: str | None = None
    param: str | None = None
    splat: str | None = None
    str_items: bool = False
    unknown: str | None = None


@dataclass(frozen=True, slots=True)
class HelperReading:
    """What one release's helper builds for a plain call."""

    release: str
    name: str
    params: tuple[str, ...]
    """Parameter names in order (a positional argument's index is its position here)."""
    command: tuple[HelperWord, ...]
    command_decided_by: tuple[tuple[str, str], ...]
    """(parameter, default source) whose default chose the branch that builds `command`
    (`pd_separated`: a call passing True builds `sglang.launch_pd_server`)."""
    appended: tuple[tuple[tuple[str, ...], tuple[HelperWord, ...]], ...]
    """(conditions, words) added after the list; conditions are source text (empty: always)."""
    other_args_appended: tuple[tuple[tuple[str, ...], tuple[HelperWord, ...]], ...]
    """(conditions, words) added to other_args before the list is built."""

    def position(self, param: str) -> int | None:
        return self.params.index(param) if param in self.params else None

    def given_after(self) -> tuple[tuple[tuple[str, ...], str], ...]:
        """(literal words, parameter) the helper adds after the list when the caller passes
        the parameter not None (`if model is not None: command += ["--model-path", model]`)."""
        found: list[tuple[tuple[str, ...], str]] = []
        for when, words in self.appended:
            last = words[-1].param if words else None
            texts = tuple(w.text for w in words[:-1] if w.text is not None)
            if last is not None and when == (f"{last} is not None",) and len(texts) == len(words) - 1:
                found.append((texts, last))
        return tuple(found)

    def entry(self) -> tuple[str, ...]:
        """The literal words the command starts with, up to its first `-m` module or `sglang`
        subcommand (`python3 -m sglang.benchmark.one_batch`)."""
        texts: list[str] = []
        for word in self.command:
            if word.text is None:
                break
            texts.append(word.text)
            if len(texts) > 1 and texts[-2] in ("-m", "sglang"):
                break
        return tuple(texts)


def read_versions() -> tuple[str, ...]:
    """Releases whose wheel was read for helpers, oldest first."""
    return _FILE.versions()


def helpers_of(version: str) -> dict[str, int] | None:
    """Helper name -> reading index for `version`; None when its wheel was not read."""
    row: dict[str, int] | None = _FILE.row(version)
    return row


def _word(raw: dict[str, Any]) -> HelperWord:
    return HelperWord(
        raw.get("text"), raw.get("param"), raw.get("splat"), bool(raw.get("str")), raw.get("unknown")
    )


def _added(raw: list[dict[str, Any]]) -> tuple[tuple[tuple[str, ...], tuple[HelperWord, ...]], ...]:
    return tuple((tuple(e["when"]), tuple(_word(w) for w in e["words"])) for e in raw)


@lru_cache(maxsize=32)
def reading(version: str, name: str) -> HelperReading | None:
    """`name` as `version` ships it; None when it has none (or was not read)."""
    index = (helpers_of(version) or {}).get(name)
    if index is None:
        return None
    raw: dict[str, Any] = _FILE.shared(index)
    if "forwards" in raw:  # (`forwarding`)
        return None
    return HelperReading(
        version,
        name,
        tuple(raw["params"]),
        tuple(_word(w) for w in raw["command"]),
        tuple((p, raw["defaults"][p]) for p in raw["command_decided_by"]),
        _added(raw["appended"]),
        _added(raw["other_args_appended"]),
    )


def is_helper(name: str) -> bool:
    """Whether a release read has a launch or forwarding helper named `name`."""
    return any(name in (helpers_of(version) or {}) for version in read_versions())


def same_entry(version: str, name: str, release: str) -> bool | None:
    """Whether `version`'s helper `name` starts the same command as `release`'s (the module
    it runs: `sglang.bench_one_batch` before 0.5.15); None when `version`'s wheel was not
    read; False when it has no such helper."""
    if helpers_of(version) is None:
        return None
    found, read = reading(version, name), reading(release, name)
    return found is not None and read is not None and found.entry() == read.entry()


@lru_cache(maxsize=8)
def newest_helper(name: str) -> HelperReading | None:
    """The newest release's reading of helper `name`; None when no release read has it."""
    for version in reversed(read_versions()):
        found = reading(version, name)
        if found is not None:
            return found
    return None


@dataclass(frozen=True, slots=True)
class Forwarding:
    """A helper that launches the server through a launch helper (`run_bench_serving(model,
    ..., other_server_args)` calls `popen_launch_server(model, ..., other_args=
    other_server_args)`): `passes` maps the launch helper's parameter -> this helper's
    parameter it is passed unchanged, or None (a value computed in the helper)."""

    release: str
    name: str
    forwards: str
    params: tuple[str, ...]
    passes: tuple[tuple[str, str | None], ...]

    def position(self, param: str) -> int | None:
        return self.params.index(param) if param in self.params else None


@lru_cache(maxsize=8)
def newest_forwarding(name: str) -> Forwarding | None:
    """The newest release's reading of the forwarding helper `name`; None when no release
    read has one of that name (or it is a launch helper)."""
    for version in reversed(read_versions()):
        index = (helpers_of(version) or {}).get(name)
        if index is None:
            continue
        raw: dict[str, Any] = _FILE.shared(index)
        if "forwards" not in raw:
            return None
        passes = tuple((inner, given.get("param")) for inner, given in raw["passes"].items())
        return Forwarding(version, name, raw["forwards"], tuple(raw["params"]), passes)
    return None
