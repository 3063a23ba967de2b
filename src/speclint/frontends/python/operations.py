"""What Python's operators make of values the evaluator knows (`evaluator.Evaluator`): the
truth that `or`/`and` test, an int that `+`/`-` add, and an unknown value's identity shifted by
an int (`k + 1`)."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.identity import Identity
    from speclint.frontends.python.values import Val


def truth_of(value: Val) -> bool | None:
    """Python's truth of a value, None when not known (a list with only `*x` elements may be
    empty, a text with an unknown part may be too)."""
    if value.alternatives:
        return None
    if value.kind == "const":
        return bool(value.value)
    if value.kind == "str":
        text = value.text
        return None if text is None else bool(text)
    if value.kind == "list":
        elements = value.elements
        return True if any(not element.splat for element in elements) else (False if not elements else None)
    if value.kind == "dict":
        entries = value.entries
        return True if any(entry.key is not None for entry in entries) else (False if not entries else None)
    return None


def is_integer(value: Val) -> bool:
    """An int written or worked out (not a bool, which Python also calls an int)."""
    return value.kind == "const" and type(value.value) is int


def shifted_identity(value: Val, by: Val, sign: int) -> Identity | None:
    """`value + by` (sign 1) or `value - by` (sign -1) when value has an identity and `by`
    is an int."""
    if value.kind != "unknown" or value.identity is None or by.kind != "const" or type(by.value) is not int:
        return None
    return value.identity.shifted(sign * by.value)
