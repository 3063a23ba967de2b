"""How SGLang's flags changed from release to release, derived from the stored schemas.

Launch scripts outlive the release they were written for. The version rules (VER001-)
use this to say, for a flag the checked release rejects, when it last worked and what
replaces it. Everything here rests on the whole table (`release_index.table()`, ~10 ms; what
`release_index` works out from it is kept between runs), so it is only computed when a
launch has a problem to explain.

Kinds of removal (`Removal.kind`):
- 'renamed': SGLang's last word on the flag named one replacement (a deprecated alias
  storing into the new flag's field, or a deprecation note naming it), or the same
  field lives on under another name;
- 'split': the flag's field was divided into `--x-decode`/`--x-prefill` style flags;
- 'removed': no replacement.
"""

from __future__ import annotations

from functools import cache, lru_cache

from speclint.core import patterns
from speclint.sglang.flags.release_index import option_entries, releases_of, spec_in, table
from speclint.sglang.flags.schema import options_of, supported_versions
from speclint.sglang.flags.versions import version_key

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re

    from speclint.sglang.flags.flag_changes import Change, PrefixMeaning, Removal, Replacement
    from speclint.sglang.flags.schema import (
        FlagSpec,
    )

_RECORDS = ("Change", "PrefixMeaning", "Removal", "Replacement")
"""Defined in `flag_changes`, imported when a flag has changed: most lints make none."""


