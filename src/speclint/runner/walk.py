"""Which files a folder walk lints: `.gitignore` respected by default, `exclude` patterns.

As in ruff: files named on the command line are always linted; folders are walked for the
kinds speclint reads, skipping hidden folders, the built-in `DEFAULT_EXCLUDE`, what
`exclude` / `extend-exclude` name, and what `.gitignore` files ignore (each folder's
`.gitignore` applies below it, later lines and deeper files win, `!` re-includes;
`--no-respect-gitignore` turns this off).
"""

from __future__ import annotations

import os
import re
import stat

from speclint.core.records import dataclass
from speclint.runner.depends import note
from speclint.settings.options import WalkOptions

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator


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


def iter_lint_paths(
    paths: list[str], walk: WalkOptions | Callable[[str], WalkOptions] | None = None
) -> Iterator[tuple[str, str | None]]:
    """Files to lint as (path, error). Folders are walked for the kinds speclint reads,
    skipping what `walk` (a `speclint.settings.options.WalkOptions`, or a callable giving one
    per walked root) excludes and `.gitignore` ignores; files named explicitly are always linted.
    Symlinked folders are not followed (no loops)."""
    from speclint.frontends import is_lintable_path

    for given in paths:
        if given == "-" or not os.path.isdir(given):
            if given != "-" and not os.path.lexists(given):
                yield given, "no such file or directory"
            else:
                yield given, None
            continue
        options = (walk(given) if callable(walk) else walk) or WalkOptions()
        ignores = {given: gitignore_above(given).below(given)} if options.respect_gitignore else None
        for root, dirs, files in os.walk(given, onerror=None, followlinks=False):
            note(root)  # what a walk lints follows from what the folders list
            rules = ignores.pop(root) if ignores is not None else None
            # the walked root's entries are `name`, a folder's below it `folder/name`
            below = os.path.relpath(root, given).replace(os.sep, "/")
            prefix = "" if below == "." else below + "/"

            def skipped(name: str, is_dir: bool) -> bool:
                return (
                    options.excluded(prefix + name, name)  # noqa: B023 (called only in this iteration)
                    or (rules is not None and rules.ignored(os.path.join(root, name), is_dir))  # noqa: B023
                )

            dirs[:] = sorted(
                d for d in dirs if (not d.startswith(".") or d == ".github") and not skipped(d, True)
            )
            if ignores is not None and rules is not None:
                for name in dirs:
                    ignores[os.path.join(root, name)] = rules.below(os.path.join(root, name))
            for name in sorted(files):
                full = os.path.join(root, name)
                if _is_regular_file(full) and is_lintable_path(full) and not skipped(name, False):
                    yield full, None


def _is_regular_file(path: str) -> bool:
    """False for FIFOs, sockets, devices, dangling links and symlink loops: a folder scan
    skips them without opening them (opening a FIFO would wait for a writer forever)."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False
