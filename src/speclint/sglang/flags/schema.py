"""SGLang's command-line flags, per release, as its argparse parser defines them.

The data comes from `tools/gen_sglang_schema.py`, which reads each release's
`ServerArgs.add_cli_args` (every release on PyPI from 0.4.0 on). It is stored once for
all releases in `data/sglang_flags.json` (about 0.5 MB; a definition that many releases
share is stored once). The file is one JSON array with one element per line, so that a
lint run parses only the lines of the one release it checks against (a few ms) rather
than the whole file:

    [
    element 0       {"format": 2,
                     "versions": ["0.4.0", ..., "0.5.23"],        # oldest first
                     "parser": {"allow_abbrev": true, "prefix_chars": "-",
                                "facts": [{...}],                  # distinct parser facts
                                "by_version": {"0.5.23": 3}}}      # index into facts
    next V          [12, 3, ...]     # per release (header order): indices of its flags
                                     # in the definition table, in add_argument order
    then            one definition per element (index 0 first):
        {"dest": "tp_size",
         "option_strings": ["--tensor-parallel-size", "--tp-size"],
         "action": "store",        # store|store_true|store_false|store_const|append|append_const|
                                   # count|boolean_optional|help|version|deprecated|other
         "nargs": null,            # null | "?" | "*" | "+" | int
         "type": "int",            # str|int|float|bool|json|other (an unknown callable)
         "choices": null,          # list of choices after type conversion, or null
         "default": 1,
         "const": null,
         "help": "The tensor parallelism size.",
         "deprecated": null}       # null, or text saying what replaces it
    ]

`release_index.table()` returns the whole thing as one dict (`format`, `versions`, `parser`,
`order` {version: indices}, `flags` [definitions]) for the flag history, tools and tests.
"""

from __future__ import annotations

import marshal
import os
from dataclasses import field
from functools import cache, lru_cache

from speclint.core import json_read
from speclint.core.records import dataclass
from speclint.sglang.linedata import LineData

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any

    from speclint.core.kept import Kept
    from speclint.sglang.flags.spec_table import Indexes

_DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "sglang_flags.json")
_FILE = LineData(_DATA)


@dataclass(frozen=True, slots=True)
class FlagSpec:
    """One argparse action of an SGLang release's parser, as its generator read it."""

    dest: str
    option_strings: tuple[str, ...]
    action: str
    nargs: object
    type: str
    choices: tuple[object, ...] | None
    default: object
    const: object
    help: str
    deprecated: str | None
    action_class: str | None = None
    """SGLang's own Action class for custom actions (`DeprecatedStoreConstAction`)."""
    error_message: str | None = None
    """For a retired flag whose action stops the parser: the error SGLang prints."""
    required: bool = False
    env_choices: tuple[tuple[object, str, bool, tuple[str, ...], tuple[str, ...]], ...] = ()
    """Choices the parser adds only when a boolean environment variable is true (0.5.19+
    `--sampling-backend token_oracle`): (choice, variable, its default, the values read as
    true, as false), as `env_choices.refused` reads them."""

    @property
    def takes_value(self) -> bool:
        if self.action in (
            "store_true",
            "store_false",
            "store_const",
            "append_const",
            "count",
            "help",
            "version",
        ):
            return False
        if self.action == "boolean_optional":
            return False
        return self.nargs != 0

    @property
    def canonical(self) -> str:
        """The name SGLang documents: its first `--` option string (aliases come after)."""
        for option in self.option_strings:
            if option.startswith("--"):
                return option
        return self.option_strings[0]


@dataclass(frozen=True, slots=True)
class FlagSchema:
    """The flags of one SGLang release, in argparse order."""

    version: str
    flags: Sequence[FlagSpec]
    """A tuple, or a `spec_table.SpecList` (`load_schema`: each FlagSpec made when read)."""
    by_option: Mapping[str, FlagSpec]
    by_dest: Mapping[str, FlagSpec]
    allow_abbrev: bool = True
    exact_only: frozenset[str] = frozenset()
    """Option strings matched only when written whole, never as an abbreviation's target (the
    router options of sglang-router releases older than the newest: `speclint.sglang.router`)."""
    sorted_options: tuple[str, ...] = field(init=False, default=())
    """Every option string that an abbreviation may stand for, sorted: prefix lookups bisect
    it instead of scanning all flags."""
    option_rank: dict[str, int] = field(init=False, default_factory=dict)
    """Option string -> its position in `by_option` (argparse reports matches in that order)."""
    required: tuple[FlagSpec, ...] = field(init=False, default=())
    long_options: tuple[str, ...] = field(init=False, default=())
    """The `--` option strings, sorted ("did you mean" compares a typo with these)."""

    def __post_init__(self) -> None:
        from speclint.sglang.flags.spec_table import SpecList, SpecsByKey

        by_option = self.by_option
        if type(by_option) is SpecsByKey and by_option.orders is not None and not self.exact_only:
            every, rank, long_options = by_option.orders  # (`load_schema`: read with the release)
            object.__setattr__(self, "sorted_options", every)
            object.__setattr__(self, "option_rank", rank)
            object.__setattr__(self, "long_options", long_options)
        else:
            every = tuple(sorted(by_option))
            abbreviable = tuple(o for o in every if o not in self.exact_only) if self.exact_only else every
            object.__setattr__(self, "sorted_options", abbreviable)
            object.__setattr__(self, "option_rank", {option: rank for rank, option in enumerate(by_option)})
            object.__setattr__(self, "long_options", tuple(o for o in every if o.startswith("--")))
        flags = self.flags
        required = flags.required() if type(flags) is SpecList else tuple(s for s in flags if s.required)
        object.__setattr__(self, "required", required)


