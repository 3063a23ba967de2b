"""The launch configuration argparse hands to SGLang: one value per field, with where it came from.

Keyed by SGLang's own field names (`speculative_num_draft_tokens`). This is the plain,
fast form the rules read; `speclint.sglang.flags.launch_model` turns it into a typed
pydantic model for the Python API and JSON output.
"""

from __future__ import annotations

from speclint.core.spans import dataclass  # (a value record: see there)
from speclint.frontends.recognise import BENCH_ENTRIES, CLASS_ENTRIES, DYNAMO_ENTRY, ROUTER_ENTRY
from speclint.sglang.flags.argv import parse_argv
from speclint.sglang.flags.entry import prepare_argv
from speclint.sglang.flags.schema import load_schema
from speclint.sglang.flags.spec_table import SpecsByKey

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Container, Iterable, Mapping

    from speclint.core.launches import Launch
    from speclint.core.spans import Span
    from speclint.core.words import Word
    from speclint.sglang.flags.argv import FlagUse, ParsedArgs
    from speclint.sglang.flags.schema import FlagSchema

_ACCUMULATING = ("append", "append_const", "count")


@dataclass(slots=True)
class Setting:
    """The value one server-args field gets from the command line, and the flags that set it."""

    dest: str
    value: object
    uses: tuple[FlagUse, ...] = ()
    """Every flag that wrote this field, in order; empty when the value is the default."""
    dynamic: bool = False
    """The value cannot be known statically: it comes from an unreadable word, or a word
    that cannot be read follows it and may set it again."""

    @property
    def given(self) -> bool:
        return bool(self.uses)

    @property
    def use(self) -> FlagUse | None:
        """The flag whose value wins (argparse: the last one)."""
        return self.uses[-1] if self.uses else None

    @property
    def span(self) -> Span | None:
        use = self.use
        if use is None:
            return None
        return use.value_span or use.span


def _setting_hash(self: Setting) -> int:
    """By value, as a frozen record's (`core.spans`: set after the class is made)."""
    return hash((self.dest, self.value, self.uses, self.dynamic))


type.__setattr__(Setting, "__hash__", _setting_hash)

_DEFAULTS: dict[int, tuple[FlagSchema, dict[str, Setting]]] = {}
"""id(schema) -> (the schema, field -> the Setting of a field nobody set). By schema, not by
release: a bench or router schema of a release adds fields of its own (`sglang.bench`)."""


def _defaults_of(schema: FlagSchema) -> dict[str, Setting]:
    found = _DEFAULTS.get(id(schema))
    if found is None or found[0] is not schema:
        found = _DEFAULTS[id(schema)] = (schema, {})
    return found[1]


def _default_setting(defaults: dict[str, Setting], schema: FlagSchema, dest: str) -> Setting:
    """A field nobody set: the same immutable Setting for every launch of a release."""
    setting = defaults.get(dest)
    if setting is None:
        spec = schema.by_dest.get(dest)
        setting = defaults[dest] = Setting(dest, spec.default if spec is not None else None)
    return setting


_UNGIVEN_VALUES: dict[tuple[int, tuple[str, ...]], dict[str, object]] = {}
"""(id(schema), fields) -> each field's value when no flag gives it (`LaunchConfig.values_of`);
the schema is held by `_DEFAULTS`, so its id is not reused."""

UNKNOWN_VALUE = object()
"""`LaunchConfig.known_values`' value of a field whose value is not statically known."""

_RELEASE_VALUES: dict[int, tuple[FlagSchema, dict[str, object] | int]] = {}
"""id(schema) -> (the schema, each of its fields' value when no flag gives it; or, until it
is made, how many launches have asked)."""

_TABLE_AFTER = 3
"""Launches of a release parsed before its table is made: it decodes every definition of the
release (~500), which a run of a few files never asks for (`core.kept`, `schema.spec_at`)."""


def _release_values(schema: FlagSchema, defaults: dict[str, Setting]) -> dict[str, object] | None:
    """Every field of `schema` and its value when no flag gives it, once `_TABLE_AFTER`
    launches asked (the schema kept with it: its id is not reused while it is held)."""
    found = _RELEASE_VALUES.get(id(schema))
    if found is None or found[0] is not schema:
        found = (schema, 0)
    table = found[1]
    if isinstance(table, dict):
        return table
    if table < _TABLE_AFTER:
        _RELEASE_VALUES[id(schema)] = (schema, table + 1)
        return None
    made = {dest: _default_setting(defaults, schema, dest).value for dest in schema.by_dest}
    _RELEASE_VALUES[id(schema)] = (schema, made)
    return made


