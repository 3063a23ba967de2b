"""MkDocs admonitions and content tabs, made CommonMark before parsing.

`!!! note`, `??? tip`, `???+ tip` (Python-Markdown admonitions, pymdownx details) and
`=== "Tab"` (pymdownx tabbed) hold a body indented by four spaces. CommonMark reads that
body as an indented code block or a paragraph continuation, so a fenced launch inside it
would be lost. Here each body line loses four leading spaces per enclosing header and the
header line is blanked: every line stays where it was and is a suffix of the original
line, so positions still map back exactly.
"""

from __future__ import annotations

from speclint.core import patterns

_HEADER = patterns.compile(r"^([ \t]*)(?:!!!|\?\?\?\+?|===\+?)[ \t]+\S")


def indent_of(line: str) -> int:
    """Leading columns (a tab counts four, as Python-Markdown's tab_length)."""
    columns = 0
    for char in line:
        if char == " ":
            columns += 1
        elif char == "\t":
            columns += 4 - columns % 4
        else:
            break
    return columns


def dedent(line: str, columns: int) -> str:
    """The line without its first `columns` columns of indentation."""
    index = seen = 0
    while index < len(line) and seen < columns and line[index] in " \t":
        seen += 1 if line[index] == " " else 4 - seen % 4
        index += 1
    return line[index:]


def deindent_admonitions(text: str) -> str:
    """The text with admonition and tab bodies de-indented (same lines, same order)."""
    if "!!!" not in text and "???" not in text and "===" not in text:
        return text
    lines = text.split("\n")
    stack: list[int] = []  # indent (in the original) of each enclosing header's body
    out: list[str] = []
    for line in lines:
        if line.strip():
            while stack and indent_of(line) < stack[-1]:
                stack.pop()
        body = dedent(line, 4 * len(stack))
        header = _HEADER.match(line)
        if header is not None and indent_of(line) >= (stack[-1] if stack else 0):
            stack.append(indent_of(line) + 4)
            out.append("")
            continue
        out.append(body if line.strip() else "")
    return "\n".join(out)
