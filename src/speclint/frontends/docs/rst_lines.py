"""reStructuredText's line rules, read from docutils' "reStructuredText Markup Specification"
and its parser (`parsers/rst/states.py`): indentation (tabs to 8th columns), where an indented
block ends, a `::` paragraph announcing a literal block, a directive's option field list and
sphinx-prompt's statements. Used by `rst` (the page reader) and `rst_prose` (paragraphs)."""

from __future__ import annotations

import re

Line = tuple[int, str]
"""(file offset, text) of one line, without its line end."""

TAB = 8
"""Spec "Whitespace": tabs are converted to spaces, with tab stops every 8th column."""
FIELD_MARKER = re.compile(r":(?![: ])(?:[^:\\]|\\.|:(?!(?:[ `]|$)))*(?<! ):(?:[ ]+|$)")
"""docutils' field marker (`:caption: text`): a directive's options are a field list."""


LIST_MARKER = re.compile(r"(?:[-+*\u2022\u2023\u2043]|\(?(?:\d+|#|[A-Za-z]|[ivxlcdmIVXLCDM]+)[.)])[ ]+(?=\S)")
"""Spec "Bullet Lists" and "Enumerated Lists": a list item's body is indented to the text
after its marker."""


def indent_of(line: str) -> int:
    """Columns of the line's leading whitespace, tabs expanded (spec "Whitespace")."""
    column = 0
    for char in line:
        if char == "\t":
            column = (column // TAB + 1) * TAB
        elif char in " \v\f":
            column += 1
        else:
            break
    return column


def cut(offset: int, line: str, width: int) -> Line:
    """The line without its first `width` columns of indentation (a tab that straddles the
    cut is removed whole)."""
    column = 0
    for index, char in enumerate(line):
        if column >= width or char not in " \t\v\f":
            return offset + index, line[index:]
        column = (column // TAB + 1) * TAB if char == "\t" else column + 1
    return offset + len(line), ""


def announces_literal(line: str) -> bool:
    """docutils' `Body.paragraph`: a paragraph ending in `::` not escaped by a backslash
    (`(?<!\\)(\\\\)*::$`, counted here without a regex) announces a literal block."""
    text = line.rstrip()
    if not text.endswith("::"):
        return False
    before = text[:-2]
    return (len(before) - len(before.rstrip("\\"))) % 2 == 0


def block_end(lines: list[Line], first: int, edge: int) -> int:
    """Spec "Indentation": the block from `first` holds blank lines and lines indented past
    column `edge`; it ends before the first non-blank line that is not. Returns the index
    after its last non-blank line."""
    end = first
    for index in range(first, len(lines)):
        text = lines[index][1]
        if not text.strip():
            continue
        if indent_of(text) <= edge:
            break
        end = index + 1
    return end


def dedented(lines: list[Line]) -> list[Line]:
    """A block's lines without their common indentation (docutils strips the block's
    smallest indentation); blank lines stay, empty, where they are."""
    widths = [indent_of(text) for _, text in lines if text.strip()]
    width = min(widths, default=0)
    return [cut(offset, text, width) if text.strip() else (offset + len(text), "") for offset, text in lines]


def options_of(lines: list[Line]) -> tuple[dict[str, str], Line | None]:
    """A directive's field list of options, and the first line that breaks it (a line
    neither a field nor indented under one: docutils' "invalid option block")."""
    options: dict[str, str] = {}
    edge = indent_of(lines[0][1]) if lines else 0
    key = ""
    for line in lines:
        text = line[1].lstrip()
        marker = FIELD_MARKER.match(text)
        if marker is not None and indent_of(line[1]) == edge:
            key = marker.group().strip()[1:-1].lower()
            options[key] = text[marker.end() :].strip()
        elif indent_of(line[1]) > edge and key:
            options[key] = f"{options[key]} {text.strip()}".strip()
        else:
            return options, line
    return options, None


def statements(lines: list[Line], prompts: list[str]) -> list[Line]:
    """The statements of a prompt block with the `auto` modifier (see `_prompt`)."""
    kept: list[Line] = []
    continuing = False
    for offset, text in lines:
        prompt = next((p for p in prompts if text.startswith(p)), None)
        if prompt is not None:
            cut = min(len(prompt) + 1, len(text))
            kept.append((offset + cut, text[cut:]))
        elif continuing:
            kept.append((offset, text))
        else:
            kept.append((offset + len(text), ""))
            continue
        continuing = text.rstrip().endswith("\\")
    return kept
