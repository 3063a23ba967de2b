"""What speclint reports: findings, their severities and notes, and the edits that fix them.

Rules make findings; suppressions, reports, fixes, the cache, the editor server and preflight
read them.
"""

from __future__ import annotations

from dataclasses import field

from speclint.core.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import ClassVar

    from speclint.core.edits import Edit as Edit
    from speclint.core.notes import Note as Note
    from speclint.core.spans import Span


class _Severities(type):
    """`Severity`'s class: its members by name (`Severity["ERROR"]`) and in order (`for
    severity in Severity`, `len(Severity)`), as an enum's class gives them."""

    def __iter__(cls) -> Iterator[Severity]:
        return iter(_MEMBERS)

    def __len__(cls) -> int:
        return len(_MEMBERS)

    def __getitem__(cls, name: str) -> Severity:
        return _BY_NAME[name]


class Severity(int, metaclass=_Severities):
    """How bad a finding is: INFO < WARNING < ERROR, each an int (0, 1, 2) and the one object
    of its value (`Severity(2) is Severity.ERROR`, as after pickling or the cache's decoding).

    What `enum.IntEnum` gave it (`name`, `value`, members by name and in order, its `repr`,
    the int's `str` and format) without `enum`: importing it and making the class cost ~7 M
    instructions of a cold one-file run, and no other module of a shell lint needs it."""

    __slots__ = ()
    INFO: ClassVar[Severity]
    WARNING: ClassVar[Severity]
    ERROR: ClassVar[Severity]

    def __new__(cls, value: int) -> Severity:
        if type(value) in (int, Severity) and 0 <= value < len(_MEMBERS):
            return _MEMBERS[value]
        raise ValueError(f"{value!r} is not a valid Severity")

    def __reduce__(self) -> tuple[type[Severity], tuple[int]]:
        return Severity, (int(self),)

    def __repr__(self) -> str:
        return f"<Severity.{self.name}: {int(self)}>"

    __str__ = int.__repr__
    __format__ = int.__format__

    @property
    def name(self) -> str:
        return _NAMES[self]

    @property
    def value(self) -> int:
        return int(self)

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Severity:
        return _BY_NAME[text.upper()]


_NAMES = ("INFO", "WARNING", "ERROR")
_MEMBERS: tuple[Severity, ...] = tuple(int.__new__(Severity, value) for value in range(len(_NAMES)))
_BY_NAME = dict(zip(_NAMES, _MEMBERS))
Severity.INFO, Severity.WARNING, Severity.ERROR = _MEMBERS


@dataclass(slots=True)
class Finding:
    """One problem a rule found: where, how bad, what SGLang will do, and how to fix it."""

    code: str
    name: str
    severity: Severity
    path: str
    span: Span
    message: str
    fix_hint: str = ""
    """One line saying what to write instead."""
    notes: list[Note] = field(default_factory=list)
    launch_span: Span | None = None
    """The whole launch command the finding is about (suppression comments cover it)."""
    fix: Edit | tuple[Edit, ...] | None = None
    """Edits `--fix` applies: only for changes that are certain."""
    claims: tuple[str, ...] = ()
    """Problems this finding reports besides its token (`precedence.REJECTION`: the
    launch's resolution stops): a general rule's finding with the same claim gives way."""


def __getattr__(name: str) -> object:
    """`Note` and `Edit`, each from a module of its own: a record class costs ~0.5 M
    instructions to make, and a launch without findings (or with plain ones) needs neither."""
    if name == "Note":
        from speclint.core.notes import Note

        return Note
    if name == "Edit":
        from speclint.core.edits import Edit

        return Edit
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
