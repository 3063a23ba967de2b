"""`.gitignore` files as a folder walk reads them (`runner.walk`): loaded only when a folder is
walked (a record class costs ~0.5 M instructions to make)."""

from __future__ import annotations

import os
import re

from speclint.core.records import dataclass
from speclint.runner.depends import note


@dataclass(frozen=True)
class _Pattern:
    """One `.gitignore` line as a regular expression."""

    regex: re.Pattern[str]
    negated: bool
    directory_only: bool


def _compile(line: str) -> _Pattern | None:
    """One .gitignore line (gitignore(5)): blank and `#` lines are nothing, `\\` escapes."""
    line = line.rstrip("\n\r")
    if not line.strip() or line.startswith("#"):
        return None
    if not line.endswith("\\ "):
        line = line.rstrip(" ")
    negated = line.startswith("!")
    if negated:
        line = line[1:]
    if line.startswith("\\"):
        line = line[1:]
    directory_only = line.endswith("/")
    line = line.rstrip("/")
    anchored = "/" in line
    line = line.lstrip("/")
    parts, i = [], 0
    while i < len(line):
        if line.startswith("**/", i):
            parts.append("(?:.*/)?")
            i += 3
        elif line.startswith("/**", i) and i + 3 == len(line):
            parts.append("/.*")
            i += 3
        elif line[i] == "*":
            parts.append("[^/]*")
            i += 1
        elif line[i] == "?":
            parts.append("[^/]")
            i += 1
        elif line[i] == "[":
            end = line.find("]", i + 1)
            if end < 0:
                parts.append(re.escape("["))
                i += 1
            else:
                body = line[i + 1 : end].replace("\\", "\\\\")
                parts.append("[" + ("^" + body[1:] if body.startswith("!") else body) + "]")
                i = end + 1
        else:
            parts.append(re.escape(line[i]))
            i += 1
    body = "".join(parts)
    regex = ("^" if anchored else "^(?:.*/)?") + body + "$"
    return _Pattern(re.compile(regex), negated, directory_only)


class GitIgnore:
    """The .gitignore rules that apply in one folder: its parents' and its own."""

    def __init__(self, rules: tuple[tuple[str, _Pattern], ...] = ()) -> None:
        self.rules = rules
        """(folder the .gitignore is in, pattern), outermost first."""

    def below(self, folder: str) -> GitIgnore:
        """The rules for `folder`: these, then `folder/.gitignore`'s."""
        path = os.path.join(folder, ".gitignore")
        note(path)
        try:
            with open(path, encoding="utf-8", errors="replace") as handle:
                lines = handle.read(1 << 20).splitlines()
        except OSError:
            return self
        added = tuple((folder, p) for p in map(_compile, lines) if p is not None)
        return GitIgnore(self.rules + added) if added else self

    def ignored(self, path: str, is_dir: bool) -> bool:
        verdict = False
        relatives: dict[str, str] = {}  # a .gitignore's lines share its folder: one relpath each
        for folder, pattern in self.rules:
            if pattern.directory_only and not is_dir:
                continue
            relative = relatives.get(folder)
            if relative is None:
                relative = relatives[folder] = os.path.relpath(path, folder).replace(os.sep, "/")
            if relative.startswith("../"):
                continue
            if pattern.regex.match(relative):
                verdict = not pattern.negated
        return verdict


def gitignore_above(folder: str) -> GitIgnore:
    """The .gitignore files of the folders above `folder`, up to the repository root (the
    folder holding `.git`); none when `folder` is not in a git repository."""
    chain: list[str] = []
    current = os.path.abspath(folder)
    while True:
        parent = os.path.dirname(current)
        note(os.path.join(current, ".git"))
        if os.path.exists(os.path.join(current, ".git")):
            break
        if parent == current:
            return GitIgnore()  # not in a repository: only the walked folders' own files
        chain.append(parent)
        current = parent
    rules = GitIgnore()
    for above in reversed(chain):
        rules = rules.below(above)
    return rules