def __getattr__(name: str) -> object:
    if name in _RECORDS:
        from speclint.sglang.flags import flag_changes

        return getattr(flag_changes, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# `deprecated` text that is a replacement: `--flag`, `--flag=value`.


@cache  # compiled on first use, as the next: only for a deprecated flag
def _replacement() -> re.Pattern[str]:
    return patterns.compile(r"^(--[\w-]+)(?:=(\S+))?$")


@cache
def _mention() -> re.Pattern[str]:
    return patterns.compile(r"--[a-z][\w-]*")


def _older(a: str, b: str) -> bool:
    return version_key(a) < version_key(b)


def accepted_before(option: str, target: str) -> list[str]:
    """Releases older than `target` whose parser knows `option` exactly."""
    return [v for v in releases_of(option) if _older(v, target)]


def _options_in(version: str) -> dict[str, FlagSpec]:
    return options_of(version)


def _flags_of(version: str) -> list[FlagSpec]:
    """The distinct FlagSpecs of a release, in argparse order."""
    return list({id(spec): spec for spec in options_of(version).values()}.values())


@lru_cache(maxsize=2048)  # pure functions of the stored schemas
def removal(option: str, target: str) -> Removal | None:
    """Why `option`, which an earlier release accepted exactly, is not a flag of `target`
    (None when `target` knows it or no earlier release did)."""
    if option in _options_in(target):
        return None
    before = accepted_before(option, target)
    if not before:
        return None
    from speclint.sglang.flags.flag_changes import Removal, Replacement

    last = before[-1]
    spec = _accepted(last, option)
    since = next((v for v in before if _accepted(v, option).deprecated), None)
    known = _options_in(target)
    replacements, value_preserving, note = _declared_replacement(spec, known)
    plain = [v for v in before if not _accepted(v, option).deprecated]
    own_field = _accepted(plain[-1] if plain else last, option).dest  # before any alias
    split = _split_into(option, own_field, since or last, target)
    if split:
        return Removal(
            option,
            target,
            last,
            "split",
            replacements or split,
            note,
            since,
            value_preserving and len(replacements) == 1,
            split,
        )
    if replacements:
        return Removal(option, target, last, "renamed", replacements, note, since, value_preserving)
    same_field = [s for s in _flags_of(target) if s.dest == spec.dest]
    if len(same_field) == 1:
        return Removal(
            option,
            target,
            last,
            "renamed",
            (Replacement(same_field[0].canonical),),
            note,
            since,
            value_preserving=_same_shape(spec, same_field[0]),
        )
    return Removal(option, target, last, "removed", (), note or spec.deprecated, since)


def _accepted(version: str, option: str) -> FlagSpec:
    """The flag `option` names in `version`, a release known to accept it exactly."""
    spec = spec_in(version, option)
    assert spec is not None
    return spec


def _declared_replacement(
    spec: FlagSpec, known: dict[str, FlagSpec]
) -> tuple[tuple[Replacement, ...], bool, str | None]:
    """The replacement SGLang itself named for a deprecated flag, if the target has it."""
    from speclint.sglang.flags.flag_changes import Replacement

    text = spec.deprecated
    if not text:
        return (), False, None
    match = _replacement().match(text.strip())
    if match and match.group(1) in known:
        new, value = match.group(1), match.group(2)
        if spec.action_class == "DeprecatedAliasStoreAction":
            return (Replacement(new),), True, None
        if spec.action_class == "DeprecatedStoreConstAction" and value is not None:
            return (Replacement(new, value),), True, None
        if spec.action_class == "DeprecatedStoreTrueAction" and value is None:
            return (Replacement(new),), True, None
        return (Replacement(new, value),), False, None
    if match:
        return (), False, None
    mentioned = [
        m for m in dict.fromkeys(_mention().findall(text)) if m in known and m not in spec.option_strings
    ]
    return tuple(Replacement(m) for m in mentioned[:1]), False, text


@lru_cache(maxsize=512)
def _split_into(option: str, dest: str, when: str, target: str) -> tuple[Replacement, ...]:
    """`--x` -> `--x-decode` + `--x-prefill`: flags of the target that extend the old name
    and the old field, and that appeared no later than the old flag went away."""
    from speclint.sglang.flags.flag_changes import Replacement

    found = []
    for spec in _flags_of(target):
        name = spec.canonical
        if name.startswith(option + "-") and spec.dest.startswith(dest + "_"):
            first = releases_of(name)[0]
            if not _older(when, first):
                found.append(Replacement(name))
    return tuple(found) if len(found) >= 2 else ()


def _same_shape(old: FlagSpec, new: FlagSpec) -> bool:
    return (old.action, old.nargs, old.type) == (new.action, new.nargs, new.type)


@lru_cache(maxsize=2048)
def prefix_meaning(written: str, target: str) -> PrefixMeaning | None:
    """The last release older than `target` in which `written` (an exact flag or an
    abbreviation) resolved to exactly one flag, and that flag."""
    from speclint.sglang.flags.flag_changes import PrefixMeaning

    candidates = _extending(written)
    for version in reversed(supported_versions()):
        if not _older(version, target):
            continue
        matches = [o for o, releases in candidates if version in releases]
        if written in matches:
            return PrefixMeaning(written, written, version)
        if len(matches) == 1:
            return PrefixMeaning(written, matches[0], version)
    return None


def _extending(written: str) -> list[tuple[str, frozenset[str]]]:
    """Every option of any release that starts with `written`, with its releases."""
    return [(o, frozenset(releases_of(o))) for o in option_entries() if o.startswith(written)]


@lru_cache(maxsize=2048)
def replacement_for(option: str, target: str) -> tuple[Replacement, ...]:
    """What to write in `target` for a flag of an earlier release (itself if it is still
    there, its declared or split replacement otherwise)."""
    from speclint.sglang.flags.flag_changes import Replacement

    if option in _options_in(target):
        return (Replacement(option),)
    found = removal(option, target)
    if found is None:
        return ()
    return found.replacements


@lru_cache(maxsize=2048)
def first_ambiguous(written: str, target: str) -> str | None:
    """The first release (up to `target`) from which `written` stayed ambiguous."""
    candidates = _extending(written)
    first = None
    for version in supported_versions():
        if _older(target, version):
            break
        matches = [o for o, releases in candidates if version in releases]
        ambiguous = written not in matches and len(matches) > 1
        first = (first or version) if ambiguous else None
    return first


@lru_cache(maxsize=2048)
def value_history(option: str, value: str, target: str) -> str | None:
    """The last release older than `target` whose choices for `option` included `value`."""
    for version in reversed(supported_versions()):
        if not _older(version, target):
            continue
        spec = spec_in(version, option)
        if spec is None:
            continue
        if spec.choices is None:
            return version if spec.type in ("str", None) else None
        if value in [str(c) for c in spec.choices]:
            return version
    return None


_COMPARED = ("dest", "action", "type", "nargs", "choices", "const", "default", "deprecated")


def changes(option: str, older: str, newer: str) -> list[Change]:
    """How `option` differs between two releases that both know it, with the first
    release of each new value."""
    from speclint.sglang.flags.flag_changes import Change

    old = spec_in(older, option)
    new = spec_in(newer, option)
    if old is None or new is None:
        return []
    found = []
    span = [v for v in supported_versions() if _older(older, v) and not _older(newer, v)]
    for what in _COMPARED:
        before, after = getattr(old, what), getattr(new, what)
        if before == after:
            continue
        since = next(
            (
                v
                for v in span
                if spec_in(v, option) is not None and getattr(spec_in(v, option), what) == after
            ),
            newer,
        )
        found.append(Change(option, what, before, after, since))
    return found


def choice_timeline(option: str) -> list[tuple[str, tuple[object, ...] | None]]:
    """(first release, choices) each time the accepted values of `option` changed
    (None: any string, as for `--speculative-algorithm` from 0.5.14 on, upper-cased)."""
    out: list[tuple[str, tuple[object, ...] | None]] = []
    for version in supported_versions():
        spec = spec_in(version, option)
        if spec is None:
            continue
        if not out or out[-1][1] != spec.choices:
            out.append((version, spec.choices))
    return out


def appeared(option: str) -> tuple[str, str] | None:
    """(first, last) release that knows `option` exactly."""
    found = releases_of(option)
    return (found[0], found[-1]) if found else None


__all__ = [
    "Change",
    "PrefixMeaning",
    "Removal",
    "Replacement",
    "accepted_before",
    "appeared",
    "changes",
    "choice_timeline",
    "first_ambiguous",
    "prefix_meaning",
    "removal",
    "replacement_for",
    "table",
    "value_history",
]
