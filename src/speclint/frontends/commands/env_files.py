"""A `.env` file a task runner loads beside its config (poe's `envfile`): read from disk, never
run. poethepoet's own parser (`poethepoet/env/parse.py`, `parse_env_file`): each assignment
`NAME=value` (an `export ` before it allowed, `#` lines and blank lines skipped); an unquoted
value ends at a blank, `;` or the line end; `'...'` keeps its text as written, `"..."` too
(a backslash escapes the next character); no `$VAR` is expanded. A value speclint does not
parse that way (a backslash outside quotes, a quote left open) is unknown, the reason said.
"""

from __future__ import annotations

import re

_ASSIGNMENT = re.compile(r"[ \t;]*(?:export[ \t]+)?([A-Za-z_][A-Za-z_0-9]*)=")
_UNQUOTED = re.compile(r"[^ \t;'\"\\\n]*")


class EnvFile:
    """One env file as a task runner would read it: `values` (name -> value, None where
    speclint could not read it, `reasons` saying why), or `missing` (why it was not read)."""

    def __init__(self, name: str, full: str) -> None:
        self.name, self.full = name, full
        self.values: dict[str, str | None] = {}
        self.reasons: dict[str, str] = {}
        self.missing: str | None = None


def read_env_file(config_path: str, name: str) -> EnvFile:
    """The env file `name` (relative to the folder of `config_path`, where poe looks), read
    from disk; one that is not there, or not readable, says so in `missing`."""
    from speclint.frontends.reading import read_named_file

    text, full, why = read_named_file(config_path, name)
    found = EnvFile(name, full)
    if text is None:
        found.missing = why if why == "not on disk" else f"not readable ({why})"
        return found
    _parse(text, found)
    return found


def _parse(text: str, into: EnvFile) -> None:
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        match = _ASSIGNMENT.match(line)
        if match is None:
            continue
        name = match.group(1)
        value, why = _value(line[match.end() :])
        into.values[name] = value
        if why is not None:
            into.reasons[name] = f"`{name}` in {into.name} (line {number}) {why}"


def _value(rest: str) -> tuple[str | None, str | None]:
    """The value written after `NAME=` on one line, or (None, why)."""
    out: list[str] = []
    at = 0
    while at < len(rest):
        plain = _UNQUOTED.match(rest, at)
        assert plain is not None
        out.append(plain.group())
        at = plain.end()
        if at >= len(rest) or rest[at] in " \t;":
            break
        quote = rest[at]
        if quote == "\\":
            return None, "has a backslash outside quotes, which speclint does not read"
        close = rest.find(quote, at + 1)
        if close < 0:
            return None, "opens a quote this line does not close (a value over several lines), not read"
        inner = rest[at + 1 : close]
        if quote == '"' and "\\" in inner:
            return None, "has a backslash inside double quotes, which speclint does not read"
        out.append(inner)
        at = close + 1
    return "".join(out), None
