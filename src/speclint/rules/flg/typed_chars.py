"""Notes naming a character pasted into a command that looks like `-` or a space but is not
(`Word.lookalikes`, recorded by the front-end that read it): what bash and argparse do with it,
and what to type instead."""

from __future__ import annotations

from speclint.core.lookalike_chars import SPACES

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

    from speclint.core.notes import Note
    from speclint.core.spans import Span
    from speclint.core.words import Word


def lookalike_notes(words: Iterable[Word]) -> list[Note]:
    """One note per look-alike character of `words`, at the character."""
    notes: list[Note] = []
    for word in words:
        for span, char in word.lookalikes:
            notes.append(_note(span, char, word.text or "", {c for _, c in word.lookalikes}))
    return notes


def _note(span: Span, char: str, text: str, chars: set[str]) -> Note:
    import unicodedata

    import speclint.core.notes as made

    named = f"U+{ord(char):04X} {unicodedata.name(char, 'CHARACTER')}"
    shown = "".join(f"\\u{ord(c):04x}" if c in chars else c for c in text)
    if char in SPACES:
        message = (
            f"{named} here, not a space: bash splits words only at spaces, tabs and line ends, "
            f"so `{shown}` is one word; type a plain space"
        )
    elif text.startswith(char):
        after = text[len(char) :]
        instead = "`-`" if after.startswith("-") else "`--`"
        message = (
            f"{named} here, not `-`: argparse reads a word as a flag only when it starts with "
            f"`-`, so `{shown}` is a plain value; type {instead} in its place"
        )
    else:
        message = f"{named} here, not `-`: the flag's name is not the one SGLang knows; type `-` in its place"
    return made.Note(span, message)
