"""Word splitting: assembling expansion pieces into the words a command receives.

Unquoted expansion results split at blanks, `"${ARR[@]}"` yields one word per element (each
keeping the span where the element is written), and a dynamic piece makes its whole word
dynamic (a `splat` when unquoted, since it may be any number of words).
"""

from __future__ import annotations

from functools import cache

from speclint.core import patterns
from speclint.core.spans import Span
from speclint.core.words import Word

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from typing import Literal

    LitPiece = tuple[Literal["lit"], str, bool, None, None]
    """Literal text, never split."""
    from speclint.frontends.shell.written_chars import WrittenChars

    ValPiece = tuple[Literal["val"], str, bool, Span | None, Span | WrittenChars | None]
    """An expansion result (from where the value is written), split when unquoted; last:
    where its text is written character for character, when it is."""
    DynPiece = tuple[Literal["dyn"], str, bool, Span | None, bool]
    """Unknown text: why, and whether it may splat into several words."""
    ArrPiece = tuple[Literal["arr"], tuple[Word, ...], bool, Span | None, bool | None]
    """Array elements (True last: the words of a function call, `"$@"`, `$1`)."""
    Piece = LitPiece | ValPiece | DynPiece | ArrPiece
    """(kind, payload, quoted, origin, extra): what `expand` turns a word's parts into."""


@cache  # compiled on first use: not every script splits an expansion
def _ifs_split() -> re.Pattern[str]:
    return patterns.compile(r"[ \t\n]+")


def has_unescaped(raw: str, chars: str) -> bool:
    """Whether `raw` holds one of `chars` not preceded by a backslash."""
    escaped = False
    for char in raw:
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char in chars:
            return True
    return False


class Field:
    """One output word being assembled from pieces."""

    __slots__ = ("parts", "reason", "splat", "exists", "origins", "element", "mixed", "known", "call")

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.reason: str | None = None
        self.splat = False
        self.exists = False
        self.origins: list[Span] = []
        self.element: Word | None = None
        self.mixed = False
        self.known = 0
        """How many parts were known before the first unknown piece (the word's prefix)."""
        self.call = False
        """`element` is a word of a function call (`"$1"`), not of an array: no `expanded_at`."""

    def word(self, span: Span, use_span: Span) -> Word:
        text = None if self.reason else "".join(self.parts)
        origins = self.origins  # one origin when every piece came from the same place
        origin = origins[0] if origins else None
        if len(origins) > 1 and not all(o == origin for o in origins[1:]):
            origin = None
        element = self.element
        if element is not None and not self.mixed:
            return Word(
                text, element.span, element.origin, self.reason, self.splat, None if self.call else use_span
            )
        prefix = "".join(self.parts[: self.known]) if text is None and self.known else None
        return Word(text, span, origin, self.reason, self.splat, prefix=prefix or None)


def assemble(pieces: list[Piece]) -> list[Field]:
    """Word splitting: join pieces into fields, splitting unquoted expansion results."""
    fields: list[Field] = []
    current = Field()
    for piece in pieces:
        quoted, origin = piece[2], piece[3]
        if piece[0] == "lit":
            text = piece[1]
            current.parts.append(text)
            if text:
                current.mixed = True
            if text or quoted:
                current.exists = True
        elif piece[0] == "val":
            text = piece[1]
            if quoted:
                if origin is not None:
                    current.origins.append(origin)
                current.parts.append(text)
                current.mixed = current.mixed or bool(text)
                current.exists = True
                continue
            current = _split_into(text, current, fields, None, origin, piece[4])
        elif piece[0] == "dyn":
            if origin is not None:
                current.origins.append(origin)
            if current.reason is None:
                current.known = len(current.parts)
            current.reason = current.reason or piece[1]
            current.splat = current.splat or bool(piece[4])
            current.exists = True
            current.mixed = True
        else:  # "arr"
            for position, element in enumerate(piece[1]):
                if position > 0:
                    if current.exists:
                        fields.append(current)
                    current = Field()
                current.call = bool(piece[4])
                if quoted:
                    _add_element(current, element, quoted=True)
                elif element.text is None:
                    _add_element(current, element, quoted=False)
                else:
                    current = _split_into(element.text, current, fields, element)
    if current.exists:
        fields.append(current)
    return fields


def _add_element(field: Field, element: Word, quoted: bool) -> None:
    if field.exists or field.parts:
        field.mixed = True
    else:
        field.element = element
    if element.text is None:
        field.reason = field.reason or element.dynamic_reason or "unknown array element"
        field.splat = field.splat or element.splat or not quoted
    else:
        field.parts.append(element.text)
    field.exists = True


def _split_into(
    text: str,
    current: Field,
    fields: list[Field],
    element: Word | None,
    origin: Span | None = None,
    written: Span | WrittenChars | None = None,
) -> Field:
    """Append an unquoted expansion result, starting a new field at each blank run (when it
    splits into words and `written` says where the text is, each word at its place there)."""
    chunks = _ifs_split().split(text)
    if written is not None and sum(1 for chunk in chunks if chunk) < 2:
        written = None  # one word: it points where the variable is used, its value noted
    at = 0
    for position, chunk in enumerate(chunks):
        if position > 0:
            if current.exists:
                fields.append(current)
            call, current = current.call, Field()
            current.call = call
            if written is not None:
                at += len(_ifs_split().match(text, at).group())  # type: ignore[union-attr]
        if written is not None and chunk:
            if isinstance(written, Span):
                column = written.column + at
                element = Word(chunk, Span(written.line, column, written.line, column + len(chunk)))
            else:  # (`written_chars`: a double-quoted string with expansions or escapes)
                element = Word(chunk, written.span(at, len(chunk)))
            at += len(chunk)
        if chunk:
            if origin is not None:
                current.origins.append(origin)
            if element is not None and not current.exists and not current.parts:
                current.element = element
            elif current.exists or current.parts:
                current.mixed = True
            if has_unescaped(chunk, "*?["):
                current.reason = (
                    current.reason or f"unquoted `{chunk}` is a glob pattern (depends on the files present)"
                )
                current.splat = True
            current.parts.append(chunk)
            current.exists = True
    return current
