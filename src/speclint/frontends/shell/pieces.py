"""Text pieces that know the file characters they stand for: what every front-end hands
the shell buffer (`embedded.ShellBuffer`), and the file positions of its characters."""

from __future__ import annotations

from bisect import bisect_right

from speclint.core.spans import Span, dataclass  # (a value record: see there)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.identity import Identity


@dataclass(slots=True)
class Piece:
    """A run of text and the file characters it stands for.

    `text` None means the value is unknown (`reason` says why). `exact` means character i
    of `text` is file character `begin + i`; otherwise every character maps to the whole
    `[begin, end)` range (a value read through a name, a decoded escape)."""

    text: str | None
    begin: int
    end: int
    exact: bool = False
    reason: str | None = None
    origin: Span | None = None
    identity: Identity | None = None
    """For an unknown run: which value it is, when the file names it (`{k}`)."""


def _piece_hash(self: Piece) -> int:
    """By value, as a frozen record's (`core.spans`: set after the class is made; a Python
    or Markdown file makes a Piece of every literal and argv word)."""
    return hash((self.text, self.begin, self.end, self.exact, self.reason, self.origin, self.identity))


type.__setattr__(Piece, "__hash__", _piece_hash)


def known_text(pieces: list[Piece]) -> str | None:
    if any(p.text is None for p in pieces):
        return None
    return "".join(p.text for p in pieces)  # type: ignore[misc]


def unknown_reason(pieces: list[Piece]) -> str | None:
    return next((p.reason or "value not known statically" for p in pieces if p.text is None), None)


def relocated(pieces: list[Piece], begin: int, end: int, origin: Span | None) -> list[Piece]:
    """A string's pieces as read through a name at [begin, end): each run of known text one
    piece written there (assigned at `origin`), each unknown run kept with its reason, so
    `f"python -m sglang.launch_server --tp 2 {extra}"` read as `cmd` keeps its known words."""
    out: list[Piece] = []
    for piece in pieces:
        if piece.text is None:
            reason = piece.reason or "value not known statically"  # as `unknown_reason`
            out.append(Piece(None, begin, end, reason=reason, origin=origin))
        elif out and out[-1].text is not None:
            out[-1] = Piece(out[-1].text + piece.text, begin, end, origin=origin)
        else:
            out.append(Piece(piece.text, begin, end, origin=origin))
    return out or [Piece("", begin, end, origin=origin)]


def line_starts(text: str) -> list[int]:
    starts = [0]
    pos = text.find("\n")
    while pos != -1:
        starts.append(pos + 1)
        pos = text.find("\n", pos + 1)
    return starts


def span_of(starts: list[int], begin: int, end: int) -> Span:
    """The Span of file characters [begin, end)."""
    line = bisect_right(starts, begin) - 1
    end_line = bisect_right(starts, max(end - 1, begin)) - 1
    end_column = end - starts[end_line] + 1 if end > begin else begin - starts[line] + 2
    return Span(line + 1, begin - starts[line] + 1, end_line + 1, end_column)
