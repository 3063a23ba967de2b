"""sglang-router's co-launcher, `python -m sglang_router.launch_server`: the options its parser
adds besides SGLang's, per sglang-router release, as tools/gen_sglang_router.py read them from
each release's `sglang_router/launch_server.py` (`RouterArgs.add_cli_args(parser,
use_router_prefix=True, exclude_host_port=True)` and its own `--router-dp-worker-base-port`).

Its workers get SGLang's `ServerArgs` from the same command line (`ServerArgs.add_cli_args`
on the same parser): the launch is checked as SGLang's, with these options added to the
parser. Which sglang-router release runs with which SGLang release is not known: the options
are those of every stored release, each with the arity of the newest release that has it,
and `router_presence` says which releases lack one (a note, never an error).

Each data-parallel worker is started from a copy of the parsed `ServerArgs` with fields set by
the co-launcher (`worker_sets`: `dp_size = 1` among them), and the SGLang release decides
whether that copy is resolved in the worker ("worker": resolution sees the co-launcher's
values) or was resolved already when the co-launcher built it ("parent": resolution saw the
values written; the worker's `check_server_args()` sees the copy's): `sglang_resolution`.

`data/sglang_router.json` is one JSON array, one element per line: the header `{"format": 1,
"versions": [...], "worker_sets": [[field, value source], ...], "sglang_resolution": {SGLang
release: "worker" | "parent"}, "refusals": {release: [[[[option, truthy], ...], exception,
message], ...]}, ...}`, then one line per release (header order, oldest first), its options
in add_argument order, each `[option_strings, action, nargs, type, choices]`.
"""

from __future__ import annotations

import os
from functools import lru_cache

from speclint.sglang.flags.own_dests import ROUTER_DEST_PREFIX
from speclint.sglang.linedata import LineData

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.flags.schema import FlagSchema, FlagSpec

_DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "sglang_router.json")
_FILE = LineData(_DATA)


def router_versions() -> tuple[str, ...]:
    """The sglang-router releases read, oldest first."""
    return _FILE.versions()


def worker_sets() -> tuple[tuple[str, str], ...]:
    """`(field, value source)` the co-launcher's `launch_server_process` assigns on each
    worker's copy of ServerArgs, in order (the same in every sglang-router release read)."""
    return tuple((field, source) for field, source in _FILE.header["worker_sets"])


def sglang_resolution(version: str) -> str | None:
    """Where SGLang `version` resolves a co-launched worker's ServerArgs: "worker" (after the
    co-launcher's assignments), "parent" (before them), None when not read for it."""
    found: str | None = _FILE.header["sglang_resolution"].get(version)
    return found


class _Option:
    """One router option over the releases that have it."""

    __slots__ = ("action", "choices", "nargs", "releases", "types")

    def __init__(self) -> None:
        self.action = "store"
        self.nargs: object = None
        self.releases: tuple[str, ...] = ()
        self.types: dict[str, str] = {}
        """Release -> argparse `type` ("int", "float", "str", "other")."""
        self.choices: dict[str, tuple[object, ...] | None] = {}
        """Release -> its literal `choices` (None: any value, or choices not read)."""


Refusal = tuple[tuple[tuple[str, bool], ...], str, str]
"""(conditions: (option, truthy) each, exception, message) of one check the router makes."""


@lru_cache(maxsize=1)
def router_refusals() -> dict[Refusal, tuple[str, ...]]:
    """Each check the router's Python code makes on its arguments when the co-launcher starts
    it (`raise ValueError(...)` in `launch_router` / `_validate_router_args`, read by
    tools/sglang_router_refusals.py) -> the releases that make it."""
    found: dict[Refusal, tuple[str, ...]] = {}
    stored = _FILE.header["refusals"]
    for version in router_versions():
        for conditions, exception, message in stored.get(version, ()):
            key = (tuple((str(o), bool(t)) for o, t in conditions), str(exception), str(message))
            found[key] = (*found.get(key, ()), version)
    return found


@lru_cache(maxsize=1)
def _options() -> dict[str, _Option]:
    """Option string -> its readings, the arity the newest release that has it gives."""
    found: dict[str, _Option] = {}
    for version in router_versions():
        for strings, action, nargs, kind, choices in _FILE.row(version):
            for option in strings:
                known = found.setdefault(option, _Option())
                known.action, known.nargs = action, nargs
                known.releases = (*known.releases, version)
                known.types[version] = kind
                known.choices[version] = tuple(choices) if choices is not None else None
    return found


def router_presence(option: str) -> tuple[str, ...]:
    """The stored sglang-router releases whose co-launcher has `option` (empty: none)."""
    known = _options().get(option)
    return known.releases if known else ()


def router_refusing(option: str, value: object) -> tuple[str, ...]:
    """The releases having `option` whose parser refuses `value` (as argparse converted it
    with the type they share): outside their literal `choices`."""
    known = _options().get(option)
    if known is None:
        return ()
    return tuple(v for v in known.releases if (c := known.choices[v]) is not None and value not in c)


def router_spec(option: str) -> FlagSpec:
    """The router's option as a flag of the launch's parser. Its type is the one every
    release having it gives (else "other": not converted); its choices the union of theirs
    when each has literal choices (a value none accepts is refused whichever release runs;
    `router_refusing` says which releases refuse one), else none checked."""
    from speclint.sglang.flags.schema import FlagSpec

    known = _options()[option]
    kinds = set(known.types.values())
    kind = kinds.pop() if len(kinds) == 1 else "other"
    choices: tuple[object, ...] | None = None
    if all(c is not None for c in known.choices.values()):
        union: dict[object, None] = {}
        for each in known.choices.values():
            union.update(dict.fromkeys(each or ()))
        choices = tuple(union)
    default = False if known.action == "store_true" else None
    help_text = (
        f"an option of sglang-router's `python -m sglang_router.launch_server` (its parser's {option})"
    )
    return FlagSpec(
        ROUTER_DEST_PREFIX + option,
        (option,),
        known.action,
        known.nargs,
        kind,
        choices,
        default,
        None,
        help_text,
        None,
    )


def is_router_option(spec: FlagSpec | None) -> bool:
    return spec is not None and spec.dest.startswith(ROUTER_DEST_PREFIX)


_SCHEMAS: dict[str, tuple[FlagSchema, FlagSchema]] = {}
"""Release -> (SGLang's schema it was built from, the router's): reused only for that very
schema, so a schema built again (its FlagSpecs new objects) never meets stale ones."""


def router_schema(schema: FlagSchema) -> FlagSchema:
    """SGLang's parser with the router's options added after its own, as launch_server builds
    it (an option SGLang has keeps SGLang's definition: argparse would refuse the clash). An
    abbreviation stands for an option of the newest router release only, as its parser reads
    it; an option only older releases have is known when written whole."""
    from speclint.sglang.flags.schema import FlagSchema

    known = _SCHEMAS.get(schema.version)
    if known is not None and known[0] is schema:
        return known[1]
    added = [router_spec(option) for option in _options() if option not in schema.by_option]
    by_option = dict(schema.by_option)
    by_dest = dict(schema.by_dest)
    for spec in added:
        by_option[spec.option_strings[0]] = spec
        by_dest[spec.dest] = spec
    newest = router_versions()[-1]
    older = frozenset(
        s.option_strings[0] for s in added if newest not in router_presence(s.option_strings[0])
    )
    flags = (*schema.flags, *added)
    made = FlagSchema(
        schema.version, flags, by_option, by_dest, schema.allow_abbrev, older | schema.exact_only
    )
    _SCHEMAS[schema.version] = (schema, made)
    return made
