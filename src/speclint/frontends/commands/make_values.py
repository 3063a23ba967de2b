"""What one reading of a makefile holds (`make.MakeReader` reads it): its variables and how
they expand (GNU make manual 6, "How to Use Variables"), and the branches of the conditionals
speclint cannot decide that this reading takes (`Choices`)."""

from __future__ import annotations

import re

from speclint.core.records import dataclass
from speclint.frontends.recognise import LAUNCH_TEXT
from speclint.frontends.shell.pieces import line_starts

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.frontends.commands.text import Char

_NAME = re.compile(r"[^\s:#=$(){},]+")
_AUTOMATIC = "@<^+*?%|"
_MAX_VALUE = 64 * 1024
MAX_WORLDS = 16
"""Readings of the file, one per choice of undecided branches, before values set in them are
read as unknown instead."""

Key = tuple[str, int]
"""A conditional branch: (the file it is in, its line)."""


@dataclass(frozen=True)
class Decision:
    """A branch speclint could not decide, and the way one reading takes it."""

    key: Key
    taken: bool
    at: int
    """File offset of the directive's keyword (in the linted file)."""
    length: int
    written: str
    """The directive as written (`ifeq ($(GPU),h100)`), shortened."""
    line: int
    where: str
    """'' in the linted file, else " of FILE" (an included makefile)."""

    def description(self) -> str:
        holds = "holds" if self.taken else "does not hold"
        return f"`{self.written}` at line {self.line}{self.where} {holds}"


class Choices:
    """How one reading takes the branches speclint cannot decide: those `fixed` as given, a new
    one taken (recorded in `new`, for the readings that take it the other way). `fixed` None:
    read every branch, the values they set unknown."""

    def __init__(self, fixed: dict[Key, bool] | None) -> None:
        self.fixed = fixed
        self.made: list[Decision] = []
        self.new: list[Key] = []

    def take(self, decision: Decision) -> bool | None:
        if self.fixed is None:
            return None
        taken = self.fixed.get(decision.key)
        if taken is None:
            taken = True
            self.new.append(decision.key)
        self.made.append(Decision(**{**decision.__dict__, "taken": taken}))
        return taken


@dataclass
class MakeVar:
    """A variable set in the makefile: its value's characters (expanded already when it is
    simply expanded), and the line that set it last."""

    chars: list[Char]
    simple: bool
    line: int