def _order(version: str) -> list[int]:
    order: list[int] = json_read.loads(_FILE.line(1 + _FILE.header["rank"][version]))
    return order


_RAW: dict[int, dict[str, Any]] = {}
"""Definitions of the shared table decoded so far, by index."""


def raw_entry(index: int) -> dict[str, Any]:
    """One definition of the shared table, as stored."""
    entry = _RAW.get(index)
    if entry is None:
        entry = _RAW[index] = _FILE.shared(index)
    return entry


def _decode_entries(indexes: list[int]) -> None:
    """Decode many definitions in one `json.loads` (a release's 500 one by one cost 5x more)."""
    missing = [index for index in indexes if index not in _RAW]
    if missing:
        line, first = _FILE.line, 1 + len(_FILE.header["versions"])
        decoded = json_read.loads(b"[" + b",".join(line(first + index) for index in missing) + b"]")
        _RAW.update(zip(missing, decoded))


_VERSIONS: list[tuple[str, ...]] = []
"""`supported_versions`, once read (a version is chosen for every launch)."""


def supported_versions() -> tuple[str, ...]:
    """Releases with a schema, oldest first."""
    if _VERSIONS:
        return _VERSIONS[0]
    kept = _kept()
    versions = kept.get("versions")
    if type(versions) is not tuple:
        versions = tuple(_FILE.header["versions"])
        kept.put("versions", versions)
    _VERSIONS.append(versions)
    return versions


def kept_tables() -> Kept:
    """The schemas' kept store (`_kept`): `release_index` keeps its values there too."""
    return _kept()


def flag_file() -> LineData:
    """The stored schemas' data file (`release_index` reads it whole)."""
    return _FILE


def newest_version() -> str:
    return (_VERSIONS[0] if _VERSIONS else supported_versions())[-1]


def _fields(entry: dict[str, Any]) -> tuple[Any, ...]:
    """A stored definition as FlagSpec's fields, in order."""
    choices = entry.get("choices")
    return (
        entry["dest"],
        tuple(entry["option_strings"]),
        entry["action"],
        entry.get("nargs"),
        entry.get("type") or "str",
        tuple(choices) if choices is not None else None,
        entry.get("default"),
        entry.get("const_value", entry.get("const")),
        entry.get("help") or "",
        entry.get("deprecated"),
        entry.get("action_class"),
        entry.get("error_message"),
        bool(entry.get("required", False)),
        tuple(
            (
                c["choice"],
                c["env"]["name"],
                c["env"]["default"],
                tuple(c["env"]["true"]),
                tuple(c["env"]["false"]),
            )
            for c in entry.get("env_choices") or ()
        ),
    )


def spec_from_entry(entry: dict[str, Any], dest_prefix: str = "") -> FlagSpec:
    """A definition in the stored format as a FlagSpec, its dest prefixed (the options a
    benchmark script adds beside SGLang's: `speclint.sglang.bench`)."""
    fields = _fields(entry)
    return FlagSpec(dest_prefix + fields[0], *fields[1:])


@lru_cache(maxsize=1)
def _kept() -> Kept:
    """Releases' tables as decoded before, tied to this data file (`core.kept`): a cold run
    reads one release's 500 definitions without reading or decoding the 500 KB of JSON."""
    from speclint.core.kept import Kept

    try:
        info = os.stat(_DATA)
        source: tuple[int, ...] = (4, info.st_size, info.st_mtime_ns)
    except OSError:
        source = (4,)
    return Kept(os.path.dirname(os.path.abspath(__file__)), "flag_tables", source)


_KEPT_FIELDS: dict[int, bytes] = {}
"""FlagSpec fields (marshalled) by table index, from the kept table of a release read this run
(`_release`): a spec's fields are decoded when it is made."""


