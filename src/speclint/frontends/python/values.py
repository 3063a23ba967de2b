"""What a Python expression evaluates to, as far as the file says without running it.

Strings keep, character by character, where they are written (so a launch inside a
triple-quoted string or an f-string is reported at the right column); anything that needs
running code (a call result, a parameter, an inherited environment variable) is unknown, with a reason.
"""

from __future__ import annotations

from collections import ChainMap
from collections.abc import MutableMapping
from dataclasses import field, fields, replace
from operator import attrgetter
from typing import cast

from speclint.core.launches import Condition
from speclint.core.records import dataclass
from speclint.frontends.python import syntax as py
from speclint.frontends.shell.pieces import known_text, unknown_reason

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

    from speclint.core.identity import Identity
    from speclint.core.spans import Span
    from speclint.frontends.shell.pieces import Piece


@dataclass(slots=True)
class Entry:
    """One key of a dict value; `key` None stands for `**mapping` with unknown keys."""

    key: str | None
    key_span: Span
    value: Val


Env = MutableMapping[str, "Val"]
"""Name (or '@self.X') -> value: a dict, or a ChainMap of layers (a scope over the ones it sees)."""


class Scope(ChainMap[str, "Val"]):
    """A ChainMap of layers whose `get` and `in` look through the layers in one loop
    (ChainMap's own go through `__contains__`, a generator and `__getitem__`: four calls
    for each name the walker reads). The same answers for layers that are dicts or scopes."""

    def get(self, key: str, default: Any = None) -> Any:
        for mapping in self.maps:
            if key in mapping:
                return mapping[key]
        return default

    def __contains__(self, key: object) -> bool:
        for mapping in self.maps:
            if key in mapping:
                return True
        return False


Choice = tuple[tuple[Condition, ...], "Val"]
"""One alternative of a value after `if` arms: the conditions that make it, and the value."""


@dataclass(slots=True)
class Val:
    """A statically evaluated expression. `kind`: 'str', 'const' (int, float, bool, None),
    'list', 'dict' or 'unknown'."""

    kind: str
    span: Span
    begin: int
    end: int
    value: object = None
    """const: the value; list: list[Val]; dict: list[Entry]."""
    pieces: list[Piece] = field(default_factory=list)
    """str: the text, with where each run is written."""
    origin: Span | None = None
    """Where the value was assigned, when read through a name."""
    reason: str | None = None
    splat: bool = False
    """An unknown list element standing for any number of elements (`*extra`)."""
    weight: int = 1
    """Characters of text plus ITEM_WEIGHT per list element or dict entry, nested ones
    included (see `bounded`)."""
    identity: Identity | None = None
    """unknown: which value it is, when the file names it (a parameter `k`, `k + 1`)."""
    shell_code: bool = False
    """str inside a list: text split into words (`shlex.split(...)`), not one element."""
    alternatives: tuple[Choice, ...] | None = None
    """unknown after `if` arms that left different values: ((conditions, value), ...), one
    per choice (`branches`); () when there were more than MAX_ALTERNATIVES."""
    in_place: bool = False
    """An element a loop or comprehension binds to its name (`for k, v in FLAGS.items()`):
    read where the element is written (the dict entry), not at the name, which is the same
    for every pass (`comprehensions.elements`)."""

    @property
    def elements(self) -> list[Val]:
        """list: the elements (`value` of a 'list')."""
        return self.value  # type: ignore[return-value]  # (`typing.cast` is a Python call)

    @property
    def entries(self) -> list[Entry]:
        """dict: the entries (`value` of a 'dict')."""
        return cast("list[Entry]", self.value)

    @property
    def word_identity(self) -> Identity | None:
        """The identity of the one word this value makes (`k`, `str(k)`, f"{k}")."""
        if self.kind == "unknown" and not self.splat:
            return self.identity
        if self.kind == "str" and len(self.pieces) == 1 and self.pieces[0].text is None:
            return self.pieces[0].identity
        return None

    @property
    def text(self) -> str | None:
        if self.kind == "str":
            return known_text(self.pieces)
        if self.kind == "const" and not isinstance(self.value, bool) and self.value is not None:
            return str(self.value)
        if self.kind == "const":
            return str(self.value)
        return None

    def why_unknown(self) -> str:
        if self.kind == "str":
            return unknown_reason(self.pieces) or "value not known statically"
        return self.reason or "value not known statically"

    def python(self) -> tuple[object, bool]:
        """(the Python value, whether it is known)."""
        if self.kind == "const":
            return self.value, True
        if self.kind == "str":
            text = self.text
            return text, text is not None
        if self.kind == "list":
            items: list[object] = []
            for item in self.elements:
                value, known = item.python()
                if not known or item.splat or item.shell_code:
                    return None, False
                items.append(value)
            return items, True
        if self.kind == "dict":
            mapping: dict[str, object] = {}
            for entry in self.entries:
                value, known = entry.value.python()
                if entry.key is None or not known:
                    return None, False
                mapping[entry.key] = value
            return mapping, True
        return None, False


