"""What the walker keeps of each `alias NAME='TEXT'` (`aliases` reads the calls)."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.spans import Span
    from speclint.frontends.shell.text import TextMap
    from speclint.frontends.shell.variables import Env


class Alias:
    """One `alias NAME='TEXT'`: its text as pieces of a buffer (text, file start, file end)."""

    __slots__ = ("name", "pieces", "placeholders", "span", "tm", "snapshot", "read")

    def __init__(
        self,
        name: str,
        pieces: list[tuple[str, int, int]],
        placeholders: dict[str, str],
        span: Span,
        tm: TextMap,
        snapshot: Env | None,
    ) -> None:
        self.name = name
        self.pieces = pieces
        self.placeholders = placeholders
        """Names standing for the unknown values expanded in a double-quoted alias -> why."""
        self.span = span
        """Where `NAME=...` is written."""
        self.tm = tm
        """The buffer the alias is defined in (its own uncalled reading happens there)."""
        self.snapshot = snapshot
        """The variables where it is defined, kept when its text names SGLang's launcher."""
        self.read = False
