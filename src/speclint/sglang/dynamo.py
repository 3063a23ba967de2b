"""NVIDIA Dynamo's SGLang worker, `python -m dynamo.sglang`: what it does with its command line
before SGLang's parser sees it, per ai-dynamo release, as tools/gen_dynamo_sglang.py read
each release's `dynamo/sglang/args.py` (1.0 on).

Dynamo's own parser takes its options out first (`parse_known_args`: abbreviations of them
too), from 1.5 a second parser the router advertisement options, and SGLang's parser
(`ServerArgs.add_cli_args`, plus what Dynamo adds to it) parses the rest with `parse_args`:
a word neither takes stops the worker with 'unrecognized arguments'. Which ai-dynamo release
runs is not known from the command alone: an option of any stored release is Dynamo's
(taken out with the arity its newest release gives it); a word that may be an abbreviation of
one, and an option whose value Dynamo turns into SGLang settings itself (`--disagg-config`,
`--embedding-worker`, ...), stand for a word that may hold any flags (the launch is partly
read, never guessed).

`data/dynamo_sglang.json` is one JSON array, one element per line: the header `{"format": 1,
"versions": [...], ...}`, then one row per release (header order, oldest first): `{"sglang":
pin, "dynamo": [[option_strings, takes_value], ...], "sglang_adds": [...], "choices_added":
{dest: [values]}, "changes_sglang": [dest, ...]}`.
"""

from __future__ import annotations

import os
from functools import lru_cache

from speclint.core.words import Word
from speclint.sglang.linedata import LineData

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Container

_DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "dynamo_sglang.json")
_FILE = LineData(_DATA)
IMAGE_PREFIX = "ai-dynamo/"
"""NVIDIA's Dynamo images (`nvcr.io/nvidia/ai-dynamo/sglang-runtime:0.7.1`): the tag is the
ai-dynamo release, not SGLang's."""


def dynamo_versions() -> tuple[str, ...]:
    """The ai-dynamo releases read, oldest first."""
    return _FILE.versions()


def sglang_pin(version: str) -> str | None:
    """The SGLang release ai-dynamo `version` pins (its `sglang` extra's `sglang==X`), None
    when that release was not read or pins none."""
    row = _FILE.row(version)
    return None if row is None else row["sglang"]


def image_release(image: str) -> str | None:
    """The ai-dynamo release a Dynamo image's tag names (`.../ai-dynamo/sglang-runtime:0.7.1`
    -> 0.7.1), None for another image or a tag that names none."""
    name, _, tag = image.rpartition(":")
    if IMAGE_PREFIX not in name or "/" in tag or not tag[:1].isdigit():
        return None
    return tag.split("-", 1)[0]


def launch_release(image: str | None) -> str | None:
    """The stored ai-dynamo release a launch's image runs, None when not known or not read."""
    found = image_release(image) if image else None
    return found if found in dynamo_versions() else None


class _Readings:
    """Over the stored releases (or the one `release`): option -> (takes_value, releases),
    and the rest."""

    def __init__(self, release: str | None) -> None:
        self.options: dict[str, tuple[object, tuple[str, ...]]] = {}
        self.changing: dict[str, tuple[str, ...]] = {}
        """Option -> the releases in which its value changes what SGLang gets."""
        self.adds: dict[str, tuple[str, ...]] = {}
        """An option Dynamo adds to SGLang's parser -> the releases that add it."""
        self.choices: dict[str, dict[str, tuple[str, ...]]] = {}
        """SGLang's option (`--load-format`) -> a value Dynamo adds to its choices -> releases."""
        for version in (release,) if release else dynamo_versions():
            row = _FILE.row(version)
            changes = set(row["changes_sglang"])
            for strings, takes in row["dynamo"]:
                dest = next((s[2:].replace("-", "_") for s in strings if s.startswith("--")), "")
                for option in strings:
                    self.options[option] = (takes, (*self.options.get(option, (None, ()))[1], version))
                    if dest in changes:
                        self.changing[option] = (*self.changing.get(option, ()), version)
            for strings, _ in row["sglang_adds"]:
                for option in strings:
                    self.adds[option] = (*self.adds.get(option, ()), version)
            for dest, values in row["choices_added"].items():
                known = self.choices.setdefault("--" + dest.replace("_", "-"), {})
                for value in values:
                    known[value] = (*known.get(value, ()), version)


@lru_cache(maxsize=4)
def _readings(release: str | None) -> _Readings:
    return _Readings(release)


def releases_named(found: tuple[str, ...]) -> str:
    """`ai-dynamo 1.0.2 to 1.6.1` for releases that follow each other among those read."""
    every = dynamo_versions()
    start = every.index(found[0])
    if len(found) == 1:
        return f"ai-dynamo {found[0]}"
    if every[start : start + len(found)] == found:
        return f"ai-dynamo {found[0]} to {found[-1]}"
    return f"ai-dynamo {', '.join(found[:-1])} and {found[-1]}"


def _unread(word: Word, reason: str) -> Word:
    """A word that may hold any flags, at `word`'s place, saying why."""
    return Word(None, word.span, word.origin, reason, splat=True, expanded_at=word.expanded_at)


def dynamo_argv(words: list[Word], sglang_options: Container[str], image: str | None = None) -> list[Word]:
    """The words SGLang's parser gets from `python -m dynamo.sglang WORDS`: Dynamo's options
    taken out with their values; a word Dynamo may read as an abbreviation of its own, or an
    option whose value Dynamo turns into SGLang settings, replaced by a word that may hold any
    flags (saying why). `sglang_options`: the checked SGLang release's option strings; `image`:
    the launch's, whose tag may name the ai-dynamo release (else every stored release counts)."""
    readings = _readings(launch_release(image))
    options = readings.options
    kept: list[Word] = []
    index = 0
    while index < len(words):
        word = words[index]
        text = word.text
        index += 1
        if text is None or not text.startswith("-") or text == "-":
            kept.append(word)
            continue
        if text == "--":
            kept.extend(words[index - 1 :])
            break
        name, equals, _ = text.partition("=")
        known = options.get(name)
        if known is None:
            if name in readings.adds and name not in sglang_options:
                kept.append(
                    _unread(
                        word, f"{releases_named(readings.adds[name])} adds `{name}` to SGLang's parser itself"
                    )
                )
                continue
            added = readings.choices.get(name)
            value = text[len(name) + 1 :] if equals else (words[index].text if index < len(words) else None)
            if added and value in added:
                kept.append(
                    _unread(
                        word, f"{releases_named(added[value])} adds `{value}` to `{name}`'s choices itself"
                    )
                )
                index += 0 if equals else 1
                continue
            prefixed = [o for o in options if o.startswith(name) and name.startswith("--") and len(name) > 2]
            if prefixed:  # (Dynamo's parser knows none of SGLang's options)
                what = ", ".join(f"`{o}`" for o in prefixed[:3])
                kept.append(
                    _unread(
                        word,
                        f"Dynamo's own parser reads `{name}` as an abbreviation of {what} when it has one",
                    )
                )
                continue
            kept.append(word)
            continue
        takes, _ = known
        if not equals and takes is None:
            index += 1 if index < len(words) else 0
        elif not equals and type(takes) is int:
            index = min(index + takes, len(words))
        elif not equals and takes in ("*", "+", "?"):
            while index < len(words) and not (words[index].text or "-x").startswith("-"):
                index += 1
                if takes == "?":
                    break
        changing = readings.changing.get(name)
        if changing:
            kept.append(
                _unread(
                    word,
                    f"`{name}` is Dynamo's: it sets SGLang's settings itself ({releases_named(changing)})",
                )
            )
    return kept
