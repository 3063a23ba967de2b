"""One argv word of a launch, and what an unknown word's value is when the file names it."""

from __future__ import annotations

from speclint.core.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.spans import Span


@dataclass(frozen=True, slots=True)
class Identity:
    """What an unknown value is, when the file names it: `k + 1` is Identity('k', key, 1).

    Two words whose identities have the same `key` hold the same unknown value (`plus`
    apart), whatever it is at run time: `speculative_num_steps=k` and
    `speculative_num_draft_tokens=k` ask for the same number. `key` says which value
    (where it was made: a parameter, a loop variable, a name the file never assigns);
    `name` is how the file writes it, for messages."""

    name: str
    key: str
    plus: int = 0

    def same_value(self, other: Identity | None) -> bool:
        return other is not None and other.key == self.key

    def shifted(self, by: int) -> Identity:
        return Identity(self.name, self.key, self.plus + by)

    def __str__(self) -> str:
        if self.plus == 0:
            return self.name
        return f"{self.name} {'+' if self.plus > 0 else '-'} {abs(self.plus)}"


@dataclass(frozen=True, slots=True)
class Word:
    """One argv word as the shell (or the Python list, or the YAML list) would pass it.

    `text` is None when the value cannot be known without running something (`$(...)`, a
    loop variable, a variable with no known value): rules never guess about such a word.
    `span` is where the word is written (the use site); `origin` is where its value was
    assigned when it came from a variable.
    """

    text: str | None
    span: Span
    origin: Span | None = None
    dynamic_reason: str | None = None
    splat: bool = False
    """True when the word stands for an unknown number of words (an unquoted dynamic
    `$ARGS`, `"$@"`): any flag may hide in it."""
    expanded_at: Span | None = None
    """For a word that came from a bash array element: where the array was expanded
    (`"${ARGS[@]}"`), while `span` is the element as written in the array."""
    identity: Identity | None = None
    """For a word whose text is unknown: which value it holds, when the file names it
    (two words with the same identity key hold the same value)."""
    prefix: str | None = None
    """For a word whose text is unknown: the known text it starts with, when it has some
    (`--tp=` of `--tp=$TP`: the flag model reads the option)."""

    @property
    def dynamic(self) -> bool:
        return self.text is None