class MakeValues:
    """The variables of one reading: shared with the readers of the files it includes."""

    def __init__(self, text: str, path: str, choices: Choices, parent: MakeValues | None = None) -> None:
        self.text = text
        self.path = path
        """The linted makefile (included files are found from its folder, as make run there
        finds them)."""
        self.starts = line_starts(text)
        self.choices = choices
        self.vars: dict[str, MakeVar | str] = parent.vars if parent else {}
        """Name -> value, or the reason it is unknown."""
        self.exported: set[str] = parent.exported if parent else set()
        self.recipes: list[tuple[int, list[Char]]] = []
        """Each recipe line, prefixes dropped, with the number of the rule it belongs to."""
        self.rules = 0
        self.one_shell = False
        """`.ONESHELL:`: a rule's recipe lines run in one shell (5.3.1 "Using One Shell")."""
        self.expanded: dict[str, list[Char]] = parent.expanded if parent else {}
        """A recursively expanded variable's value, worked out once."""
        self.unread: dict[int, tuple[str, int]] = parent.unread if parent else {}
        """Offset of a make function call that names the launcher -> its name, its end."""
        self.launching: set[str] = parent.launching if parent else set()
        """Variables set with `define` whose text names the launcher."""
        self.missing: list[str] = parent.missing if parent else []
        """Each `include` whose file speclint could not read: what it may set is unknown."""
        self.included: dict[tuple[str, tuple[int, int]], list[int]] = parent.included if parent else {}
        """(included file, its `include` directive) -> lines of its recipes that name the
        launcher (not read as this file's)."""
        self.target_shells: list[tuple[str, str, int]] = parent.target_shells if parent else []
        """`SHELL` / `.SHELLFLAGS` set for a target (`serve: SHELL := python3`): (name, the
        value as written, its line); the file's own value stays for the other targets."""
        self.origin: tuple[int, int] | None = None
        """In an included file: the `include` directive in the linted file, where each of its
        characters points."""
        self.where = ""
        """'' in the linted file, else " of NAME"."""
        self.depth: int = parent.depth + 1 if parent else 0
        self.seen: set[str] = parent.seen if parent else set()
        self.said: list[tuple[int, int, str]] = parent.said if parent else []
        """The defaults of `$(or $(NAME),default)` read because the makefile never sets NAME:
        where each is written and what a finding on it says (`make_functions`)."""

    def child(self, text: str) -> MakeValues:
        """A reader of an included file's `text`, sharing these variables."""
        raise NotImplementedError

    def read(self) -> None:
        raise NotImplementedError

    def unset(self, name: str) -> str:
        why = f"$({name}) is not set in this makefile (make's command line or the environment sets it)"
        if self.missing:
            why = f"$({name}) is not set in this makefile; {self.missing[-1]}, may set it"
        return why

    def expand(self, chars: list[Char], seen: frozenset[str] = frozenset()) -> list[Char]:
        """`$$`, `$(VAR)`, `${VAR}` and `$X` replaced as make does; what make works out when it
        runs becomes an unknown run."""
        out: list[Char] = []
        index = 0
        while index < len(chars):
            char, begin, end, reason = chars[index]
            if char != "$" or index + 1 >= len(chars):
                out.append(chars[index])
                index += 1
                continue
            following = chars[index + 1]
            if following[0] == "$":
                out.append(("$", begin, following[2], None))  # (`$$`: both characters)
                index += 2
                continue
            if following[0] in ("(", "{"):
                call = index
                close = _closing(chars, index + 1)
                stop = chars[close][2] if close < len(chars) else chars[-1][2]
                inner = "".join(c[0] or "" for c in chars[index + 2 : close])
                index = close + 1
                if _NAME.fullmatch(inner):
                    out.extend(self._value(inner, begin, stop, seen))
                else:
                    what = inner.split()[0] if inner.split() else inner
                    if what in ("or", "if") and inner[len(what) : len(what) + 1] in (" ", "\t"):
                        from speclint.frontends.commands.make_functions import conditional

                        body = chars[call + 3 + len(what) : close]  # (from the first argument)
                        made = conditional(self, what, body, "$(" + inner + ")", seen)
                        if made is not None:
                            out.extend(made)
                            continue
                    why = f"`$({what} ...)` is a make function: make works it out when it runs"
                    called = inner[len(what) :].split(",")[0].strip()
                    if LAUNCH_TEXT.search(inner):
                        self.unread.setdefault(
                            begin, (f"`$({what} ...)` is a make function that names the launcher", stop)
                        )
                    elif what == "call" and called in self.launching:
                        told = f"`$(call {called} ...)` runs `{called}`, set with `define`, whose text names the launcher"
                        self.unread.setdefault(begin, (told, stop))
                    if "$" in inner and " " not in inner and "," not in inner:
                        why = f"`$({inner})` names a variable by another variable's value"
                    out.append((None, begin, stop, why))
                continue
            index += 2
            name = following[0] or ""
            if name in _AUTOMATIC:
                out.append((None, begin, following[2], f"`${name}` is a make automatic variable"))
            else:
                out.extend(self._value(name, begin, following[2], seen))
        return out

    def _value(self, name: str, begin: int, end: int, seen: frozenset[str]) -> list[Char]:
        """The value of `$(name)` written at [begin, end): its characters all point there, as
        the shell front-end points a variable's words at the `$X` that expands it."""
        var = self.vars.get(name)
        if var is None:
            return [(None, begin, end, self.unset(name))]
        if isinstance(var, str):
            if name in self.launching:
                told = f"`$({name})` is set with `define` and its text names the launcher"
                self.unread.setdefault(begin, (told, end))
            return [(None, begin, end, var)]
        if name in seen or len(seen) > 50:
            return [(None, begin, end, f"$({name}) refers to itself")]
        value = var.chars if var.simple else self.expanded.get(name)
        if value is None:
            value = self.expand(var.chars, seen | {name})
            if len(value) > _MAX_VALUE:  # `A = $(B)$(B)`, `B = $(C)$(C)`...: doubles each level
                value = [(None, begin, end, f"$({name}) is longer than speclint follows")]
            self.expanded[name] = value
        return [(char, begin, end, reason) for char, _, _, reason in value]


def _closing(chars: list[Char], opening: int) -> int:
    """Index of the bracket closing the one at `opening` (len(chars) when none)."""
    open_char = chars[opening][0]
    close_char = ")" if open_char == "(" else "}"
    depth = 0
    for index in range(opening, len(chars)):
        if chars[index][0] == open_char:
            depth += 1
        elif chars[index][0] == close_char:
            depth -= 1
            if depth == 0:
                return index
    return len(chars)
