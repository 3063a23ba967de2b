"""SGLang's refusal of a launch (`result.Resolution.rejection`), in a module of its own:
most launches are not refused, and a record class costs ~0.5 M instructions to make."""

from __future__ import annotations

from speclint.core.records import dataclass


@dataclass(frozen=True, slots=True)
class Rejection:
    """SGLang stops the launch during argument resolution."""

    exception: str
    """The exception type SGLang raises (`AssertionError`, `ValueError`, `TypeError`)."""
    message: str
    handler: str
    fields: tuple[str, ...] = ()
    """The fields whose values cause it (findings point at their flags)."""
    kind: str = ""
    """Which refusal it is, for the rules that explain one kind (`UNKNOWN_ALGORITHM`,
    `TREE_DRAFT_BACKEND`); empty for the others. Rules read this, never the message."""
