"""Which statements of a big Python file the walker needs, so that libcst reads only those.

libcst takes seconds per 100 KiB (parse, positions, visitors: 20-30 s for a megabyte);
CPython's own parser (`ast`, parsing only) takes a fraction of a second. For a big file,
`ast` finds the statements and only the ones that can matter go to libcst: a statement
that may make a launch (it holds a word a launch call is recognised by, or an import),
and then, until nothing changes, every statement that may write a name a kept statement
mentions (`x = ...`, `x += ...`, `x.append(...)`, `for x in ...`: the walker's only
writes). The other lines are left out (a `pass` keeps an indented block a block); kept
lines keep their text and `Selection.lines` maps them back, so positions stay exact. The
comments of lines left out come from a string-aware scan (suppressions live in them).
"""

from __future__ import annotations

import ast
import re
import unicodedata
from bisect import bisect_right
from dataclasses import dataclass

import libcst as cst

from .python_launch import TRIGGER

SELECT_MIN_CHARS = 16 * 1024
"""Smaller files go to libcst whole, as they always did."""

_WORD = re.compile(r"\w+")
_MUTATORS = frozenset({"append", "extend", "insert", "update", "pop", "remove", "clear",
                       "setdefault", "sort", "reverse"})
_STRING_OR_COMMENT = re.compile(r"""
    (?P<str>(?i:[rbfut]{0,2})(?:
        '''(?:[^'\\]|\\(?:\r\n|.)|'(?!''))*(?:'''|\Z)
      | \"\"\"(?:[^"\\]|\\(?:\r\n|.)|"(?!""))*(?:\"\"\"|\Z)
      | '(?:[^'\\\r\n]|\\(?:\r\n|.))*(?:'|(?=[\r\n])|\Z)
      | "(?:[^"\\\r\n]|\\(?:\r\n|.))*(?:"|(?=[\r\n])|\Z)))
  | \w+
  | (?P<comment>\#[^\r\n]*)
""", re.X | re.S)
_LOGICAL = re.compile(_STRING_OR_COMMENT.pattern + r"""
  | (?P<cont>\\(?:\r\n?|\n))
  | (?P<newline>\r\n?|\n)
  | (?P<open>[(\[{])
  | (?P<close>[)\]}])
  | \S
""", re.X | re.S)
_CLAUSES = frozenset({"else", "elif", "except", "finally"})


@dataclass(slots=True)
class Selection:
    text: str
    """The lines of the file the walker needs, unchanged, and `pass` for a left-out block."""
    lines: list[int]
    """Where each of those lines starts in the file."""
    comments: list[tuple[int, int, str]]
    """(begin, end, text) of the comments in the lines left out, as file offsets."""


@dataclass(slots=True)
class Broken:
    """CPython's parser rejects the file (libcst is asked whether it does too)."""

    error: SyntaxError
    exact: bool
    """Whether CPython read the file as it is (not without its BOM or quoted NULs)."""


def select(text: str, starts: list[int]) -> Selection | Broken | None:
    """The part of `text` the walker needs; None when that is all of it or `ast` cannot say."""
    source = text[1:] if text.startswith("\ufeff") else text  # CPython refuses a BOM in a str
    if "\0" in source:
        source = _blank_quoted_nuls(source)
        if source is None:
            return None  # a NUL in code: libcst decides, as before
    try:
        tree = ast.parse(source)
    except SyntaxError as error:
        return Broken(error, source is text)
    except (ValueError, RecursionError, MemoryError):
        return None
    plan = _Plan(text, starts)
    plan.read(tree)
    plan.close()
    return plan.render()


def confirm_syntax_error(text: str, starts: list[int], error: SyntaxError) -> tuple[int, int] | None:
    """Where libcst stops too, reading from the top-level statement CPython stopped in (not
    from the top: a megabyte takes it seconds); None when it reads that far, or CPython
    gives no line (the caller then reads the whole file, as before)."""
    if not error.lineno or not error.offset:
        return None
    first = _statement_line(text, starts, min(error.lineno, len(starts)))
    try:
        cst.parse_module(text[starts[first - 1]:])
    except cst.ParserSyntaxError as stop:
        return stop.editor_line + first - 1, stop.editor_column
    except RecursionError:
        pass
    return None


