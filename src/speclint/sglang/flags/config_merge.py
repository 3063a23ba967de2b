"""`--config FILE.yaml` merged into argv as the checked SGLang release merges it.

`prepare_server_args` looks for the exact token `--config` (not `--config=F`); the
release's `ConfigArgumentMerger` turns the file's top-level mapping into
`['--KEY', 'VALUE', ...]` (the key as written: `tp_size:` becomes `--tp_size`, which argparse
rejects) and returns `config_args + argv-without('--config', FILE)`, so the command line
wins. How booleans and dicts become flags differs between releases; that is read from each
release's source by tools/gen_config_merge.py (`data/config_merge.json`). For a release it
did not read, values whose handling differs are unknown ("unverified for SGLang X").
"""

from __future__ import annotations

import json
import os
from functools import lru_cache
from typing import TypedDict

from speclint.core.words import Word

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.config_files import ConfigEntry, ConfigFile
    from speclint.core.spans import Span
    from speclint.sglang.flags.schema import FlagSchema, FlagSpec


class MergeTraits(TypedDict, total=False):
    """One release's `ConfigArgumentMerger`, as tools/gen_config_merge.py read it."""

    merges: bool
    module: str
    cli_wins: bool
    booleans: str
    """'bare_if_true' or 'store_true_actions'."""
    store_true_keys: str
    """'dest' or 'spellings'."""
    dicts: str
    """'json' or 'str'."""
    unsupported_actions: str
    """'none', 'store_or_store_true' or 'single_value_or_store_true'."""


_DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "config_merge.json")


@lru_cache(maxsize=1)
def _releases() -> dict[str, MergeTraits]:
    with open(_DATA, encoding="utf-8") as handle:
        releases: dict[str, MergeTraits] = json.load(handle)["releases"]
    return releases


def merge_traits(version: str) -> MergeTraits | None:
    """What tools/gen_config_merge.py read from this release, or None when not read."""
    return _releases().get(version)


def merges_config(version: str) -> bool:
    from speclint.sglang.flags.schema import load_schema

    traits = merge_traits(version)
    if traits is not None:
        return bool(traits.get("merges"))
    return "--config" in load_schema(version).by_option


def merged_words(words: list[Word], position: int, config: ConfigFile | None, version: str) -> list[Word]:
    """argv with `--config FILE` at `position` replaced as SGLang merges it: the file's
    flags first, then the command line without the two tokens."""
    cli = words[:position] + words[position + 2 :]
    if config is None or config.problem is not None:
        word = words[position + 1]
        reason = (
            config.problem
            if config is not None and config.problem
            else f"flags merged from the --config file {word.text or ''} (not found on disk)".replace(
                "  ", " "
            )
        )
        return [Word(None, word.span, word.origin, dynamic_reason=reason, splat=True)] + cli
    refused = refusal(config, version)
    return config_words(config, version, refused[0] if refused else None) + cli


def config_words(config: ConfigFile, version: str, skip: ConfigEntry | None = None) -> list[Word]:
    """The file's flags as the release writes them (`skip`: an entry SGLang refuses, which
    FLG020 reports; SGLang stops there, so its words are not checked further)."""
    from speclint.sglang.flags.schema import load_schema

    traits = merge_traits(version)
    schema = load_schema(version)
    store_true = _store_true_keys(schema, traits)
    out: list[Word] = []
    for entry in config.entries:
        if entry is skip:
            continue
        key = Word(f"--{entry.key}", entry.key_span)
        value = entry.value
        if entry.problem is not None:
            out += [key, Word(None, entry.value_span, dynamic_reason=entry.problem)]
        elif isinstance(value, bool):
            out += _boolean(entry, key, traits, store_true, version)
        elif isinstance(value, list):
            if value:
                out.append(key)
                spans = entry.item_spans or (entry.value_span,) * len(value)
                out += [Word(_text(item), span) for item, span in zip(value, spans)]
        elif isinstance(value, dict):
            if traits is None:
                out += [key, _unverified(entry, version, "a mapping value")]
            else:
                text = _json(value) if traits.get("dicts") == "json" else str(value)
                out += [
                    key,
                    Word(
                        text,
                        entry.value_span,
                        dynamic_reason=None
                        if text is not None
                        else f"the mapping under {entry.key!r} cannot be written as JSON",
                    ),
                ]
        else:
            out += [key, Word(_text(value), entry.value_span)]
    return out


