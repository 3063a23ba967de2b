"""What `atoms` keeps of a big file for a class deriving from another class of the file (or
from one of SGLang's test fixtures: `keep_fixture_subclasses`): the
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
        class_roots: dict[int, list[str]]
        fixture_bases: set[str]
        parent: list[int]


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


def keep_fixture_subclasses(atoms: Atoms) -> None:
    """Classes deriving from a fixture base, directly or through classes of the file, with
    the statements of their bodies (the base's launch reads them)."""
    derived: set[str] = set()
    grew = True
    while grew:
        grew = False
        for name, atom in atoms.classes.items():
            bases = atoms.class_bases.get(atom, []) + atoms.class_roots.get(atom, [])
            if name not in derived and any(b in derived or b in atoms.fixture_bases for b in bases):
                derived.add(name)
                grew = True
    kept = {atoms.classes[name] for name in derived}
    for atom in range(len(atoms.seed)):
        if atom in kept or atoms.wscope[atom] in kept and atoms.parent[atom] in kept:
            atoms.seed[atom] = True
