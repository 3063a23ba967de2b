"""One flag as written in a launch and what SGLang's argparse makes of it (`argv.parse_argv`
makes these; `speclint.sglang.flags.argv` gives it too)."""

from __future__ import annotations

from speclint.core.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.spans import Span
    from speclint.core.words import Word
    from speclint.sglang.flags.schema import FlagSpec


@dataclass(slots=True)
class FlagUse:
    """One flag as written in the launch, and what argparse makes of it."""

    word: Word
    written: str
    """The option part as written (`--tp` of `--tp=8`)."""
    spec: FlagSpec | None
    matched: str | None = None
    """The option string it resolved to (`--tp-size`)."""
    how: str = "exact"
    """'exact', 'prefix' (a unique abbreviation), 'ambiguous' or 'unknown'."""
    candidates: tuple[str, ...] = ()
    value_words: tuple[Word, ...] = ()
    value: object = None
    dynamic: bool = False
    """True when the value (or the flag's presence) cannot be known statically."""
    option_span: Span | None = None
    value_span: Span | None = None
    position: int = 0
    """Index of the flag's word in the argv (later words win)."""

    @property
    def span(self) -> Span:
        return self.option_span or self.word.span

    @property
    def raw_values(self) -> list[str | None]:
        return [w.text for w in self.value_words]
