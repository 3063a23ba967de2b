"""Make conditionals (GNU make manual 7.2 "Syntax of Conditionals"): `ifeq (a,b)`, `ifeq "a"
"b"`, `ifneq`, `ifdef NAME`, `ifndef NAME`, `else` (or `else ifeq ...`), `endif`.

make decides each while it reads the file; speclint does the same where the values compared are
known in the file (`ifeq ($(GPU),h100)` after `GPU := h100`). Where a value comes from outside
(the command line, the environment, a function), the file is read once per choice of the
branches it cannot decide, as the shell front-end reads `if/else` (each launch whose text differs
between choices is one `Alternative`, its note naming the branches: "when `ifeq ($(GPU),h100)`
at line 4 holds"). Beyond `MAX_WORLDS` readings, each undecided branch is read with the values it
sets unknown (the reason names the conditional).

In the `(a,b)` form, make drops the spaces before the comma and after it (not those inside the
parentheses' ends); the quoted forms compare the text between the quotes. `ifdef` asks whether
the variable's value, unexpanded, is non-empty.
"""

from __future__ import annotations

import re

from speclint.core.records import dataclass
from speclint.frontends.commands.make_values import Decision

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.frontends.commands.make_values import MakeValues
    from speclint.frontends.commands.text import Char

DIRECTIVE = re.compile(r"(ifeq|ifneq|ifdef|ifndef|else|endif)(?![^\s(\"'])")
"""A conditional directive at the start of a line outside recipes."""


@dataclass
class Frame:
    """One `if...` / `endif` block as make reads it."""

    outer_active: bool
    """The lines around the block are read."""
    active: bool = False
    """The current branch's lines are read."""
    done: bool = False
    """A branch of this chain was taken: the rest are not."""
    uncertain: str | None = None
    """Why this chain's branches are all read with the values they set unknown (too many
    choices), or None."""


def directive_args(body: str, chars: list[Char], keyword: str) -> tuple[list[Char], list[Char]] | None:
    """The two sides of `ifeq`/`ifneq` (raw characters), or None when the syntax is not make's."""
    at = len(keyword)
    while at < len(body) and body[at] in " \t":
        at += 1
    rest = body[at:].rstrip()
    if rest.startswith("("):
        depth, comma = 0, -1
        for index, char in enumerate(rest):
            depth += {"(": 1, ")": -1}.get(char, 0)
            if char == "," and depth == 1 and comma < 0:
                comma = index
            if depth == 0:
                if comma < 0 or index != len(rest) - 1:
                    return None
                first = chars[at + 1 : at + comma]
                while first and first[-1][0] in (" ", "\t"):
                    first = first[:-1]
                second = chars[at + comma + 1 : at + index]
                while second and second[0][0] in (" ", "\t"):
                    second = second[1:]
                return first, second
        return None
    quoted = re.fullmatch(r"(\"[^\"]*\"|'[^']*')\s+(\"[^\"]*\"|'[^']*')", rest)
    if quoted is None:
        return None
    one, two = quoted.span(1), quoted.span(2)
    return chars[at + one[0] + 1 : at + one[1] - 1], chars[at + two[0] + 1 : at + two[1] - 1]


def text_of(chars: list[Char]) -> tuple[str | None, str | None]:
    """(the text, None), or (None, why it is unknown) for expanded characters."""
    reason = next((c[3] for c in chars if c[0] is None), None)
    if reason is not None:
        return None, reason
    return "".join(c[0] or "" for c in chars), None


def shorten(written: str) -> str:
    return written if len(written) <= 60 else written[:57] + "..."


def conditional(
    reader: MakeValues, frames: list[Frame], keyword: str, body: str, chars: list[Char], line: int
) -> None:
    """An `if...`, `else` or `endif` line: which lines after it make reads."""
    if keyword.startswith("if"):
        frame = Frame(all(f.active for f in frames))
        frames.append(frame)
        if frame.outer_active:
            _branch(reader, frame, keyword, body, chars, line)
    elif keyword == "endif":
        if frames:
            frames.pop()
    elif frames and frames[-1].outer_active:
        frame = frames[-1]
        if frame.done:
            frame.active = False
            return
        rest = body[4:].lstrip()
        inner = DIRECTIVE.match(rest)
        if inner is not None and inner.group(1).startswith("if"):
            _branch(reader, frame, inner.group(1), rest, chars[len(body) - len(rest) :], line)
        else:
            frame.active = frame.done = True


def _branch(reader: MakeValues, frame: Frame, keyword: str, body: str, chars: list[Char], line: int) -> None:
    result, reason = _evaluate(reader, keyword, body, chars)
    if result is None:
        at = chars[0][1] if chars else 0
        length = len(keyword) if reader.origin is None else max(chars[0][2] - at, 1) if chars else 1
        written = shorten(body)
        decision = Decision((reader.where, line), True, at, length, written, line, reader.where)
        taken = reader.choices.take(decision)
        if taken is None:
            frame.active = True
            frame.uncertain = (
                f"`{written}` (line {line}{reader.where}) may or may not hold ({reason}), "
                "and more make conditionals than speclint follows depend on values it cannot know"
            )
            return
        result = taken
    frame.active = frame.done = result


def _evaluate(reader: MakeValues, keyword: str, body: str, chars: list[Char]) -> tuple[bool | None, str]:
    """Whether a conditional holds, or None and why it cannot be known here."""
    if keyword in ("ifdef", "ifndef"):
        name, why = text_of(reader.expand(chars[len(keyword) :]))
        if name is None:
            return None, why or ""
        var = reader.vars.get(name.strip())
        if isinstance(var, str):
            return None, var
        if var is None:
            return None, reader.unset(name.strip())
        defined = any(c[0] not in (" ", "\t") for c in var.chars)
        return defined == (keyword == "ifdef"), ""
    sides = directive_args(body, chars, keyword)
    if sides is None:
        return None, f"speclint cannot read `{shorten(body)}` as make's `{keyword}`"
    left, why = text_of(reader.expand(sides[0]))
    right, why_right = text_of(reader.expand(sides[1]))
    if left is None or right is None:
        return None, why or why_right or ""
    return (left == right) == (keyword == "ifeq"), ""
