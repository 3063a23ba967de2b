"""Where a thing is written: a region of the linted file (or of a file it names).

Every layer points at text through `Span`: front-ends set it, rules report it, reports print
it, fixes edit it.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from dataclasses import dataclass as _dataclass
    from typing import TypeVar

    from typing_extensions import dataclass_transform

    _Record = TypeVar("_Record")

    @dataclass_transform(frozen_default=True)
    def dataclass(*, slots: bool) -> Callable[[type[_Record]], type[_Record]]:
        """A value record (`Span`, `core.words.Word`): frozen for the type checker."""
        return _dataclass(slots=slots, frozen=True)
else:
    from speclint.core.records import dataclass


# Frozen for the type checker (mypy refuses an assignment to a field), not at run time: a
# frozen class must set each field through its slot's setter (`core.slot_init`), a plain one
# with `self.x = x`, and a lint makes ~80 Spans and Words per launch script (a frozen Span
# cost 5.3 K instructions to make, a plain one 2.3 K; a Word 7.3 K against 2.5 K). Hashed
# by value, as a frozen record is: `__hash__` (the one `dataclasses` gives a frozen record) is
# set after the class is made, so that it is still made from its kept recipe (`core.recipes`
# leaves a class with its own `__hash__` to `dataclasses`).
@dataclass(slots=True)
class Span:
    """A region of the original file. Lines and columns are 1-based; `end_column` is exclusive.

    Columns count characters (code points) of the decoded line, as editors and ruff do.
    """

    line: int
    column: int
    end_line: int
    end_column: int
    file: str | None = None
    """Set when the region is in another file than the one linted (the YAML file a launch's
    `--config` names): findings there carry that path, and no fix edits it."""

    @staticmethod
    def point(line: int, column: int) -> Span:
        return Span(line, column, line, column + 1)

    def sub(self, start: int, stop: int) -> Span:
        """The part of a single-line span from character offset `start` to `stop`."""
        if self.line != self.end_line:
            return self
        return Span(self.line, self.column + start, self.line, self.column + stop, self.file)

    def contains(self, other: Span) -> bool:
        """Whether `other` lies within this region (by line and column; files not compared)."""
        return (self.line, self.column) <= (other.line, other.column) and (
            other.end_line,
            other.end_column,
        ) <= (
            self.end_line,
            self.end_column,
        )


def _span_hash(self: Span) -> int:
    return hash((self.line, self.column, self.end_line, self.end_column, self.file))


type.__setattr__(Span, "__hash__", _span_hash)
