"""The records of a flag's change between releases (`history`): made only when a launch
has a changed flag to explain, so their classes are made only then (a record class costs
~0.5 ms to make)."""

from __future__ import annotations

from speclint.core.records import dataclass


@dataclass(frozen=True, slots=True)
class Replacement:
    """What to write instead of a flag a release renamed or removed."""

    option: str
    """The flag to write instead (it exists in the checked release)."""
    value: str | None = None
    """For a switch SGLang mapped to a setting: the value to give it (`disabled`)."""

    @property
    def text(self) -> str:
        return self.option + (f" {self.value}" if self.value is not None else "")


@dataclass(frozen=True, slots=True)
class Removal:
    """Why a flag an earlier release accepted is rejected by `target`."""

    option: str
    target: str
    last: str
    """The last release (before `target`) that accepted the flag."""
    kind: str
    """'renamed', 'split' or 'removed'."""
    replacements: tuple[Replacement, ...] = ()
    note: str | None = None
    """SGLang's own deprecation text, when it said more than a flag name."""
    deprecated_since: str | None = None
    """The first release in which the flag was a deprecated alias."""
    value_preserving: bool = False
    """True when SGLang itself stored the flag's value into the one replacement (a
    deprecated alias, a switch mapped to a constant): rewriting the flag is safe."""
    split_into: tuple[Replacement, ...] = ()
    """For a split: every flag it was divided into (`replacements` may name just the one
    SGLang's deprecated alias stored into)."""

    def describe(self) -> str:
        """'was replaced by `--y`', 'was split into `--a` and `--b`', 'was removed ...'."""
        names = [f"`{r.text}`" for r in self.replacements]
        if self.kind == "split":
            text = "was split into " + " and ".join(f"`{r.text}`" for r in self.split_into)
            if self.deprecated_since and len(self.replacements) == 1:
                text += (
                    f" in {self.deprecated_since} and read as a deprecated alias of "
                    f"{names[0]} until {self.last}"
                )
            return text
        if self.kind == "renamed" and names:
            return "was replaced by " + " / ".join(names)
        return "was removed with no replacement flag"


@dataclass(frozen=True, slots=True)
class PrefixMeaning:
    """What an abbreviation (or a removed flag's name) resolved to in an earlier release."""

    written: str
    option: str
    """The option it matched there (itself, when it was an exact flag)."""
    last: str
    """The last release before the target in which it resolved to `option` alone."""


@dataclass(frozen=True, slots=True)
class Change:
    """One difference of a flag between two releases."""

    option: str
    what: str
    """'choices', 'default', 'action', 'type', 'nargs', 'deprecated', 'dest', 'const'."""
    before: object
    after: object
    since: str
    """The first release (after the older one) that has the new value."""
