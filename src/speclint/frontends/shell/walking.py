"""What the walker's helpers may use of it, so that they need not import `walk`, which
imports them: `launch`, `nested`, `builtin_commands`, `alternatives`, `assignments` and
`conditionals` are handed the `walk.Walker` of the buffer being read, typed by this protocol."""

from __future__ import annotations

from typing import Protocol

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from tree_sitter import Node

    from speclint.core.launches import Alternative, ExtractResult, Launch
    from speclint.core.spans import Span
    from speclint.core.words import Word
    from speclint.frontends.shell.alias_defs import Alias
    from speclint.frontends.shell.choices import Choice
    from speclint.frontends.shell.expand import Arg, Expander
    from speclint.frontends.shell.function_defs import CallReadings, Definition
    from speclint.frontends.shell.text import TextMap
    from speclint.frontends.shell.variables import Env

    UnitReader = Callable[[str, str, dict[str, str], Callable[[Span], Span], str], ExtractResult]
    """(unit text, path, names standing for unknown text -> why, where a unit position is
    in the script, where the unit is written) -> what the unit launches. Where it is
    `python_heredoc.PYTHON_STDIN`, the text is a Python program read from standard input."""


class Walking(Protocol):
    """A `walk.Walker`, as its helpers see it."""

    result: ExtractResult
    path: str
    tm: TextMap
    env: Env
    depth: int
    """0 for the file's own buffer, 1 + its parent's for a nested one (`bash -c`, an alias call)."""
    image: tuple[str | None, Span | None] | None
    """(image, image span) when the buffer runs inside `docker run IMAGE`."""
    collect: bool
    """False while pre-walking a loop body to learn what it assigns (no launches recorded)."""
    functions: dict[str, set[str]]
    """The shell functions defined so far, each with the globals it assigns."""
    alternative: Alternative | None
    """Set while a command is walked for one choice of branch arms."""
    definitions: dict[str, Definition]
    """The shell functions defined so far, by name (`functions`)."""
    calls: CallReadings
    """The function calls being read (`functions`)."""
    unit_reader: UnitReader | None
    """Reads a systemd unit a here-document writes (`unit_heredoc`); None: not read."""
    exported_functions: set[str]
    """The functions `export -f` passes to an inner bash."""
    aliases: dict[str, Alias]
    """The aliases defined so far, by name."""

    def statement(self, node: Node) -> None: ...

    def follow_call(self, node: Node, args: list[Arg], prefix: dict[str, Word]) -> bool: ...

    def add_launch(self, launch: Launch) -> None: ...

    def expander(self) -> Expander: ...

    def line_of(self, node: Node) -> int: ...

    def parse_nested(
        self,
        arg: Arg | list[Arg],
        inherited: dict[str, Word] | None,
        image: tuple[str | None, Span | None] | None,
        unknown: str = "",
        functions: dict[str, Definition] | None = None,
        outer: Env | None = None,
        unknown_words: bool = False,
    ) -> None: ...

    def exported_definitions(self) -> dict[str, Definition]: ...

    def walk_nested(
        self,
        tm: TextMap,
        placeholders: dict[str, str],
        inherited: dict[str, Word] | None,
        image: tuple[str | None, Span | None] | None,
        unknown: str,
        functions: dict[str, Definition] | None = None,
        outer: Env | None = None,
    ) -> None: ...

    def walk_command(self, node: Node) -> None: ...

    def block(self, nodes: list[Node]) -> None: ...

    def branches(
        self, groups: list[list[Node]], fallthrough: bool, line: int, arms: list[Choice] | None = None
    ) -> None: ...
