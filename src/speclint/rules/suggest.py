"""The "did you mean" for flags (FLG001 unknown-flag, FLG009 flag-not-in-version)."""

from __future__ import annotations

from functools import lru_cache

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.flags.schema import FlagSchema


def suggest(option: str, schema: FlagSchema) -> str | None:
    """The closest known option string of `schema`, the way a "did you mean" should pick it."""
    return _closest(option, schema.long_options)


@lru_cache(maxsize=1024)
def _closest(option: str, longs: tuple[str, ...]) -> str | None:
    """A flag that is the tail of exactly one real flag (`--draft-model-path` of
    `--speculative-draft-model-path`) names that flag: a dropped prefix is not a typo.
    Otherwise difflib; over every flag it costs ~15 ms, so options sharing the first letters
    after `--` are tried first (typos keep the start), and answers are cached per release."""
    if option.startswith("--") and len(option) >= 6:  # a tail of 4+ characters
        tail = "-" + option[2:]
        owners = [c for c in longs if c.endswith(tail)]
        if len(owners) == 1:
            return owners[0]
    head = option[:5]
    near = [c for c in longs if c.startswith(head)]
    import difflib  # only when a flag is unknown

    match = difflib.get_close_matches(option, near, n=1, cutoff=0.75) if near else []
    if not match:
        match = difflib.get_close_matches(option, longs, n=1, cutoff=0.75)
    return match[0] if match else None
