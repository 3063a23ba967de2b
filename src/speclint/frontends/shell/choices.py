"""The arms of branches a variable's value depends on: what `variables.Env` keeps per path
where the paths disagree (`alternatives` walks a command once per consistent choice)."""

from __future__ import annotations

from speclint.core.launches import MAX_ALTERNATIVES

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Protocol, TypeVar

    from speclint.frontends.shell.arms import Choice as Choice

    V = TypeVar("V", bound="Tracked")
    """The tracked value (variables.VarValue, which imports this module)."""

    Alternatives = tuple[tuple[tuple["Choice", ...], V | None], ...]
    """(the arms that give it, the value; None: the variable is not assigned on that path)."""

    class Tracked(Protocol):
        """What `arm_alternatives` reads of a value: why it is unknown, and its alternatives."""

        @property
        def reason(self) -> str | None: ...

        @property
        def alternatives(self: V) -> Alternatives[V] | None: ...

        @property
        def readable(self) -> bool: ...


def arm_alternatives(values: list[V | None], arms: list[Choice]) -> Alternatives[V] | None:
    """The alternatives of a variable whose value on arm i is `values[i]` (None: not assigned
    there), or None when they cannot be tracked (nothing readable on any arm, or too many)."""
    found: list[tuple[tuple[Choice, ...], V | None]] = []
    literal = False
    for value, arm in zip(values, arms):
        nested = value.alternatives if value is not None else None
        if nested:
            for choices, inner in nested:
                found.append(((arm, *choices), inner))
                literal = literal or (inner is not None and inner.readable)
        else:
            found.append(((arm,), value))
            literal = literal or (value is not None and value.readable)
        if len(found) > MAX_ALTERNATIVES:
            return None
    return tuple(found) if literal else None


def __getattr__(name: str) -> object:
    """`Choice`, from `arms`: its record class is made only for a script with branches."""
    if name == "Choice":
        from speclint.frontends.shell.arms import Choice

        return Choice
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
