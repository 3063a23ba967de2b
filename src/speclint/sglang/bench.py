"""SGLang's benchmark scripts that start an engine or a server from SGLang's flags: `python -m
sglang.bench_one_batch`, `sglang.bench_offline_throughput`, `sglang.bench_one_batch_server`
(and their homes since 0.5.14/0.5.15, `sglang.benchmark.one_batch`, ...), per release, as
tools/gen_sglang_bench.py read them from each release's wheel: each builds its own
`argparse.ArgumentParser()`, adds `ServerArgs.add_cli_args(parser)` then its `BenchArgs`
options, and calls `parser.parse_args()`.

The launch is checked as SGLang's (its ServerArgs come from the same command line), with the
script's own options added to the parser as that release's script adds them (their dests
prefixed: they never reach ServerArgs). A release that was not read takes the reading of the
closest older release that was ("unverified for SGLang X"); a release read that lacks the
module (`sglang.bench_one_batch` is gone from 0.5.21) takes the nearest release that has it,
and FLG009 says the module is missing.

`data/sglang_bench.json` is one JSON array, one element per line: the header `{"format": 1,
"versions": [...], "texts": N}`, one line per release (header order) mapping module -> index
of its reading, then the N distinct readings (format in the generator's docstring).
"""

from __future__ import annotations

import os
from functools import lru_cache

from speclint.sglang.flags.own_dests import BENCH_DEST_PREFIX
from speclint.sglang.linedata import LineData

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from speclint.sglang.flags.schema import FlagSchema, FlagSpec

_DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "sglang_bench.json")
_FILE = LineData(_DATA)


def bench_versions() -> tuple[str, ...]:
    """The releases whose wheel was read for benchmark scripts, oldest first."""
    return _FILE.versions()


@lru_cache(maxsize=64)
def reading(version: str, module: str) -> dict[str, Any] | None:
    """`module`'s parser as `version` ships it; None when the release lacks it or was not read."""
    row: dict[str, int] | None = _FILE.row(version)
    index = (row or {}).get(module)
    if index is None:
        return None
    found: dict[str, Any] = _FILE.shared(index)
    return found


@lru_cache(maxsize=16)
def releases_with(module: str) -> tuple[str, ...]:
    """The releases read that ship `module`, oldest first."""
    return tuple(v for v in bench_versions() if module in (_FILE.row(v) or {}))


def _rank(version: str) -> tuple[int, ...]:
    main, _, post = version.partition(".post")
    return (*(int(p) for p in main.split(".") if p.isdigit()), int(post) if post.isdigit() else -1)


def reading_for(version: str, module: str) -> tuple[str, dict[str, Any]] | None:
    """(the release whose reading stands, the reading) for a launch of `module` checked
    against `version`: its own when read and shipped; else the closest older release that
    has it, or the oldest when none older does. None when no release read has it."""
    having = releases_with(module)
    if not having:
        return None
    if version in having:
        found = reading(version, module)
        assert found is not None
        return version, found
    older = [v for v in having if _rank(v) <= _rank(version)]
    chosen = older[-1] if older else having[0]
    found = reading(chosen, module)
    assert found is not None
    return chosen, found


def unverified(version: str, module: str) -> str | None:
    """Why a launch of `module` checked against `version` is unverified; None when it is not
    (its release was read: its script, or none)."""
    if version in bench_versions():
        return None
    stands = reading_for(version, module)
    read_as = f"; read as SGLang {stands[0]}'s script parses them" if stands else ""
    return f"unverified for SGLang {version}: its {module} was not read{read_as}"


def is_bench_option(spec: FlagSpec | None) -> bool:
    return spec is not None and spec.dest.startswith(BENCH_DEST_PREFIX)


def own_options(version: str, module: str) -> dict[str, FlagSpec]:
    """Option string -> the script's own option, as the reading standing for `version` has it."""
    from speclint.sglang.flags.schema import spec_from_entry

    stands = reading_for(version, module)
    if stands is None:
        return {}
    specs = [spec_from_entry(entry, BENCH_DEST_PREFIX) for entry in stands[1]["options"]]
    return {option: spec for spec in specs for option in spec.option_strings}


@lru_cache(maxsize=32)
def option_releases(module: str, option: str) -> tuple[str, ...]:
    """The releases read whose `module` has `option` among its own options."""
    out = []
    for version in releases_with(module):
        found = reading(version, module)
        if found and any(option in entry["option_strings"] for entry in found["options"]):
            out.append(version)
    return tuple(out)


_SCHEMAS: dict[tuple[str, str], tuple[FlagSchema, FlagSchema]] = {}
"""(release, module) -> (SGLang's schema it was built from, the script's): reused only for
that very schema."""


def bench_schema(schema: FlagSchema, module: str) -> FlagSchema:
    """The script's parser: a fresh `ArgumentParser(...)` (its own `allow_abbrev` and
    `add_help`), its options before `ServerArgs.add_cli_args` (none so far), SGLang's flags,
    then its own (an option SGLang has keeps SGLang's definition)."""
    from speclint.sglang.flags.schema import HELP_SPEC, FlagSchema, spec_from_entry

    key = (schema.version, module)
    known = _SCHEMAS.get(key)
    if known is not None and known[0] is schema:
        return known[1]
    stands = reading_for(schema.version, module)
    if stands is None:
        return schema
    read = stands[1]
    specs = [spec_from_entry(entry, BENCH_DEST_PREFIX) for entry in read["options"]]
    server = [spec for spec in schema.flags if spec is not HELP_SPEC]
    flags = (*specs[: read["server_at"]], *server, *specs[read["server_at"] :])
    by_option: dict[str, FlagSpec] = {}
    if read["parser"]["add_help"]:
        by_option = {"-h": HELP_SPEC, "--help": HELP_SPEC}
    for spec in flags:
        for option in spec.option_strings:
            if option not in by_option or spec in server:
                by_option[option] = spec
    by_dest = dict(schema.by_dest)
    for spec in specs:
        by_dest.setdefault(spec.dest, spec)
    made = FlagSchema(schema.version, flags, by_option, by_dest, read["parser"]["allow_abbrev"])
    _SCHEMAS[key] = (schema, made)
    return made
