"""What `atoms` keeps of a big file for a class deriving from another class of the file: the
`self.X` its bases' methods write are looked for where its own methods read them, and the
statements of its methods that run a base's (`super().__init__(port=port)`, `Base.__init__(
self, ...)`: `classes.walk_super` reads the `self.X` they set with the arguments they pass)
are kept with the names they read."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Protocol

    class Atoms(Protocol):  # (`atoms.Atoms`, which imports this module)
        attr_writes: list[tuple[int, str]]
        scope_up: dict[int, int]
        wscope: list[int]
        class_bases: dict[int, list[str]]
        classes: dict[str, int]
        seed: list[bool]


_RUNS_BASE = frozenset({"super", "__init__"})


def inherit_attribute_writers(
    atoms: Atoms, writers: dict[tuple[int, str], list[int]], words: list[set[str]]
) -> None:
    """Add each base's `self.X` writers under each subclass's scope, and keep (seed) the
    statements of a subclass's methods that run a base's method."""
    by_class: dict[int, list[tuple[int, str]]] = {}
    for atom, name in atoms.attr_writes:
        by_class.setdefault(atoms.scope_up.get(atoms.wscope[atom], -1), []).append((atom, name))
    derived: set[int] = set()
    for subclass, bases in atoms.class_bases.items():
        seen: set[int] = set()
        stack = list(bases)
        while stack:
            base = atoms.classes.get(stack.pop())
            if base is None or base in seen or base == subclass:
                continue
            seen.add(base)
            derived.add(subclass)
            for atom, name in by_class.get(base, ()):
                writers.setdefault((subclass, name), []).append(atom)
            stack.extend(atoms.class_bases.get(base, []))
    if not derived:
        return
    for atom, found in enumerate(words):
        if not atoms.seed[atom] and not found.isdisjoint(_RUNS_BASE):
            if atoms.scope_up.get(atoms.wscope[atom], -1) in derived:  # a statement of a method
                atoms.seed[atom] = True