def _statement_line(text: str, starts: list[int], line: int) -> int:
    """The first line of the top-level statement that holds `line`: the last line before it
    that starts, outside brackets and strings, with code at column 0 (not `else:`...)."""
    end = starts[line] if line < len(starts) else len(text)
    depth, fresh, found = 0, True, 1
    for match in _LOGICAL.finditer(text, 0, end):
        kind = match.lastgroup
        if kind == "newline":
            fresh = fresh or depth == 0
        elif kind in ("comment", "cont"):
            continue
        else:
            if fresh and depth == 0:
                number = bisect_right(starts, match.start())
                if starts[number - 1] == match.start() and match.group() not in _CLAUSES:
                    found = number
            fresh = False
            depth = depth + 1 if kind == "open" else max(depth - 1, 0) if kind == "close" else depth
    return found


def _blank_quoted_nuls(source: str) -> str | None:
    """`source` with NULs in strings and comments made spaces (CPython refuses any NUL,
    libcst reads these), or None when a NUL is elsewhere."""
    quoted = 0
    for match in _STRING_OR_COMMENT.finditer(source):
        if match.lastgroup is not None:
            quoted += match.group().count("\0")
    return source.replace("\0", " ") if quoted == source.count("\0") else None


class _Plan:
    """Statements grouped into atoms (statements sharing a line stay together), the
    words each atom's own lines hold, and the names each atom may write."""

    def __init__(self, text: str, starts: list[int]) -> None:
        self.text = text
        self.starts = starts
        self.owner = [-1] * (len(starts) + 1)  # line (1-based) -> innermost statement
        self.first: list[int] = []  # per atom: first line, last line, parent atom
        self.last: list[int] = []
        self.parent: list[int] = []
        self.writes: list[set[str]] = []
        self.seed: list[bool] = []
        self.triggers: set[str] = set()

    def _line(self, number: int) -> str:
        end = self.starts[number] if number < len(self.starts) else len(self.text)
        return self.text[self.starts[number - 1]:end]

    def read(self, tree: ast.Module) -> None:
        """Atoms in a pre-order of blocks: a statement's lines are owned by it, then by its
        children (so a line ends up with the innermost)."""
        blocks: list[tuple[list[ast.stmt], int]] = [(tree.body, -1)]
        while blocks:
            body, up = blocks.pop()
            previous = -1
            for index, node in enumerate(body):
                start = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", ())])
                end = node.end_lineno or start
                if previous >= 0 and self.last[previous] >= start:
                    atom = previous  # `a = 1; b = 2`
                elif index == 0 and up >= 0 and self._glued(node):
                    atom = up  # `if x: y = 1`, `else: y = 2`
                else:
                    atom = self._new_atom(start, up)
                self.last[atom] = max(self.last[atom], end)
                self.owner[start:end + 1] = [atom] * (end + 1 - start)
                self._note(node, atom)
                previous = atom
                for child in _blocks(node):
                    blocks.append((child, atom))

    def _new_atom(self, start: int, up: int) -> int:
        self.first.append(start)
        self.last.append(start)
        self.parent.append(up)
        self.writes.append(set())
        self.seed.append(False)
        return len(self.first) - 1

    def _glued(self, node: ast.stmt) -> bool:
        """Whether code precedes `node` on its first line (a header, `else:`)."""
        line = self._line(node.lineno).lstrip("\ufeff")
        return bool(line.encode("utf-8", "replace")[:node.col_offset].strip())

    def _note(self, node: ast.stmt, atom: int) -> None:
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.For, ast.AsyncFor)):
            targets = [node.target]
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            func = node.value.func
            if isinstance(func, ast.Attribute) and func.attr in _MUTATORS \
                    and isinstance(func.value, ast.Name):
                self.writes[atom].add(func.value.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            self.seed[atom] = True  # imports name the calls (`from os import system as sh`)
            module = getattr(node, "module", None) or ""
            for alias in node.names:
                parts = f"{module}.{alias.name}".split(".")
                if alias.asname and any(TRIGGER.search(part) for part in parts):
                    self.triggers.add(alias.asname)
        for target in targets:
            self.writes[atom].update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))

    def close(self) -> None:
        """Keep the seeds, then every atom that writes a word a kept atom holds."""
        words: list[set[str]] = [set() for _ in self.first]
        for number in range(1, len(self.starts) + 1):
            atom = self.owner[number]
            if atom >= 0:
                words[atom].update(_WORD.findall(self._line(number)))
        writers: dict[str, list[int]] = {}
        for atom, names in enumerate(self.writes):
            for name in names:
                writers.setdefault(name, []).append(atom)
        trigger = {}
        for atom, found in enumerate(words):
            if not found.isdisjoint(self.triggers):
                self.seed[atom] = True
            for word in found:
                hit = trigger.get(word)
                if hit is None:
                    hit = trigger[word] = TRIGGER.search(word) is not None
                self.seed[atom] = self.seed[atom] or hit
        kept = list(self.seed)
        queue = [atom for atom, seed in enumerate(kept) if seed]
        known: set[str] = set()
        while queue:
            for word in words[queue.pop()]:
                name = word if word.isascii() else unicodedata.normalize("NFKC", word)
                if name in known:
                    continue
                known.add(name)
                for writer in writers.get(name, ()):
                    if not kept[writer]:
                        kept[writer] = True
                        queue.append(writer)
        self.shown = [False] * len(kept)  # kept, or holding a kept atom (its header stays)
        for atom, keep in enumerate(kept):
            while keep and atom >= 0 and not self.shown[atom]:
                self.shown[atom] = True
                atom = self.parent[atom]

    def render(self) -> Selection | None:
        """The shown atoms' lines; a hidden block becomes `pass`, the lines between
        top-level statements (blank, comments) are left out."""
        if all(self.shown):
            return None
        starts, count = self.starts, len(self.starts)
        parts: list[str] = []
        lines: list[int] = []
        left_out: list[tuple[int, int]] = []
        number = 1
        while number <= count:
            atom = self.owner[number]
            if atom >= 0 and self.shown[atom]:
                parts.append(self._line(number))
                lines.append(starts[number - 1])
                number += 1
                continue
            while atom >= 0 and self.parent[atom] >= 0 and not self.shown[self.parent[atom]]:
                atom = self.parent[atom]
            last = self.last[atom] if atom >= 0 else number
            end = starts[last] if last < count else len(self.text)
            left_out.append((starts[number - 1], end))
            if atom >= 0 and self.parent[atom] >= 0:  # a block needs a statement
                line = self._line(number)
                body = line.lstrip(" \t\f")
                parts.append(line[:len(line) - len(body)] + "pass\n")
                lines.append(starts[number - 1])
            number = last + 1
        comments = [(m.start(), m.end(), m.group()) for begin, end in _merged(left_out)
                    for m in _STRING_OR_COMMENT.finditer(self.text, begin, end)
                    if m.lastgroup == "comment"]
        line_two = starts[1] if count > 1 else len(self.text)
        if self.text.startswith("\ufeff") and comments and comments[0][0] < line_two:
            begin, end, value = comments[0]  # libcst counts line 1's columns after the BOM
            comments[0] = (begin - 1, end - 1, value)
        return Selection("".join(parts), lines, comments)


def _merged(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for begin, end in ranges:
        if merged and merged[-1][1] == begin:
            merged[-1] = (merged[-1][0], end)
        else:
            merged.append((begin, end))
    return merged


def _blocks(node: ast.stmt) -> list[list[ast.stmt]]:
    found = [getattr(node, name) for name in ("body", "orelse", "finalbody")
             if isinstance(getattr(node, name, None), list)]
    found += [handler.body for handler in getattr(node, "handlers", ())]
    found += [case.body for case in getattr(node, "cases", ())]
    return found
