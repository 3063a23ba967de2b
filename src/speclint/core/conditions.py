"""The conditions a launch's values depend on (`core.launches.Launch.alternative`): made only
for a file whose launches depend on a branch."""

from __future__ import annotations

from speclint.core.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.spans import Span


@dataclass(frozen=True, slots=True)
class Condition:
    """One arm of a conditional a launch's values depend on (`if`/`elif`/`else`, a `case`
    pattern, the right side of `&&`, an `if` arm of Python code around `kwargs.update`)."""

    span: Span
    """Where the arm is written (its keyword or pattern): findings point their notes here."""
    description: str
    """A clause a note reads as "when {description}": "the `else` branch at line 5 runs"."""


@dataclass(frozen=True, slots=True)
class Alternative:
    """Marks a Launch as one of several alternatives of the same command: the script chooses
    between literal values at run time (`if ...; then TP=8; else TP=4; fi`), so the front-end
    emits one Launch per choice, all with the same `span`. The engine checks each and reports
    a finding once: without a note when every alternative has it, else with a note naming
    the conditions of the alternatives that have it (`speclint.rules.alternatives`)."""

    conditions: tuple[Condition, ...]
    """The arms that make this alternative (one per conditional it depends on), in file order."""
    index: int = 0
    """Position among the alternatives of this launch (0 is counted as the launch)."""
    count: int = 1
    """How many alternatives the launch has."""

    @property
    def description(self) -> str:
        """ "the `then` branch at line 3 runs and the `8)` case at line 9 runs"."""
        return " and ".join(c.description for c in self.conditions)
