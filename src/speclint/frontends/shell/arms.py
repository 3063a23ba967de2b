"""One arm of a conditional a variable's value depends on (`choices`), in a module of its own:
its record class is made only for a script with branches (~0.5 M instructions)."""

from __future__ import annotations

from speclint.core.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.conditions import Condition
    from speclint.core.spans import Span


@dataclass(frozen=True, slots=True)
class Choice:
    """One arm of one conditional construct."""

    construct: tuple[str, Span]
    """Identifies the construct (its kind and where it is written)."""
    arm: int
    condition: Condition
