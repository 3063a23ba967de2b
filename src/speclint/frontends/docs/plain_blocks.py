"""The block tokens of a plain Markdown file, read without markdown-it.

Most launch docs are headings, paragraphs and fenced blocks at the left margin. For such a
file this gives the tokens the Markdown front-end reads from markdown-it (`fence` with its
info, content and lines; `inline` with the lines of a heading or paragraph), as CommonMark
(markdown-it's rules) makes them, without importing and running markdown-it (most of a
one-README run, and half the reading of each README). Anything else (lists, quotes,
indented lines, tables, HTML, link definitions, setext headings, thematic breaks) gives None
and markdown-it reads the file.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Protocol

    class BlockToken(Protocol):
        """What the Markdown front-end reads of a block token (markdown-it's `Token` has it)."""

        type: str
        level: int
        map: list[int] | None
        info: str
        content: str


class PlainToken:
    """A `fence` or `inline` token of a plain file, as markdown-it would make it."""

    __slots__ = ("type", "level", "map", "info", "content")

    def __init__(self, kind: str, level: int, lines: list[int], info: str = "", content: str = "") -> None:
        self.type = kind
        self.level = level
        self.map: list[int] | None = lines
        self.info = info
        self.content = content


_OTHER_BLOCKS = frozenset("-+*_=><|:[0123456789")
"""First characters of a line that may open (or underline) another kind of block: lists,
thematic breaks, setext underlines, quotes, HTML, tables, link reference definitions."""


def _fence_opener(line: str) -> tuple[str, int] | None:
    """(marker, length) of a fence opened at the margin, or None when the line opens none."""
    marker = line[0]
    length = len(line) - len(line.lstrip(marker))
    if length < 3 or (marker == "`" and "`" in line[length:]):
        return None
    return marker, length


def _closes(line: str, marker: str, length: int) -> bool:
    """Whether a line closes a fence of `length` `marker`s: up to three columns of
    indentation, at least as many markers, then only spaces and tabs."""
    rest = line.lstrip(" \t")
    columns = 0
    for char in line[: len(line) - len(rest)]:
        columns += 4 - columns % 4 if char == "\t" else 1
    if columns >= 4 or not rest.startswith(marker):
        return False
    run = len(rest) - len(rest.lstrip(marker))
    return run >= length and not rest[run:].strip(" \t")


def _heading(line: str) -> bool:
    """Whether a line starting with `#` is an ATX heading (one to six `#`, then a space, a
    tab or the end of the line)."""
    level = len(line) - len(line.lstrip("#"))
    return level <= 6 and (level == len(line) or line[level] in " \t")


def plain_blocks(text: str) -> list[BlockToken] | None:
    """The `fence` and `inline` tokens markdown-it makes of `text`, or None when `text`
    holds more than headings, paragraphs and fences at the left margin."""
    if "\r" in text or "\0" in text:  # markdown-it rewrites them first
        return None
    segments = text.split("\n")
    count = len(segments)
    if not segments[-1].strip(" \t"):  # markdown-it counts no line after the last newline
        count -= 1
    tokens: list[BlockToken] = []
    index = 0
    while index < count:
        line = segments[index]
        if not line.strip(" \t"):
            index += 1
            continue
        if line.startswith(("```", "~~~")):
            opener = _fence_opener(line)
            if opener is None:
                return None
            stop = index + 1
            while stop < count and not _closes(segments[stop], *opener):
                stop += 1
            # markdown-it's content: the lines, each with the newline after it in the file
            content = "\n".join(segments[index + 1 : stop])
            if index + 1 < stop < len(segments):
                content += "\n"
            end = stop + 1 if stop < count else count
            tokens.append(PlainToken("fence", 0, [index, end], line[opener[1] :], content))
            index = end
            continue
        if line[0] == "#" and _heading(line):
            tokens.append(PlainToken("inline", 1, [index, index + 1]))
            index += 1
            continue
        stop = index
        while stop < count:
            line = segments[stop]
            if not line.strip(" \t"):
                break
            first = line[0]
            if first in _OTHER_BLOCKS or first.isspace() or first.isdigit():
                return None
            if line.startswith(("```", "~~~")):
                if _fence_opener(line) is None:
                    return None
                break
            if first == "#" and _heading(line):
                break
            stop += 1
        tokens.append(PlainToken("inline", 1, [index, stop]))
        index = stop
    return tokens
