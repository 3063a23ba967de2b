"""reStructuredText paragraphs that hold a launch (Spec "Paragraphs", "Inline Literals",
"Block Quotes"): an inline literal (``` ``python -m sglang.launch_server ...`` ```) read as a
Markdown code span; a paragraph line that is itself a command (the launcher at its start,
then flags, in plain text) read as the command a reader copies, the lines after it that
start with a flag going on with it (Sphinx joins a paragraph's lines with spaces); any other
launch in a paragraph's text said not read. Used by `rst` (the page reader)."""

from __future__ import annotations

import re

from .excerpt import exact, virtual
from .inline import flags_and_values
from .rst_lines import LIST_MARKER, Line, indent_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.frontends.shell.pieces import Piece

    from .excerpt import DocFile

PARAGRAPH = "this reStructuredText paragraph (shown as text, not in a code block)"
FLAG_NEXT = re.compile(r"[ \t]+--?[A-Za-z]")
"""The launcher followed by a flag: a command, not a mention of the launcher's name."""
INLINE_LITERAL = re.compile(r"(?<![\w`])``(?=\S)(.+?)(?<=\S)``(?![\w`])")
"""Spec "Inline Literals": ``` ``text`` ``` (start-string not before whitespace, end-string
not after it), on one line."""
_MARKUP = re.compile(r"[\\*`|<>;&()]|\w_(?!\w)|(?<!\w)_\w|\[\d+\]|[.,;:!?)]$")
"""What reStructuredText shows otherwise than as written in a paragraph (a backslash escape,
emphasis, a literal or a substitution, a `name_` reference, a footnote), a shell operator or
placeholder (`<path>`), or a sentence's end: a line holding any is not a literal command."""


def quoted_command(body: str) -> bool:
    """A block quote's first line that is a command: `$ ` then the launcher, or the launcher
    followed by a flag, a `\\` or nothing (not a sentence that names it)."""
    from speclint.frontends.recognise import PROSE_LAUNCH

    prompted = body.startswith("$ ")
    text = body[2:].lstrip() if prompted else body
    launcher = PROSE_LAUNCH.match(text)
    if launcher is None:
        return False
    rest = text[launcher.end() :].split()
    if prompted or not rest or rest[0].startswith(("-", "\\")):
        return True
    return launcher.group().endswith("serve") and (len(rest) == 1 or rest[1].startswith(("-", "\\")))


def inline_literals(doc: DocFile, offset: int, line: str) -> None:
    """Spec "Inline Literals": ``` ``python -m sglang.launch_server ...`` ``` on a paragraph
    line, read as a Markdown code span holding a launch is."""
    from .inline import CodeSpan, code_span_launch

    for match in INLINE_LITERAL.finditer(line):
        begin = offset + match.start(1)
        code_span_launch(doc, CodeSpan(begin, begin + len(match.group(1)), match.group(1)))


def paragraph(doc: DocFile, lines: list[Line], first: int) -> int:
    """A launch written on the lines of the paragraph from `first`, outside inline literals:
    read where its line is a literal command (a list item's text after its bullet too), else (`On the first node run python3 -m
    sglang.launch_server --model-path ...`) said not read. Returns the file offset of the
    paragraph's last line (read to its end)."""
    from speclint.frontends.recognise import PROSE_LAUNCH

    from .inline import with_rest
    from .unread import said_not_read

    end = first
    while end + 1 < len(lines) and lines[end + 1][1].strip():
        end += 1
    text_lines = lines[first : end + 1]
    for index, (offset, line) in enumerate(text_lines):
        text = INLINE_LITERAL.sub(lambda m: " " * len(m.group()), line)
        match = PROSE_LAUNCH.search(text)
        if match is None or not FLAG_NEXT.match(text, match.end()):
            continue
        command = _command(text_lines, index, match.start(), match.end())
        if command is not None and doc.shell(with_rest(command), "drop") > 0:
            continue
        named = " ".join(match.group().split())
        said_not_read(doc, offset + match.start(), offset + match.end(), named, PARAGRAPH)
        break
    return text_lines[-1][0]


def _command(text_lines: list[Line], index: int, start: int, stop: int) -> list[Piece] | None:
    """The command a paragraph line is, from its launcher at `start` (the line's first word),
    with the paragraph's next lines that start with a flag; None where the line is prose
    (words before the launcher, markup, a sentence's end, two plain words in a row)."""
    offset, line = text_lines[index]
    item = _item_marker(line, start)
    if (line[:start].strip() and not item) or _MARKUP.search(line[start:].rstrip()):
        return None
    pieces: list[Piece] = [exact(line[start:].rstrip(), offset + start)]
    words = line[stop:].split()
    for next_offset, next_line in text_lines[index + 1 :]:
        body = next_line.strip()
        if not body.startswith("-") or _MARKUP.search(body):
            break
        if item and (indent_of(next_line) != start or LIST_MARKER.match(body)):
            break  # (the item's body goes on indented to its text; the next item starts anew)
        begin = next_offset + len(next_line) - len(next_line.lstrip())
        pieces.extend([virtual(" ", next_offset - 1), exact(body, begin)])
        words += body.split()
    return pieces if flags_and_values(words) else None


def _item_marker(line: str, start: int) -> bool:
    """The line is a list item (spec "Bullet Lists", "Enumerated Lists": `- `, `* `, `1. `)
    whose text begins at `start`: Sphinx shows the item's text as written, after its bullet."""
    lead = len(line) - len(line.lstrip(" "))
    marker = LIST_MARKER.match(line, lead)
    return marker is not None and marker.end() == start
