"""`include FILE...`, `-include FILE...`, `sinclude` (GNU make manual 3.3 "Including Other
Makefiles"): make reads each file as if its text stood there, looking for a relative name from
the folder it runs in (the linted makefile's). speclint reads a file that is on disk the same
way, its values pointing at the `include` (its recipes are that file's: speclint reads them when
it lints that file, and says so at the `include` when one runs the launcher). A file that is not
there (`-include local.mk`), or whose name is not known, may set any variable: the values set
before it, and those not set, become unknown, the reason naming it.
"""

from __future__ import annotations

import os

from speclint.frontends.commands.make_conditionals import shorten, text_of
from speclint.frontends.commands.make_values import MakeVar

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re

    from speclint.frontends.commands.make_values import MakeValues
    from speclint.frontends.commands.text import Char

MAX_DEPTH = 8
"""Included files within included files followed."""


def read_include(reader: MakeValues, include: re.Match[str], body: str, chars: list[Char], line: int) -> None:
    """`include FILE...`, `-include`, `sinclude`: each file read as part of this one when
    it is on disk (relative to the linted makefile's folder, where make runs); else what it
    may set is unknown. Recipes of an included file are not read as this file's."""
    written = f"`{shorten(body)}` (line {line}{reader.where})"
    names, why = text_of(reader.expand(chars[include.end() :]))
    if names is None:
        missing(reader, f"{written}, whose file name speclint cannot know ({why})")
        return
    for name in names.split():
        found = _find(reader, name)
        if not found:
            missing(reader, f"{written}, whose file {name} is not on disk")
        for path in found:
            _read_included(reader, path, name, chars)


def _find(reader: MakeValues, name: str) -> list[str]:
    from speclint.runner.depends import note, note_glob

    folder = os.path.dirname(reader.path) if reader.path not in ("-", "<stdin>") else ""
    full = name if os.path.isabs(name) else os.path.join(folder, name)
    if any(c in name for c in "*?["):
        where, pattern = os.path.split(full)
        note_glob(os.path.abspath(where or "."), pattern)
        from speclint.runner.depends import matching_names

        return [os.path.join(where, found) for found in matching_names(where or ".", pattern)]
    note(os.path.abspath(full))  # the result cache re-checks the file (or its absence)
    return [full] if os.path.isfile(full) else []


def _read_included(reader: MakeValues, path: str, name: str, chars: list[Char]) -> None:
    from speclint.frontends.reading import read_source

    key = os.path.abspath(path)
    if key in reader.seen or reader.depth >= MAX_DEPTH:
        return
    text, error, size = read_source(path)
    if text is None:
        missing(reader, f"`include {name}`, whose file speclint cannot read ({error or f'{size} bytes'})")
        return
    reader.seen.add(key)
    child = reader.child(text)
    child.origin = (chars[0][1], chars[-1][2]) if reader.origin is None else reader.origin
    child.where = f" of {name}"
    child.read()
    reader.seen.discard(key)


def missing(reader: MakeValues, what: str) -> None:
    """An included file speclint could not read: every value set so far may be set again
    there, and any other may be set first."""
    reader.missing.append(what)
    reader.expanded.clear()
    for name, var in list(reader.vars.items()):
        if isinstance(var, MakeVar):
            reader.vars[name] = f"$({name}) may be set again by {what}"