class LaunchConfig:
    """Field values after argparse (before SGLang's own resolution adjusts them)."""

    made_unread: tuple[Word, ...] = ()
    """Words the flag model made that may hold any flags, in order (`configure`): for
    `python -m dynamo.sglang` those Dynamo turns into SGLang settings itself
    (`speclint.sglang.dynamo`); for `--config FILE` a file not on disk or not read, whose flags
    SGLang merges in front of the command line (`config_merge`)."""

    def __init__(self, parsed: ParsedArgs):
        self.parsed = parsed
        self.schema: FlagSchema = parsed.schema
        self._settings: dict[str, Setting] = {}
        """Settings built for this launch (the given fields, or all asked once a word is unread)."""
        by_dest = self.schema.by_dest
        self._by_dest: Container[str] = by_dest.keys_set if isinstance(by_dest, SpecsByKey) else by_dest
        """The release's dests, for `in` tests only."""
        self._defaults = _defaults_of(self.schema)
        # `knows` is the dests' own `in` test: rules and resolution ask it ~40 times a launch,
        # and a method that only forwards costs a Python call each
        self.knows = self._by_dest.__contains__  # type: ignore[method-assign,assignment]
        self._uses_by_dest: dict[str, list[FlagUse]] = {}  # rules ask for many fields: index once
        for use in parsed.uses:
            if use.spec is not None and use.how not in ("ambiguous", "unknown"):
                self._uses_by_dest.setdefault(use.spec.dest, []).append(use)
        self._plain = parsed.last_unknown < 0
        """Every word was read: a field no flag wrote has its release default."""
        # plain attributes, not properties: rules and resolution ask them dozens of times a launch
        self.version: str = self.schema.version
        self.uncertain: bool = parsed.has_unknown_words
        """Some words could not be read: a flag that looks absent may be set."""
        by_dest_keys = self._by_dest  # `given`: a set's own `in` test (asked ~20 times a launch)
        self.given = frozenset([d for d in self._uses_by_dest if d in by_dest_keys]).__contains__  # type: ignore[method-assign,assignment]
        if not self.uncertain:  # (`maybe_given`: given, with no word left that may hide a flag)
            self.maybe_given = self.given  # type: ignore[method-assign]
        self.known_values: dict[str, object] | None = None
        """With every word read (and the release's table made, `_TABLE_AFTER`):
        `known_value(dest, UNKNOWN_VALUE)` of each field of the release (`.get(dest)`: None
        for a field the release lacks)."""
        # rules and resolution ask ~25 values and ~20 known-ness tests a launch: with every
        # word read, a table of the release's values (its given fields replaced) answers them
        # without a Python call each
        values = _release_values(self.schema, self._defaults) if self._plain else None
        if values is not None:
            known = values
            if self._uses_by_dest:
                values = known = dict(values)
                unknown = []
                for dest in self._uses_by_dest:
                    if dest in values:  # (each given field's Setting, made here: `get`)
                        setting = self._settings[dest] = self._build(dest)
                        values[dest] = setting.value
                        if setting.dynamic:  # (not known: `known`, `known_value`)
                            unknown.append(dest)
                if unknown:
                    known = dict(values)
                    for dest in unknown:
                        known[dest] = UNKNOWN_VALUE
            self.value = values.get  # type: ignore[method-assign,assignment]
            self.known_values = known
            if known is values:
                self.known = self._by_dest.__contains__  # type: ignore[method-assign,assignment]

    def knows(self, dest: str) -> bool:
        return dest in self._by_dest

    def get(self, dest: str) -> Setting:
        setting = self._settings.get(dest)
        if setting is None:
            if self._plain and dest not in self._uses_by_dest:
                setting = self._defaults.get(dest)
                if setting is not None:
                    return setting
            setting = self._settings[dest] = self._build(dest)
        return setting

    def _build(self, dest: str) -> Setting:
        found = self._uses_by_dest.get(dest)
        unread_after = self.parsed.last_unknown  # a word that cannot be read may set it again
        if not found and unread_after < 0:
            unset = self._defaults.get(dest)
            return unset if unset is not None else _default_setting(self._defaults, self.schema, dest)
        by_dest = self.schema.by_dest
        made = (
            by_dest.made.get(dest) if isinstance(by_dest, SpecsByKey) else None
        )  # (without a call once asked)
        spec = made or by_dest.get(dest)
        default = spec.default if spec is not None else None
        if not found:
            return Setting(dest, default, (), True)
        uses = tuple(found)
        if spec is not None and spec.action in _ACCUMULATING:
            if spec.action == "count":
                setting = Setting(dest, len(uses), uses)
            else:
                from typing import cast  # an accumulating flag: rare

                collected = list(cast("Iterable[object]", default or []))  # a list or None
                collected.extend(u.value for u in uses if u.dynamic or u.value is not None)
                setting = Setting(dest, collected, uses, any(u.dynamic for u in uses))
        else:
            last = uses[-1]
            valid = (
                last.dynamic
                or last.value is not None
                or (last.spec is not None and last.spec.action == "store_const")
            )
            setting = Setting(dest, last.value if valid else default, uses, last.dynamic)
        if unread_after >= 0 and not setting.dynamic and uses[-1].position < unread_after:
            setting = Setting(dest, setting.value, setting.uses, True)
        return setting

    def value(self, dest: str, fallback: object = None) -> object:
        if dest not in self._by_dest:
            return fallback
        setting = self._settings.get(dest)
        if setting is None:
            if self._plain and dest not in self._uses_by_dest:
                setting = self._defaults.get(dest)
            if setting is None:
                setting = self._settings[dest] = self._build(dest)
        return setting.value

    def given(self, dest: str) -> bool:
        return dest in self._by_dest and dest in self._uses_by_dest

    def known_value(self, dest: str, unknown: object) -> object:
        """`value(dest)` where `known(dest)`, `unknown` where not, None for a field the release
        lacks: `knows`, `known` and `value` in one call (resolution's refusals ask a dozen
        fields of every launch this way, most of them the release default)."""
        if self.known_values is not None:
            found = self.known_values.get(dest)
            return unknown if found is UNKNOWN_VALUE else found
        if dest not in self._by_dest:
            return None
        if self._plain and dest not in self._uses_by_dest:  # a default, every word read
            setting = self._settings.get(dest)  # (`value`, without a call: most fields asked)
            if setting is None:
                setting = self._defaults.get(dest)
                if setting is None:
                    setting = self._settings[dest] = self._build(dest)
            return setting.value
        return self.value(dest) if self.known(dest) else unknown

    @property
    def every_word_read(self) -> bool:
        """No word was left unread: a field no flag gave has its release default."""
        return self._plain

    def given_fields(self) -> Iterable[str]:
        """The fields a flag gives (each has a Setting with its uses)."""
        return self._uses_by_dest.keys()

    def values_of(self, names: tuple[str, ...]) -> dict[str, object]:
        """`{name: self.value(name)}` in the order of `names`. Resolution asks the same
        few dozen fields of every launch: when every word was read, the values no flag gives
        are the release's, worked out once per release and `names`, and only the given
        fields are asked."""
        if not self._plain:
            return {name: self.value(name) for name in names}
        key = (id(self.schema), names)
        ungiven = _UNGIVEN_VALUES.get(key)
        if ungiven is None:
            by_dest, defaults, schema = self._by_dest, self._defaults, self.schema
            ungiven = _UNGIVEN_VALUES[key] = {
                name: _default_setting(defaults, schema, name).value if name in by_dest else None
                for name in names
            }
        values = dict(ungiven)
        for name in self._uses_by_dest:
            if name in values:
                values[name] = self.value(name)
        return values

    def maybe_given(self, dest: str) -> bool:
        """Given, or possibly hidden in a word that could not be read."""
        return self.given(dest) or self.uncertain

    def known(self, dest: str) -> bool:
        """The value is statically known (given literally, or the default with nothing unread)."""
        if self._plain and dest not in self._uses_by_dest:  # a default, every word read
            return dest in self._by_dest
        setting = self.get(dest) if self.knows(dest) else None
        if setting is None or setting.dynamic:
            return False
        return setting.given or not self.uncertain