@cache
def spec_at(index: int) -> FlagSpec:
    """The FlagSpec of one definition of the shared table (shared by every release that has it)."""
    blob = _KEPT_FIELDS.get(index)
    if blob is not None:
        try:
            fields = marshal.loads(blob)
        except Exception:  # damaged: read from the data file
            fields = None
        if type(fields) is tuple and len(fields) == 14:
            return FlagSpec(*fields)
    return FlagSpec(*_fields(raw_entry(index)))


def _whole(known: Any) -> bool:
    """Whether a kept release has the shape `_release` keeps."""
    return (
        type(known) is tuple
        and len(known) == 5
        and type(known[3]) is tuple
        and type(known[4]) is bytes
        and len(known[3]) == len(known[0])
    )


def _kept_order(version: str) -> list[int] | None:
    """`version`'s table indexes when its release is kept (its specs' fields then known to
    `spec_at`), else None."""
    known = _kept().get(("release", version))
    if not _whole(known):
        return None
    order: list[int] = known[0]
    _KEPT_FIELDS.update(zip(order, known[3]))
    return order


def _release(version: str) -> tuple[list[int], bool, bool, Indexes]:
    """(the table indexes of `version`'s flags in argparse order, allow_abbrev, add_help, its
    `Indexes`). Kept with each definition's fields marshalled apart: the store holds every
    release read before, a run decodes its release's indexes and the fields of the flags it
    looks up."""
    kept = _kept()
    known = kept.get(("release", version))
    if _whole(known):
        try:
            indexes = marshal.loads(known[4])
        except Exception:  # damaged: worked out again
            indexes = None
        if type(indexes) is tuple and len(indexes) == 6 and len(known[3]) == len(known[0]):
            _KEPT_FIELDS.update(zip(known[0], known[3]))
            return known[0], known[1], known[2], indexes
    header = _FILE.header
    if version not in header["rank"]:
        raise KeyError(version)
    parser = header["parser"]
    facts = parser["facts"][parser["by_version"][version]]
    order = _order(version)
    allow_abbrev = bool(facts.get("allow_abbrev", parser.get("allow_abbrev", True)))
    add_help = bool(facts.get("add_help", True))
    _decode_entries(order)
    fields = tuple(_fields(raw_entry(index)) for index in order)
    blobs = tuple(marshal.dumps(one) for one in fields)
    _KEPT_FIELDS.update(zip(order, blobs))
    from speclint.sglang.flags.spec_table import indexes_of

    indexes = indexes_of(order, fields, add_help)
    kept.put(("release", version), (order, allow_abbrev, add_help, blobs, marshal.dumps(indexes)))
    return order, allow_abbrev, add_help, indexes


@cache
def options_of(version: str) -> dict[str, FlagSpec]:
    """Option string -> FlagSpec of one release, without building a whole FlagSchema
    (the flag history looks at every release)."""
    order = _kept_order(version)
    if order is not None:  # the release's table kept: its specs without the JSON
        specs = [spec_at(index) for index in order]
        return {option: spec for spec in specs for option in spec.option_strings}
    order = _order(version)
    _decode_entries(order)
    return {option: spec_at(index) for index in order for option in raw_entry(index)["option_strings"]}


HELP_SPEC = FlagSpec(
    "help", ("-h", "--help"), "help", 0, "str", None, None, None, "show this help message and exit", None
)
"""argparse's own `-h/--help` (SGLang's parser keeps `add_help`, read per release by the
generator): it prints the help and exits 0 while the flags are consumed."""


def _spec_or_help(index: int) -> FlagSpec:
    """The FlagSpec at a table index (-1: argparse's own `-h/--help`)."""
    return spec_at(index) if index >= 0 else HELP_SPEC


@lru_cache(maxsize=8)
def load_schema(version: str) -> FlagSchema:
    """`version`'s flags; each FlagSpec is made when first looked up (`spec_table`)."""
    from speclint.sglang.flags.spec_table import SpecList, SpecsByKey

    order, allow_abbrev, add_help, indexes = _release(version)
    by_option, by_dest, required, every, rank, long_options = indexes
    return FlagSchema(
        version,
        SpecList(order, spec_at, required),
        SpecsByKey(by_option, _spec_or_help, (every, rank, long_options)),
        SpecsByKey(by_dest, spec_at),
        allow_abbrev=allow_abbrev,
    )


def parser_facts(version: str) -> dict[str, Any]:
    """What tools/gen_sglang_schema.py read about `version`'s parser and entry points
    (empty when it read none)."""
    parser = _FILE.header["parser"]
    index = parser["by_version"].get(version)
    facts: dict[str, Any] = parser["facts"][index] if index is not None else {}
    return facts
