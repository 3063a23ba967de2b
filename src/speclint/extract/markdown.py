"""Markdown front-end: launches in fenced code blocks of docs and READMEs.

Blocks tagged bash/sh/shell/zsh/console or untagged are read as shell (console: `$ `
prompts stripped, output lines dropped); python/py blocks as Python. Each block is cut out
with its lines in place, so positions point into the Markdown file.
"""

from __future__ import annotations

import re

from ..source import ExtractResult, Span
from .embedded import map_spans

_FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,})\s*([\w+-]*)[^\n]*$")
_SHELL_TAGS = {"bash", "sh", "shell", "zsh", "console", "shell-session", ""}
_PYTHON_TAGS = {"python", "py", "python3"}
_PROMPT = re.compile(r"^(\s*)\$ ")


def _blocks(lines: list[str]):
    """(tag, first content line index, content lines, indent) for each fenced block."""
    index = 0
    while index < len(lines):
        match = _FENCE.match(lines[index])
        if not match:
            index += 1
            continue
        indent, fence, tag = len(match.group(1)), match.group(2), match.group(3).lower()
        start = index + 1
        end = start
        while end < len(lines) and not re.match(r"^ {0,3}" + re.escape(fence[0]) + "{" + str(len(fence)) + r",}\s*$",
                                                lines[end]):
            end += 1
        yield tag, start, lines[start:end], indent
        index = end + 1


def _console(content: list[str]) -> tuple[list[str], list[int]]:
    """Commands of a console block (prompts removed, output blanked), and how many
    characters were removed from each line."""
    kept, removed = [], []
    continuing = False
    for line in content:
        match = _PROMPT.match(line)
        if match:
            kept.append(line[match.end():])
            removed.append(match.end())
            continuing = line.rstrip().endswith("\\")
        elif continuing:
            kept.append(line)
            removed.append(0)
            continuing = line.rstrip().endswith("\\")
        else:
            kept.append("")
            removed.append(0)
    return kept, removed


def extract_markdown(text: str, path: str) -> ExtractResult:
    result = ExtractResult()
    lines = text.split("\n")
    for tag, start, content, indent in _blocks(lines):
        if "sglang" not in "\n".join(content):
            continue
        body = [line[indent:] if line[:indent].strip() == "" else line.lstrip() for line in content]
        shift = [len(line) - len(new) for line, new in zip(content, body)]
        if tag == "console" or tag == "shell-session" or (tag in ("", "bash", "sh", "shell")
                                                           and any(_PROMPT.match(b) for b in body)):
            body, removed = _console(body)
            shift = [a + b for a, b in zip(shift, removed)]
        if tag in _PYTHON_TAGS:
            from .python import extract_python

            found = extract_python("\n".join(body) + "\n", path)
        elif tag in _SHELL_TAGS:
            from .shell import extract_shell

            found = extract_shell("\n".join(body) + "\n", path)
            if tag == "":  # an untagged block may be output or prose: no syntax complaints
                found.diagnostics = [d for d in found.diagnostics if d.kind != "syntax-error"]
        else:
            continue

        def move(span: Span, start: int = start, shift: list[int] = shift) -> Span:
            first = shift[span.line - 1] if span.line - 1 < len(shift) else 0
            last = shift[span.end_line - 1] if span.end_line - 1 < len(shift) else 0
            return Span(span.line + start, span.column + first, span.end_line + start, span.end_column + last)

        moved = map_spans(found, move)
        result.launches.extend(moved.launches)
        result.diagnostics.extend(moved.diagnostics)
        result.comments.extend(moved.comments)
    return result