def configure(launch: Launch, version: str, env: Mapping[str, str | None] | None = None) -> LaunchConfig:
    """The launch's words (or keywords: `Engine(...)`, no argparse) as SGLang `version`
    parses them, `env` its `environment()` when the caller has it. Here, not in the engine: a
    launch-only module imports the parser once."""
    if launch.kwargs_style:
        from speclint.sglang.flags.kwargs import parse_kwargs

        pairs = launch.kwargs
        if launch.entry in CLASS_ENTRIES:  # `sgl.Runtime`'s own parameters that it keeps are not fields
            from speclint.sglang.launch_classes import server_args_pairs

            pairs = server_args_pairs(CLASS_ENTRIES[launch.entry], pairs, version)
        environment = launch.environment() if env is None else env
        return LaunchConfig(parse_kwargs(load_schema(version), pairs, launch.span, environment))
    schema = load_schema(version)
    if launch.entry in BENCH_ENTRIES:  # the script's own parser: `parse_args()` as written
        from speclint.sglang.bench import bench_schema

        return LaunchConfig(parse_argv(bench_schema(schema, BENCH_ENTRIES[launch.entry]), list(launch.args)))
    words = launch.args
    if launch.entry == DYNAMO_ENTRY:  # Dynamo's parser takes its own options out first
        from speclint.sglang.dynamo import dynamo_argv

        words = dynamo_argv(words, schema.by_option, launch.image)
    words = prepare_argv(launch.entry, words, version, launch.config_file)
    made_unread: tuple[Word, ...] = ()
    if words is not launch.args:  # (words dropped or made: Dynamo's, a `--config` file's, `sglang serve`'s)
        written = {id(word) for word in launch.args}
        made_unread = tuple(word for word in words if word.text is None and id(word) not in written)
    if launch.entry == ROUTER_ENTRY:  # SGLang's parser with sglang-router's options added
        from speclint.sglang.router import router_schema

        schema = router_schema(schema)
    config = LaunchConfig(parse_argv(schema, words, launch.environment() if env is None else env))
    if made_unread:
        config.made_unread = made_unread
    return config
