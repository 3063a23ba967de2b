"""The shell functions of a buffer and the calls being read (`functions` reads them): what the
walker keeps of each definition, and the launches each call reading made."""

from __future__ import annotations

from speclint.frontends.recognise import names_launcher

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tree_sitter import Node

    from speclint.core.launches import Condition, Launch
    from speclint.frontends.shell.text import TextMap
    from speclint.frontends.shell.variables import Env


class Definition:
    """One `name() { ...; }` of the buffer: its body and how it has been read."""

    __slots__ = ("name", "body", "tm", "snapshot", "readings", "_callees", "_launches")

    def __init__(self, name: str, body: Node, tm: TextMap, snapshot: Env) -> None:
        self.name = name
        self.body = body
        self.tm = tm
        """The buffer the body is written in (a call from an inner `bash -c` shell, which
        inherits an exported function, reads it there)."""
        self.snapshot = snapshot
        """The variables at the definition (for its own reading, when no call is read)."""
        self.readings = 0
        """Calls read with their words."""
        self._callees: set[str] | None = None
        self._launches: bool | None = None

    def callees(self) -> set[str]:
        """Names of the commands its body runs (the functions it may call)."""
        tm = self.tm
        if self._callees is None:
            names: set[str] = set()
            stack = [self.body]
            while stack:
                node = stack.pop()
                if node.type == "command":
                    name = node.child_by_field_name("name")
                    if name is not None:
                        names.add(tm.node_text(name))
                stack.extend(node.named_children)
            self._callees = names
        return self._callees

    def may_launch(self, definitions: dict[str, Definition], seen: set[str]) -> bool:
        """Whether reading the body with a call's words may find a launch: it names the
        launcher or a prefixed flag, or calls a function that may."""
        if self._launches is None:
            raw = self.tm.data[self.body.start_byte : self.body.end_byte]
            from speclint.frontends.manifests import prefixed

            if names_launcher(raw) or prefixed.mentions(raw):
                self._launches = True
                return True
            seen.add(self.name)
            cut = False  # a callee already being looked at: not known yet, so not kept
            for name in self.callees():
                if name in definitions and name in seen:
                    cut = True
                elif name in definitions and definitions[name].may_launch(definitions, seen):
                    self._launches = True
                    return True
            if not cut:
                self._launches = False
            return False
        return self._launches


class CallReadings:
    """What the walkers of one file share about the calls being read."""

    __slots__ = ("stack", "made")

    def __init__(self) -> None:
        self.stack: list[tuple[Definition, Condition]] = []
        """The calls being read, outermost first."""
        self.made: list[tuple[Launch, tuple[Condition, ...]]] = []
        """Each launch a call reading made, with the calls it was made in."""

    def note(self, launch: Launch) -> None:
        if self.stack:
            self.made.append((launch, tuple(condition for _, condition in self.stack)))

    def mark(self, launches: list[Launch]) -> None:
        """Make the launches of one body read for several calls alternatives of one launch."""
        kept = {id(launch) for launch in launches}
        groups: dict[object, list[tuple[Launch, tuple[Condition, ...]]]] = {}
        for launch, chain in self.made:
            if id(launch) in kept:
                groups.setdefault(launch.span, []).append((launch, chain))
        for members in groups.values():
            if len(members) < 2:
                continue
            from speclint.core.conditions import Alternative

            common = set(members[0][1]).intersection(*(chain for _, chain in members[1:]))
            for index, (launch, chain) in enumerate(members):
                inner = launch.alternative.conditions if launch.alternative is not None else ()
                calls = tuple(c for c in reversed(chain) if c not in common)  # innermost first
                launch.alternative = Alternative(calls + inner, index, len(members))


_SCOPED_DECLARATIONS = ("local", "declare", "typeset")


def globals_assigned(body: Node, tm: TextMap) -> set[str]:
    """Names a function body assigns outside `local`/`declare` (what a call may change)."""
    names: set[str] = set()
    stack = [body]
    while stack:
        node = stack.pop()
        if (
            node.type == "declaration_command"
            and node.children
            and node.children[0].type in _SCOPED_DECLARATIONS
        ):
            continue
        if node.type == "variable_assignment":
            target = node.child_by_field_name("name")
            if target is not None:
                if target.type == "subscript":
                    target = target.child_by_field_name("name") or target
                names.add(tm.node_text(target))
        if node.type == "command" and node.parent is not None and node.parent.type == "command_substitution":
            continue
        stack.extend(node.named_children)
    return names
