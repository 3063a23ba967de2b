"""`$(or A,B,...)` and `$(if COND,THEN[,ELSE])` of a recipe, as GNU make works them out (GNU
make manual 8.4, "Functions for Conditionals"): `or` "Each argument is expanded, in order. If
an argument expands to a non-empty string the processing stops and the result of the expansion
is that string"; `if`: "If the condition expands to a non-empty string, then the condition is
considered to be true ... the then-part, is evaluated", else the else-part (or nothing).

`$(or $(MODEL_PATH),meta-llama/...)` is the makefile's way of writing `${MODEL_PATH:-...}`: a
variable the makefile never sets (make's command line or the environment may) is read as
empty, as the shell front-end reads `${NAME:-default}` of a variable never assigned, and the
value that then runs says so (`MakeValues.said`: "the default of ..., used when MODEL_PATH is
unset or empty"). `$(if $(TP),--tp $(TP),)` of such a variable stays unknown (a flag given or
not: the launch is said partly read), and so does a call with anything else unknown."""

from __future__ import annotations

from typing import Protocol

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from speclint.frontends.commands.text import Char


class MakeValues(Protocol):
    """What this module asks of `make_values.MakeValues` (which calls it)."""

    @property
    def vars(self) -> Mapping[str, object]: ...

    @property
    def missing(self) -> Sequence[str]: ...

    @property
    def said(self) -> list[tuple[int, int, str]]: ...

    def expand(self, chars: list[Char], seen: frozenset[str] = frozenset()) -> list[Char]: ...


def conditional(
    values: MakeValues, what: str, body: list[Char], written: str, seen: frozenset[str]
) -> list[Char] | None:
    """What `$(or ...)` / `$(if ...)` (`what`, its arguments' characters `body`, the call as
    written `written`) expands to, or None when it depends on what speclint does not know."""
    args = _arguments(body)
    if what == "or":
        assumed: list[str] = []
        for arg in args:
            found = _decided(values, arg, seen)
            if found is None:
                return None
            chars, unset = found
            if unset is not None:
                assumed.append(unset)
                continue
            if "".join(c[0] or "" for c in chars).strip():
                if assumed:
                    _say(values, chars, written, assumed)
                return chars
        return []
    if what == "if" and 2 <= len(args) <= 3:
        found = _decided(values, _stripped(args[0]), seen)
        if found is None:
            return None
        chars, unset = found
        if unset is not None:  # (`$(if $(TP),--tp $(TP),)`: a flag given or not, not known)
            return None
        if "".join(c[0] or "" for c in chars).strip():
            return values.expand(args[1], seen)
        return values.expand(args[2], seen) if len(args) == 3 else []
    return None


def _decided(
    values: MakeValues, arg: list[Char], seen: frozenset[str]
) -> tuple[list[Char], str | None] | None:
    """An argument expanded: its characters, or (no characters, NAME) for a plain `$(NAME)`
    the makefile never sets (empty unless the command line or the environment sets it); None
    when it is unknown otherwise."""
    text = "".join(c[0] or "" for c in arg).strip()
    if text.startswith(("$(", "${")) and text.endswith((")", "}")):
        name = text[2:-1]
        if name.replace("_", "A").isalnum() and name not in values.vars and not values.missing:
            return [], name
    chars = values.expand(arg, seen)
    if any(c[0] is None for c in chars):
        return None
    return chars, None


def _say(values: MakeValues, chars: list[Char], written: str, names: list[str]) -> None:
    from speclint.core.said_values import DEFAULT_OF

    begin = min(c[1] for c in chars)
    end = max(c[2] for c in chars)
    shown = written if len(written) <= 60 and "\n" not in written else f"$({written[2:].split()[0]} ...)"
    unset = " and ".join(names)
    values.said.append((begin, end, f"{DEFAULT_OF}{shown}, used when {unset} is unset or empty"))


def _stripped(chars: list[Char]) -> list[Char]:
    start, stop = 0, len(chars)
    while start < stop and chars[start][0] in (" ", "\t"):
        start += 1
    while stop > start and chars[stop - 1][0] in (" ", "\t"):
        stop -= 1
    return chars[start:stop]


def _arguments(body: list[Char]) -> list[list[Char]]:
    """The call's arguments: split at each comma outside nested parentheses or braces."""
    args: list[list[Char]] = [[]]
    depth = 0
    for char in body:
        if char[0] in ("(", "{"):
            depth += 1
        elif char[0] in (")", "}"):
            depth -= 1
        elif char[0] == "," and depth == 0:
            args.append([])
            continue
        args[-1].append(char)
    return args
