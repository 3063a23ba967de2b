"""Which lines of a big Python file the walker needs, so that only those are read.

libcst takes seconds per 100 KiB (parse, positions, visitors: 20-30 s for a megabyte);
CPython's own parser (`ast`, parsing only) takes a fraction of a second. For a big file,
`ast` finds the statements, `atoms` picks the ones that can matter (those that may
make a launch, and those that may write a name they read), and only their lines go to
libcst. The other lines are left out (a `pass` keeps an indented block a block); kept
lines keep their text and `Selection.lines` maps them back, so positions stay exact. The
comments of the lines left out come from a string-aware scan (suppressions live in them).
"""

from __future__ import annotations

import ast
import re
from bisect import bisect_right
from functools import cache

from speclint.core import patterns
from speclint.core.records import dataclass
from speclint.frontends.python.atoms import Atoms
from speclint.frontends.python.comments import STRING_OR_COMMENT

SELECT_MIN_CHARS = 16 * 1024
"""Smaller files go to libcst whole, as they always did."""
MAX_FSTRING_FIELDS = 4096
"""CPython before 3.12 parses an f-string in time quadratic in its fields (350,000 took
70 s): a file with a bigger one goes to libcst whole (linear), as before."""

_LOGICAL_PATTERN = (
    STRING_OR_COMMENT.pattern
    + r"""
  | (?P<cont>\\(?:\r\n?|\n))
  | (?P<newline>\r\n?|\n)
  | (?P<open>[(\[{])
  | (?P<close>[)\]}])
  | \S
"""
)
_CLAUSES = frozenset({"else", "elif", "except", "finally"})


@cache
def _logical() -> re.Pattern[str]:
    """Tokens of logical lines (compiled at the first big file or lone backslash: ~0.6 ms
    that most runs never need)."""
    return patterns.compile(_LOGICAL_PATTERN, patterns.VERBOSE | patterns.DOTALL)


@cache
def _formatted() -> re.Pattern[str]:
    return patterns.compile(r"[a-z]*[ft]", patterns.IGNORECASE)


@cache
def _fstring_start() -> re.Pattern[str]:
    return patterns.compile(r"(?<!\w)(?:[rRbB]?[fFtT][rRbB]?)['\"]")


@dataclass(slots=True)
class Selection:
    """The lines of a big Python file that libcst reads, and where each starts."""

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
    """Whether CPython read the file as it is (not without its BOM)."""


def select(text: str, starts: list[int]) -> Selection | Broken | None:
    """The part of `text` the walker needs; None when that is all of it or `ast` cannot say."""
    source = text[1:] if text.startswith("\ufeff") else text  # CPython refuses a BOM in a str
    if "\0" in source:
        source, stray = _blank_quoted_nuls(source)
        if stray:  # a NUL in code: libcst refuses the file at once, as before
            return None
    if source.count("{") > MAX_FSTRING_FIELDS and crowded_fstring(source):
        return None
    try:
        tree = ast.parse(source)
    except SyntaxError as error:  # with NULs, CPython names no line: libcst's own place is used
        return None if "\0" in text else Broken(error, source is text)
    except (ValueError, RecursionError, MemoryError):
        return None
    atoms = Atoms(text, starts)
    atoms.read(tree)
    atoms.close()
    return _render(atoms)


def confirm_syntax_error(text: str, starts: list[int], error: SyntaxError) -> tuple[int, int] | None:
    """Where libcst stops too, reading from the top-level statement CPython stopped in (not
    from the top: a megabyte takes it seconds); None when it reads that far, or CPython
    gives no line (the caller then reads the whole file, as before)."""
    if not error.lineno or not error.offset:
        return None
    if "was never closed" in str(error.msg):  # no parser reads an open bracket (libcst only
        return error.lineno, error.offset  # finds that out at the end of the file)
    first = _statement_line(text, starts, min(error.lineno, len(starts)))
    import libcst as cst  # only for a file CPython refuses

    try:
        cst.parse_module(text[starts[first - 1] :])
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
    for match in _logical().finditer(text, 0, end):
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


_LONE_BACKSLASH = patterns.compile(r"^([ \t\f]*)\\(?:\r\n?|\n)([ \t\f]*)", patterns.MULTILINE)


def lone_backslashes_as_comments(source: str) -> str:
    """libcst drops a line holding only `\\` (outside a string) and places every statement
    after it a line early. That line joins the next one and gives it its indentation; where
    both lines are indented alike, a `#` in its place reads the same and keeps every
    position (the others are left as they are)."""
    if "\\" not in source:
        return source
    wanted = {
        m.start() + len(m.group(1)) for m in _LONE_BACKSLASH.finditer(source) if m.group(1) == m.group(2)
    }
    if not wanted:
        return source
    found = [m.start() for m in _logical().finditer(source) if m.lastgroup == "cont" and m.start() in wanted]
    if not found:
        return source
    chars = list(source)
    for index in found:
        chars[index] = "#"
    return "".join(chars)


def _blank_quoted_nuls(source: str) -> tuple[str, bool]:
    """`source` with NULs in plain strings and comments made spaces (CPython refuses any
    NUL, libcst reads these), and whether a NUL is elsewhere (an f-string's field too)."""

    def blank(match: re.Match[str]) -> str:
        token: str = match.group()
        if match.lastgroup == "comment" or (match.lastgroup == "str" and not _formatted().match(token)):
            return token.replace("\0", " ")
        return token

    blanked = STRING_OR_COMMENT.sub(blank, source)
    return blanked, "\0" in blanked


def crowded_fstring(source: str) -> bool:
    """Whether an f-string has more than MAX_FSTRING_FIELDS fields. Read from each place an
    f-string may start (inside another string too: that only costs a look)."""
    for start in _fstring_start().finditer(source):
        token = STRING_OR_COMMENT.match(source, start.start())
        if token is not None and token.group().count("{") > MAX_FSTRING_FIELDS:
            return True
    return False


def _render(atoms: Atoms) -> Selection | None:
    """The shown atoms' lines; a hidden block becomes `pass`, the lines between top-level
    statements (blank, comments) are left out."""
    if all(atoms.shown):
        return None
    text, starts, count = atoms.text, atoms.starts, len(atoms.starts)
    parts: list[str] = []
    lines: list[int] = []
    left_out: list[tuple[int, int]] = []
    number = 1
    while number <= count:
        atom = atoms.owner[number]
        if atom >= 0 and atoms.shown[atom]:
            parts.append(atoms.line(number))
            lines.append(starts[number - 1])
            number += 1
            continue
        while atom >= 0 and atoms.parent[atom] >= 0 and not atoms.shown[atoms.parent[atom]]:
            atom = atoms.parent[atom]
        last = atoms.last[atom] if atom >= 0 else number
        left_out.append((starts[number - 1], starts[last] if last < count else len(text)))
        if atom >= 0 and atoms.parent[atom] >= 0:  # a block needs a statement
            line = atoms.line(number)
            body = line.lstrip(" \t\f")
            parts.append(line[: len(line) - len(body)] + "pass\n")
            lines.append(starts[number - 1])
        number = last + 1
    comments = [
        (m.start(), m.end(), m.group())
        for begin, end in _merged(left_out)
        for m in STRING_OR_COMMENT.finditer(text, begin, end)
        if m.lastgroup == "comment"
    ]
    if text.startswith("\ufeff") and comments and comments[0][0] < (starts[1] if count > 1 else len(text)):
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
