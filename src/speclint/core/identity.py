"""What an unknown word's value is, when the file names it (`core.words.Word.identity`):
apart from `Word`, so that a lint that makes none (the shell front-end) does not make its
record class."""

from __future__ import annotations

from speclint.core.records import dataclass


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
