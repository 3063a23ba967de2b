"""A release's flags looked up by option string, by dest or by position, each `FlagSpec` made
on first lookup.

Why: a release has ~530 flags and a launch uses a few dozen. Making every `FlagSpec` when a
release's schema is built cost ~16 K instructions a flag, ~5% of a cold `speclint FILE` run.
These views hold table indexes (`speclint.sglang.flags.schema`); `make` turns an index into
the one `FlagSpec` of that definition (made once, shared with every other view). Iterating
keys (option strings, dests) makes nothing; reading values makes each one read.
"""

from __future__ import annotations

from _collections_abc import Mapping, Sequence  # (as os.py does: collections.abc is an import more)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import Any, TypeVar, overload

    Spec = TypeVar("Spec")
    """What `make` returns (`speclint.sglang.flags.schema.FlagSpec`: not imported, which would
    make an import cycle)."""
else:
    Spec = object  # (no `typing` on the lint path)


class SpecsByKey(Mapping[str, Spec]):
    """key (option string or dest) -> Spec, in the order of `where` (a dict's)."""

    __slots__ = ("_where", "_make", "orders", "made")

    def __init__(
        self,
        where: dict[str, int],
        make: Callable[[int], Spec],
        orders: tuple[tuple[str, ...], dict[str, int], tuple[str, ...]] | None = None,
    ) -> None:
        self._where = where
        self._make = make
        self.orders = orders
        """For option strings: (the keys sorted, key -> its rank among the keys, the `--` keys
        sorted), as `FlagSchema` would work them out (kept with the release)."""
        self.made: dict[str, Spec] = {}
        """The keys `get` answered, and their Spec: `made.get(key) or get(key)` answers a key
        asked before without a Python call (argparse's lookup of each option word)."""

    def __getitem__(self, key: str) -> Spec:
        return self._make(self._where[key])

    @property
    def keys_set(self) -> Mapping[str, int]:
        """The keys, for `in` tests answered without a Python call (resolution and the rules
        ask whether a dest exists thousands of times a batch)."""
        return self._where

    def __contains__(self, key: object) -> bool:
        return key in self._where

    def get(self, key: str, default: object = None) -> Spec | None:  # type: ignore[override]
        at = self._where.get(key)
        if at is None:
            return default  # type: ignore[return-value]
        found = self.made[key] = self._make(at)
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(self._where)

    def __len__(self) -> int:
        return len(self._where)

    def __repr__(self) -> str:
        return repr(dict(self.items()))


class SpecList(Sequence[Spec]):
    """The flags of a release in argparse order (a tuple's behaviour for reading)."""

    __slots__ = ("_indexes", "_make", "_required")

    def __init__(
        self, indexes: Sequence[int], make: Callable[[int], Spec], required: Sequence[int] = ()
    ) -> None:
        self._indexes = indexes
        self._make = make
        self._required = required
        """The indexes of the flags whose `required` is true, in order (read without making them)."""

    def required(self) -> tuple[Spec, ...]:
        """The flags whose `required` is true, in order."""
        return tuple(map(self._make, self._required))

    if TYPE_CHECKING:

        @overload
        def __getitem__(self, at: int) -> Spec: ...
        @overload
        def __getitem__(self, at: slice) -> tuple[Spec, ...]: ...

    def __getitem__(self, at: int | slice) -> Spec | tuple[Spec, ...]:
        if isinstance(at, slice):
            return tuple(map(self._make, self._indexes[at]))
        return self._make(self._indexes[at])

    def __iter__(self) -> Iterator[Spec]:
        return map(self._make, self._indexes)

    def __len__(self) -> int:
        return len(self._indexes)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (SpecList, tuple)):
            return tuple(self) == tuple(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(tuple(self))


Indexes = tuple[
    dict[str, int], dict[str, int], tuple[int, ...], tuple[str, ...], dict[str, int], tuple[str, ...]
]
"""A release's flags by table index (`speclint.sglang.flags.schema`): (by option string (-1:
`-h/--help`), by dest, the required ones, every option string sorted, option string -> its rank
in the first, the `--` ones sorted): what `load_schema` builds its views and `FlagSchema`'s
lookups from, without making any FlagSpec."""


def indexes_of(order: list[int], fields: tuple[tuple[Any, ...], ...], add_help: bool) -> Indexes:
    """A release's `Indexes`, from its flags' table indexes and FlagSpec fields in order."""
    by_option: dict[str, int] = {}
    by_dest: dict[str, int] = {}
    required: list[int] = []
    for index, one in zip(order, fields):
        for option in one[1]:
            by_option[option] = index
        by_dest.setdefault(one[0], index)
        if one[12]:
            required.append(index)
    if add_help:  # argparse registers -h/--help before any other flag
        by_option = {"-h": -1, "--help": -1, **by_option}
    every = tuple(sorted(by_option))
    rank = {option: rank for rank, option in enumerate(by_option)}
    return by_option, by_dest, tuple(required), every, rank, tuple(o for o in every if o.startswith("--"))