def _boolean(
    entry: ConfigEntry, key: Word, traits: MergeTraits | None, store_true: set[str] | None, version: str
) -> list[Word]:
    normalized = entry.key.replace("-", "_")
    if traits is not None and traits.get("booleans") == "bare_if_true":
        return [key] if entry.value else []
    if store_true is not None and normalized in store_true:
        return [key] if entry.value else []
    if traits is None:  # store_true flags are the same in every release read; others differ
        return [key, _unverified(entry, version, f"`{entry.key}: {str(entry.value).lower()}`")]
    return [key, Word(str(entry.value).lower(), entry.value_span)]


def _store_true_keys(schema: FlagSchema, traits: MergeTraits | None) -> set[str] | None:
    if traits is not None and traits.get("booleans") != "store_true_actions":
        return None
    keys: set[str] = set()
    spellings = traits is None or traits.get("store_true_keys") == "spellings"
    for spec in schema.flags:
        if spec.action == "store_true":
            keys.add(spec.dest)
            if spellings:
                keys.update(o[2:].replace("-", "_") for o in spec.option_strings if o.startswith("--"))
    return keys


def _unverified(entry: ConfigEntry, version: str, what: str) -> Word:
    return Word(
        None,
        entry.value_span,
        dynamic_reason=f"how SGLang {version} merges {what} from a "
        "--config file was not read from its source (unverified for SGLang "
        f"{version})",
    )


def _text(value: object) -> str:
    """`str(value)`, as the merger writes every scalar and list item."""
    return str(value)


def _json(value: object) -> str | None:
    try:
        return json.dumps(value)
    except (TypeError, ValueError):
        return None


def file_span(span: Span) -> bool:
    """Whether a span lies in another file than the linted one (a --config file)."""
    return span.file is not None


_ARGPARSE_CLASSES = {
    "store": "_StoreAction",
    "store_true": "_StoreTrueAction",
    "store_false": "_StoreFalseAction",
    "store_const": "_StoreConstAction",
    "append": "_AppendAction",
    "append_const": "_AppendConstAction",
    "count": "_CountAction",
    "boolean_optional": "BooleanOptionalAction",
}


def refusal(config: ConfigFile | None, version: str) -> tuple[ConfigEntry, str] | None:
    """The first key SGLang's merger refuses ('Unsupported config option'), with its
    message: keys naming flags whose action the release's merger does not support."""
    traits = merge_traits(version)
    if config is None or config.problem is not None or traits is None:
        return None
    mode = traits.get("unsupported_actions")
    if mode not in ("store_or_store_true", "single_value_or_store_true"):
        return None
    from speclint.sglang.flags.schema import load_schema

    unsupported: dict[str, FlagSpec] = {}
    supported: set[str] = set()
    for spec in load_schema(version).flags:
        if "--config" in spec.option_strings:
            continue
        if mode == "store_or_store_true":
            ok = spec.action in ("store", "store_true") and not spec.action_class
            if not ok:
                unsupported[spec.dest] = spec
            continue
        keys = {spec.dest} | {o[2:].replace("-", "_") for o in spec.option_strings if o.startswith("--")}
        ok = (spec.action in ("store", "store_true") and not spec.action_class) or spec.nargs is None
        if ok:
            supported |= keys
        else:
            for key in keys:
                unsupported.setdefault(key, spec)
    for key in supported:
        unsupported.pop(key, None)
    for entry in config.entries:
        normalized = entry.key.replace("-", "_")
        refused = unsupported.get(normalized)
        if refused is not None:
            name = refused.action_class or _ARGPARSE_CLASSES.get(refused.action, refused.action)
            return entry, f"Unsupported config option '{normalized}' with action '{name}'"
    return None
