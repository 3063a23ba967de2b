"""Where a thing is written: a region of the linted file (or of a file it names).

Every layer points at text through `Span`: front-ends set it, rules report it, reports print
it, fixes edit it.
"""

from __future__ import annotations

from speclint.core.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any


@dataclass(frozen=True, slots=True, init=False)
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

    def __init__(
        self, line: int, column: int, end_line: int, end_column: int, file: str | None = None
    ) -> None:
        # the `__init__` dataclasses writes, through the slots' own setters (`slot_setters`)
        _set_line(self, line)
        _set_column(self, column)
        _set_end_line(self, end_line)
        _set_end_column(self, end_column)
        _set_file(self, file)

    @staticmethod
    def point(line: int, column: int) -> Span:
        return Span(line, column, line, column + 1)

    def sub(self, start: int, stop: int) -> Span:
        """The part of a single-line span from character offset `start` to `stop`."""
        if self.line != self.end_line:
            return self
        return Span(self.line, self.column + start, self.line, self.column + stop, self.file)


def slot_setters(cls: type, *names: str) -> tuple[Callable[[Any, Any], None], ...]:
    """The setters of a slotted class's fields. A frozen dataclass's generated `__init__`
    sets each field with `object.__setattr__`, whose checks cost ~0.3 µs a field: a Span
    took 1.6 µs to make, and a batch makes tens of thousands of Spans and Words. Their own
    `__init__` calls these instead (a third of the time); tests/test_slot_setters.py checks they
    make the same objects as the generated one."""
    return tuple(vars(cls)[name].__set__ for name in names)


_set_line, _set_column, _set_end_line, _set_end_column, _set_file = slot_setters(
    Span, "line", "column", "end_line", "end_column", "file"
)