_VAL_FIELDS = attrgetter(*(item.name for item in fields(Val)))
"""A Val's fields, in order, read in one call (`val_with`)."""


def val_with(value: Val, /, **changes: Any) -> Val:
    """`dataclasses.replace(value, **changes)`: a copy of `value` with `changes` set, its
    fields read at once (`replace` reads the class's field list per call, and the walker
    copies a value per name read and per `+=`)."""
    made = Val(*_VAL_FIELDS(value))
    for name, new in changes.items():
        setattr(made, name, new)
    return made


MAX_WEIGHT = 64 * 1024
"""A value heavier than this is unknown: `a = a + a` forty times (or a dict holding itself
twice, forty deep) would otherwise take all memory, as `A=$A$A` would in shell."""
ITEM_WEIGHT = 16
"""Weight of one list element or dict entry: at most 4096 of them in one value."""


_WEIGHT = attrgetter("weight")


def bounded(value: Val) -> Val:
    """`value` with its weight set from its parts, or unknown when it is too heavy."""
    if value.kind == "str":
        pieces = value.pieces
        if len(pieces) == 1 and pieces[0].text is not None:  # (most strings: one piece)
            weight = len(pieces[0].text)
        else:
            weight = sum(len(p.text) if p.text is not None else 1 for p in pieces)
    elif value.kind == "list":
        elements = value.elements  # ITEM_WEIGHT, and ITEM_WEIGHT more per element
        weight = ITEM_WEIGHT * (len(elements) + 1) + sum(map(_WEIGHT, elements))
    elif value.kind == "dict":
        weight = ITEM_WEIGHT + sum(ITEM_WEIGHT + e.value.weight for e in value.entries)
    else:
        weight = 1
    if weight > MAX_WEIGHT:
        return replace(
            value,
            kind="unknown",
            value=None,
            pieces=[],
            weight=1,
            reason=f"grows past {MAX_WEIGHT // 1024} KiB or {MAX_WEIGHT // ITEM_WEIGHT} "
            "elements; speclint does not follow it",
        )
    value.weight = weight
    return value


def attribute_key(node: py.BaseExpression) -> str | None:
    """`self.other_args` / `cls.other_args` -> '@self.other_args': an attribute of the
    class a method runs in, kept in the walker's environment under that key."""
    if (
        isinstance(node, py.Attribute)
        and isinstance(node.value, py.Name)
        and node.value.value in ("self", "cls")
    ):
        return "@self." + node.attr.value
    return None


class Entries:
    """A dict value being built: a later key replaces an earlier one (and moves after any
    unknown merge before it), in constant time per key."""

    def __init__(self, entries: Iterable[Entry] = ()) -> None:
        self.items: list[Entry | None] = []
        self.where: dict[str, int] = {}
        self.weight = 0
        for entry in entries:
            self.set(entry)

    def set(self, entry: Entry) -> None:
        if entry.key is not None:
            old = self.where.get(entry.key)
            if old is not None:
                self.items[old] = None
            self.where[entry.key] = len(self.items)
        self.items.append(entry)
        self.weight += ITEM_WEIGHT + entry.value.weight

    def merge(self, value: Val, span: Span) -> None:
        """`{**value}` / `dict(value)` / `.update(value)`."""
        if value.kind == "dict":
            for entry in value.entries:
                self.set(entry)
        else:
            self.set(Entry(None, span, replace(value, kind="unknown", reason=value.why_unknown())))

    def list(self) -> list[Entry]:
        return [entry for entry in self.items if entry is not None]
