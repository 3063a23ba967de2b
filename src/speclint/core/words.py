"""One argv word of a launch (what an unknown word's value is, when the file names it, is a
`core.identity.Identity`: made only by the Python front-end)."""

from __future__ import annotations

from speclint.core.spans import dataclass  # (a value record: see there)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.identity import Identity
    from speclint.core.spans import Span


@dataclass(slots=True)
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
    made_by: str | None = None
    """When the word was not written in the file but added by what runs the command (the
    `--local-rank=<rank>` that `torch.distributed.launch` passes): what adds it, said at
    `origin` instead of "value assigned here"."""
    lookalikes: tuple[tuple[Span, str], ...] = ()
    """Characters of the word as the front-end saw them in the file that look like the `-` or
    the space a command needs but are not (a no-break space, an en dash pasted from a blog
    post): each one's span and the character (`frontends.docs.typed_chars`)."""

    @property
    def dynamic(self) -> bool:
        return self.text is None

    def said_made_by(self, made_by: str) -> Word:
        """This word with `made_by` set: `dataclasses.replace` without its look at every field
        (a script's `${NAME:-default}` words make one each). Every field is passed on
        (tests/test_shell_values.py checks it against `replace`)."""
        return Word(
            self.text,
            self.span,
            self.origin,
            self.dynamic_reason,
            self.splat,
            self.expanded_at,
            self.identity,
            self.prefix,
            made_by,
            self.lookalikes,
        )


def _word_hash(self: Word) -> int:
    """By value, as a frozen record's (`core.spans`: set after the class is made)."""
    return hash(
        (
            self.text,
            self.span,
            self.origin,
            self.dynamic_reason,
            self.splat,
            self.expanded_at,
            self.identity,
            self.prefix,
            self.made_by,
            self.lookalikes,
        )
    )


type.__setattr__(Word, "__hash__", _word_hash)
