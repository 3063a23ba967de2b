"""The positional parameters of a function call being read: `$1`..`$9`, `${N}`, `"$@"`, `"$*"`,
`${@:N}`, `${@:N:M}`, `${@: -N}` (from the end), `$#`, and what `shift [N]` and `set -- ...`
do to them.

bash's manual ("Special Parameters", "Shell Parameter Expansion" for `${@:offset:length}`,
"Bourne Shell Builtins" for `shift`): `$N` is the Nth word the call passed, unset beyond `$#`;
`"$@"` is each word as it was passed; `shift N` drops the first N, and does nothing (failing)
when N is more than `$#`; a negative offset of `${@:offset}` counts back from one past the last
parameter (`${@: -1}` is the last), one before `$1` giving nothing. The words are the call's own (`Env.positional`), each keeping where
the call writes it. A word that stands for an unknown number of words (an unquoted unknown
`$X`, the script's `"$@"`: `Word.splat`) leaves every parameter after it unknown: never
guessed.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Protocol

    from speclint.core.words import Word

    class Env(Protocol):
        """What is read here of a `variables.Env` (which uses this module)."""

        positional: tuple[Word, ...] | None
        positional_reason: str


MISSING = ()
"""What `lookup` gives for a parameter the call did not pass (unset: empty)."""


def _unknown_before(words: tuple[Word, ...], end: int) -> Word | None:
    """The first word of `words[:end]` that may be any number of words."""
    for word in words[:end]:
        if word.splat:
            return word
    return None


def lookup(env: Env, start: int, length: int | None = None) -> tuple[Word, ...] | str:
    """The parameters `start` (1-based) on, `length` of them (None: all): the words, or why
    they are unknown."""
    words = env.positional
    if words is None:
        return env.positional_reason
    end = len(words) if length is None else min(len(words), start - 1 + length)
    unknown = _unknown_before(words, start - 1 if length is None else end)
    if unknown is not None:
        return unknown.dynamic_reason or env.positional_reason
    return words[start - 1 : end] if start - 1 < end else MISSING


def sliced(env: Env, offset: int, length: int | None) -> tuple[Word, ...] | str | None:
    """`${@:offset:length}` (bounds already worked out), or why it is unknown; None for what
    is not modelled (`$0` in the slice, a negative length: bash fails on it)."""
    if length is not None and length < 0:
        return None
    if offset > 0:
        return lookup(env, offset, length)
    if offset == 0:
        return None
    total = count(env)
    if isinstance(total, str):
        return total
    start = total + 1 + offset
    if start < 1:
        return MISSING
    return lookup(env, start, length)


def count(env: Env) -> int | str:
    """`$#`, or why it is unknown."""
    words = env.positional
    if words is None:
        return env.positional_reason
    unknown = _unknown_before(words, len(words))
    if unknown is not None:
        return unknown.dynamic_reason or env.positional_reason
    return len(words)


def certain(env: Env, name: str) -> bool:
    """Whether `$name` (a digit) is known for certain: unset, or a word the call writes
    literally (a static test may then decide on it)."""
    found = lookup(env, int(name), 1) if name != "0" else "$0"
    if isinstance(found, str):
        return False
    return all(w.text is not None and w.origin is None and w.expanded_at is None for w in found)


def shift(env: Env, by: int | None, line: int) -> None:
    """`shift [N]` (`by` None: N is not known)."""
    words = env.positional
    if words is None:
        return
    if by is None or _unknown_before(words, by) is not None:
        env.positional = None
        env.positional_reason = f"{env.positional_reason}, after the `shift` at line {line}"
    elif by <= len(words):
        env.positional = words[by:]


def set_words(env: Env, words: tuple[Word, ...]) -> None:
    """`set -- WORDS...`."""
    env.positional = words
