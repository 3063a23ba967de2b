"""SGLang's command-line flags, per release, as its argparse parser defines them.

The data comes from `tools/gen_sglang_schema.py`, which reads each release's
`ServerArgs.add_cli_args`. It is stored once for all versions
(`data/sglang_flags.json`):

    {
      "format": 1,
      "versions": ["0.4.10.post2", ...],          # oldest first
      "parser": {"allow_abbrev": true, "prefix_chars": "-"},
      "flags": [                                   # one entry per distinct definition
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
         "deprecated": null,       # null, or text saying what replaces it
         "versions": ["0.4.10.post2", "0.5.6.post2", "0.5.14", "0.5.23"]}
      ],
      "order": {"0.5.23": [12, 3, ...]}            # indices into flags, in add_argument order
    }
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from functools import lru_cache

_DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "sglang_flags.json")


@dataclass(frozen=True, slots=True)
class FlagSpec:
    dest: str
    option_strings: tuple[str, ...]
    action: str
    nargs: object
    type: str
    choices: tuple | None
    default: object
    const: object
    help: str
    deprecated: str | None
    action_class: str | None = None
    """SGLang's own Action class for custom actions (`DeprecatedStoreConstAction`)."""
    error_message: str | None = None
    """For a retired flag whose action stops the parser: the error SGLang prints."""
    required: bool = False

    @property
    def takes_value(self) -> bool:
        if self.action in ("store_true", "store_false", "store_const", "append_const",
                           "count", "help", "version"):
            return False
        if self.action == "boolean_optional":
            return False
        return self.nargs != 0

    @property
    def canonical(self) -> str:
        """The name SGLang documents: its longest `--` option string that is not an alias."""
        longs = [o for o in self.option_strings if o.startswith("--")]
        return longs[0] if longs else self.option_strings[0]


@dataclass(frozen=True, slots=True)
class FlagSchema:
    """The flags of one SGLang release, in argparse order."""

    version: str
    flags: tuple[FlagSpec, ...]
    by_option: dict[str, FlagSpec]
    by_dest: dict[str, FlagSpec]
    allow_abbrev: bool = True


@lru_cache(maxsize=1)
def _raw() -> dict:
    with open(_DATA, "rb") as handle:  # importlib.resources costs 10 ms of imports
        return json.load(handle)


def supported_versions() -> tuple[str, ...]:
    """Releases with a schema, oldest first."""
    return tuple(_raw()["versions"])


def newest_version() -> str:
    return supported_versions()[-1]


@lru_cache(maxsize=8)
def load_schema(version: str) -> FlagSchema:
    raw = _raw()
    if version not in raw["versions"]:
        raise KeyError(version)
    specs = []
    for index in raw["order"][version]:
        entry = raw["flags"][index]
        choices = entry.get("choices")
        specs.append(FlagSpec(
            dest=entry["dest"],
            option_strings=tuple(entry["option_strings"]),
            action=entry["action"],
            nargs=entry.get("nargs"),
            type=entry.get("type") or "str",
            choices=tuple(choices) if choices is not None else None,
            default=entry.get("default"),
            const=entry.get("const_value", entry.get("const")),
            help=entry.get("help") or "",
            deprecated=entry.get("deprecated"),
            action_class=entry.get("action_class"),
            error_message=entry.get("error_message"),
            required=bool(entry.get("required", False)),
        ))
    by_option: dict[str, FlagSpec] = {}
    for spec in specs:
        for option in spec.option_strings:
            by_option[option] = spec
    by_dest: dict[str, FlagSpec] = {}
    for spec in specs:
        by_dest.setdefault(spec.dest, spec)
    parser = raw.get("parser", {})
    return FlagSchema(version, tuple(specs), by_option, by_dest,
                      allow_abbrev=parser.get("allow_abbrev", True))


def versions_with_option(option: str) -> list[str]:
    """Every supported release whose parser knows `option` exactly."""
    found = []
    for entry in _raw()["flags"]:
        if option in entry["option_strings"]:
            found.extend(entry["versions"])
    order = supported_versions()
    return sorted(set(found), key=order.index)
