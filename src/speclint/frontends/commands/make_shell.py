"""The program make runs a Makefile's recipes with, as GNU make builds its command: each
recipe line (or, with `.ONESHELL:`, a rule's lines) is handed to `$(SHELL) $(.SHELLFLAGS)`
(manual 5.3.2 "Choosing the Shell": `SHELL` is `/bin/sh` unless the makefile sets it, never
taken from the environment; `.SHELLFLAGS` is `-c`; both are defined by make, so `?=` leaves
them as they are). Without `.ONESHELL` make splits that command into words (`SHELL =
/usr/bin/env bash` runs env, which runs bash); with it, job.c's construct_command_argv_internal
runs `$(SHELL)` whole as one program's name and drops the `@`, `-`, `+` and blanks starting
each inner line only when `is_bourne_compatible_shell` holds: the name after the last `/` is
sh, bash, dash, ksh, rksh, zsh or ash.

speclint reads recipes as a POSIX shell runs them: with another `SHELL` (`python3`, `SHELL :=
/usr/bin/env python3`), one it cannot know, or `.SHELLFLAGS` without `-c` (the shell would read
the recipe as a script's file name), a recipe that names the launcher is said not read."""

from __future__ import annotations

import re

from speclint.frontends.commands.make_values import MakeVar
from speclint.frontends.recognise import LAUNCH_TEXT

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.frontends.commands.make import MakeReader
    from speclint.frontends.commands.text import Char

BOURNE = frozenset({"sh", "bash", "dash", "ksh", "rksh", "zsh", "ash"})
"""job.c's `unix_shells` (GNU make 4.x): the shells make treats as Bourne-compatible."""
_COMMAND_FLAG = re.compile(r"-[A-Za-z]*c[A-Za-z]*")
_LOOKED_UP = re.compile(r"\$[({]shell\s+(?:which|command\s+-v)\s+([\w.-]+)\s*[)}]")
"""`SHELL := $(shell which bash)`: the path of that shell, wherever it is installed."""


def shell_not_read(makefile: MakeReader) -> str | None:
    """Why this reading's recipes are not run by a POSIX shell speclint reads, or None: the
    makefile's `SHELL` and `.SHELLFLAGS`, and each target's own (`serve: SHELL := python3`)."""
    for name in ("SHELL", ".SHELLFLAGS"):
        found = _value(makefile, name)
        if found is not None:
            why = _check(name, *found, makefile.one_shell)
            if why is not None:
                return why
    for name, text, line in makefile.target_shells:
        told = f"`{name}` set for a target at line {line}"
        why = _check(name, None if "$" in text else text.strip(), told, makefile.one_shell)
        if why is not None:
            return why
    return None


def _check(name: str, text: str | None, told: str, one_shell: bool) -> str | None:
    if name == "SHELL":
        if text is None:
            return f"make runs the recipes with $(SHELL), which speclint cannot know ({told})"
        words = text.split()
        if one_shell and len(words) > 1 and text.rsplit("/", 1)[-1] not in BOURNE:
            return (
                f"with `.ONESHELL:` make runs `{text}` ({told}) as one program's name, not split into "
                "words, so no shell runs the recipe as written"
            )
        if _program(words) not in BOURNE:
            return (
                f"make runs the recipes with `{text}` ({told}), which is not a POSIX shell (make hands "
                "it `$(.SHELLFLAGS)` and the recipe text), and speclint reads recipes as shell"
            )
        return None
    if text is None:
        return f"make hands the shell $(.SHELLFLAGS) before the recipe, which speclint cannot know ({told})"
    if not any(_COMMAND_FLAG.fullmatch(word) for word in text.split()):
        return (
            f"`.SHELLFLAGS` is `{text}` ({told}), without `-c`: the shell reads the recipe text as the "
            "name of a script file, not as its commands"
        )
    return None


def _value(makefile: MakeReader, name: str) -> tuple[str | None, str] | None:
    """(the variable's expanded text, or None when unknown; where it is set), or None when the
    makefile leaves it to make."""
    var = makefile.vars.get(name)
    if var is None:
        return None
    if not isinstance(var, MakeVar):
        return None, var
    value = makefile.expand(var.chars)
    told = f"`{name}` set at line {var.line}"
    if any(c[0] is None for c in value):
        written = makefile.text[min(c[1] for c in var.chars) : max(c[2] for c in var.chars)]
        found = _LOOKED_UP.fullmatch(written.strip())
        return (found.group(1) if found and found.group(1) in BOURNE else None), told
    return "".join(c[0] or "" for c in value).strip(), told


def _program(words: list[str]) -> str:
    """The program `$(SHELL)` runs, by the name after its last `/`: through `env` (its
    options and NAME=VALUE words skipped), the one env runs."""
    names = [word.rsplit("/", 1)[-1] for word in words]
    if names and names[0] == "env":
        rest = [n for n in names[1:] if not n.startswith("-") and "=" not in n]
        return rest[0] if rest else "env"
    return names[0] if names else ""


def launcher_at(chars: list[Char]) -> tuple[int, int] | None:
    """File offsets of the first launcher a recipe's text names, or None."""
    text, where = "", []
    for char in chars:
        for letter in char[0] or "":
            text += letter
            where.append(char)
    found = LAUNCH_TEXT.search(text)
    if found is None:
        return None
    return where[found.start()][1], where[found.end() - 1][2]
