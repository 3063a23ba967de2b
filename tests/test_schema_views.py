"""A release's schema (`load_schema`: FlagSpecs made on first lookup, indexes kept between
runs) holds what one built eagerly from the JSON table holds: the same flags, in the same
order, under the same option strings and dests (what parsing, suggestions and the rules read)."""

from __future__ import annotations

import sys

import pytest

from speclint.sglang.flags import schema
from speclint.sglang.flags.release_index import table
from speclint.sglang.flags.schema import HELP_SPEC, FlagSchema, FlagSpec, spec_from_entry


def _eager(version: str) -> FlagSchema:
    raw = table()
    specs = [spec_from_entry(raw["flags"][index]) for index in raw["order"][version]]
    by_option: dict[str, FlagSpec] = {}
    for spec in specs:
        for option in spec.option_strings:
            by_option[option] = spec
    by_dest: dict[str, FlagSpec] = {}
    for spec in specs:
        by_dest.setdefault(spec.dest, spec)
    if schema.parser_facts(version).get("add_help", True):
        by_option = {"-h": HELP_SPEC, "--help": HELP_SPEC, **by_option}
    allow_abbrev = bool(
        schema.parser_facts(version).get("allow_abbrev", raw["parser"].get("allow_abbrev", True))
    )
    return FlagSchema(version, tuple(specs), by_option, by_dest, allow_abbrev=allow_abbrev)


def _seen(one: FlagSchema) -> tuple[object, ...]:
    return (
        list(one.by_option.items()),
        list(one.by_dest.items()),
        list(one.flags),
        one.required,
        one.sorted_options,
        list(one.option_rank.items()),
        one.long_options,
        one.allow_abbrev,
    )


@pytest.mark.parametrize("kept", [False, True], ids=["decoded", "kept"])
def test_every_release_schema_is_the_eager_one(tmp_path, monkeypatch, kept):
    from speclint.core.kept import Kept

    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    store = Kept(str(tmp_path), "flag_tables", ("test",))
    monkeypatch.setattr(schema, "_kept", lambda: store)
    schema.load_schema.cache_clear()
    try:
        if kept:
            for version in schema.supported_versions():
                schema.load_schema(version)
            store.save()
            reread = Kept(str(tmp_path), "flag_tables", ("test",))
            monkeypatch.setattr(schema, "_kept", lambda: reread)
            schema.load_schema.cache_clear()
        for version in schema.supported_versions():
            lazy = schema.load_schema(version)
            eager = _eager(version)
            assert _seen(lazy) == _seen(eager), version
            assert lazy.by_option.get("--no-such-flag") is None and "--no-such-flag" not in lazy.by_option
            assert lazy.flags[0] == eager.flags[0] and lazy.flags[-2:] == eager.flags[-2:]
            assert len(lazy.flags) == len(eager.flags) and len(lazy.by_option) == len(eager.by_option)
    finally:
        schema.load_schema.cache_clear()


@pytest.mark.parametrize("kept", [False, True], ids=["decoded", "kept"])
def test_release_index_and_options_of_hold_the_table_s_flags(tmp_path, monkeypatch, kept):
    """Which releases declare each definition, the definitions of each option string, and a
    release's option map: worked out from the JSON table, or read back from the kept store
    (blobs and kept releases), they are the table's, in its order."""
    from speclint.core.kept import Kept
    from speclint.sglang.flags import release_index

    caches = (
        release_index.entry_versions,
        release_index.option_entries,
        release_index.releases_of,
        schema.options_of,
        schema.load_schema,
    )
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    store = Kept(str(tmp_path), "flag_tables", ("test",))
    monkeypatch.setattr(schema, "_kept", lambda: store)
    for cached in caches:
        cached.cache_clear()
    versions = schema.supported_versions()
    try:
        if kept:
            release_index.entry_versions()
            release_index.option_entries()
            for version in versions:
                schema.load_schema(version)
            store.save()
            reread = Kept(str(tmp_path), "flag_tables", ("test",))
            monkeypatch.setattr(schema, "_kept", lambda: reread)
            for cached in caches:
                cached.cache_clear()
            assert type(reread.get("entry_versions")) is bytes
        raw = table()
        belongs: list[list[str]] = [[] for _ in raw["flags"]]
        for version in raw["versions"]:
            for index in raw["order"][version]:
                belongs[index].append(version)
        assert release_index.entry_versions() == tuple(tuple(v) for v in belongs)
        declared: dict[str, list[int]] = {}
        for index, entry in enumerate(raw["flags"]):
            for option in entry["option_strings"]:
                declared.setdefault(option, []).append(index)
        assert list(release_index.option_entries().items()) == [(o, tuple(i)) for o, i in declared.items()]
        assert release_index.versions_with_option("--tp-size") == [
            v for v in versions if "--tp-size" in schema.options_of(v)
        ]
        for version in versions:
            eager = {
                option: spec_from_entry(raw["flags"][index])
                for index in raw["order"][version]
                for option in raw["flags"][index]["option_strings"]
            }
            assert list(schema.options_of(version).items()) == list(eager.items()), version
    finally:
        for cached in caches:
            cached.cache_clear()
