"""Markdown front-end (markdown-it-py, CommonMark): launches in docs and READMEs.

Read: fenced and indented code blocks (shell, console with `$ ` prompts, Python with
IPython escapes, a shell command in a Python fence), blocks inside list items, block quotes
and MkDocs admonitions/tabs; launches in inline code spans and on prose lines; flag lists
written without their command. Everything is cut out with its file positions (see
`excerpt`), so findings point into the Markdown file. A doc block never yields an
error-severity syntax finding: a tagged shell or Python block that does not parse is a
warning, untagged text is not complained about.
"""

from __future__ import annotations

import re

from ...extract.embedded import Piece
from ...source import ExtractResult
from .admonitions import deindent_admonitions
from .cells import python_block
from .excerpt import DocFile, exact, virtual
from .flag_lists import block_flag_list, is_sglang_list, launch_from_parts
from .inline import (LAUNCHER, Fragments, classify_fragment, code_span_launch, code_spans,
                     prose_launches, span_pieces)

_SHELL_TAGS = {"bash", "sh", "shell", "zsh", "ksh", "console", "shell-session", "shellsession",
               "sh-session", "bash-session", "terminal", "shellscript", "shell-script"}
_CONSOLE_TAGS = {"console", "shell-session", "shellsession", "sh-session", "bash-session", "terminal"}
_PYTHON_TAGS = {"python", "py", "python3", "ipython", "ipython3", "jupyter"}
_TEXT_TAGS = {"text", "txt", "plaintext", "plain", "none", "log"}
_PROMPT = re.compile(r"^(\s*)\$ ")
MAX_NESTING = 50
"""Containers markdown-it opens inside each other before it reads the rest as text."""


def _tag(info: str) -> str:
    words = info.strip().split()
    if not words:
        return ""
    first = words[0]
    if first.startswith("{") and first.endswith("}") and len(words) > 1 and "." not in first:
        first = words[1]  # {code-block} bash
    return first.strip("{}").lstrip(".").lower()


def _block_lines(token, lines: list[str], starts: list[int]) -> list[tuple[int, str]]:
    """(file offset, text) of each content line of a code block token: markdown-it strips
    container indentation, so the content line is the end of the original line."""
    first = token.map[0] + (1 if token.type == "fence" else 0)
    content = token.content.split("\n")
    if content and content[-1] == "":
        content.pop()
    out = []
    for number, text in enumerate(content):
        index = first + number
        if index >= len(lines) or index >= token.map[1]:
            break
        original = lines[index].rstrip("\r")
        text = text.rstrip("\r")
        column = len(original) - len(text) if original.endswith(text) else \
            len(original) - len(original.lstrip())
        out.append((starts[index] + column, original[column:]))
    return out


def _console(lines: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """Commands of a console block: prompts removed, output lines blanked."""
    kept = []
    continuing = False
    for offset, line in lines:
        match = _PROMPT.match(line)
        if match:
            kept.append((offset + match.end(), line[match.end():]))
            continuing = line.rstrip().endswith("\\")
        elif continuing:
            kept.append((offset, line))
            continuing = line.rstrip().endswith("\\")
        else:
            kept.append((offset + len(line), ""))
    return kept


def _pieces(lines: list[tuple[int, str]]) -> list[Piece]:
    pieces: list[Piece] = []
    for offset, line in lines:
        if line:
            pieces.append(exact(line, offset))
        pieces.append(virtual("\n", offset + len(line)))
    return pieces


def _code_block(doc: DocFile, tag: str, lines: list[tuple[int, str]]) -> None:
    joined = "\n".join(line for _, line in lines)
    if tag in _PYTHON_TAGS:
        if "sglang" in joined:
            python_block(doc, lines)
        return
    if tag not in _SHELL_TAGS and tag not in _TEXT_TAGS and tag != "":
        return
    if "--speculative-" in joined and not LAUNCHER.search(joined) and block_flag_list(doc, lines):
        return
    if tag in _TEXT_TAGS or "sglang" not in joined:
        return
    if tag in _CONSOLE_TAGS or any(_PROMPT.match(line) for _, line in lines):
        lines = _console(lines)
    # a tagged shell block that does not parse is a warning; an untagged block may be output
    doc.shell(_pieces(lines), "warn" if tag else "drop")


def _inline(doc: DocFile, token, fragments: Fragments | None, in_list: bool) -> None:
    """A paragraph (or heading, or table row): code spans, prose launches, fragments."""
    first, stop = token.map
    stop = min(stop, len(doc.starts))
    if first >= stop:
        return
    begin = doc.starts[first]
    end = doc.starts[stop] - 1 if stop < len(doc.starts) else len(doc.text)
    region = doc.text[begin:end]
    spans = code_spans(region, begin)
    leading = region.lstrip(" \t>-*+0123456789.)")
    for index, span in enumerate(spans):
        if code_span_launch(doc, span):
            continue
        kind = classify_fragment(span)
        if kind is None:
            continue
        item = in_list and fragments is not None and index == 0 and leading.startswith("`")
        if kind == "flags" and item:
            fragments.flags.append(span_pieces(span))
        elif kind == "env" and item:
            fragments.env.append(span_pieces(span))
        elif kind == "flags" and len(span.text.split()) >= 2 and is_sglang_list(span.text):
            launch_from_parts(doc, [], [span_pieces(span)])
    lines = []
    for index in range(first, stop):
        line_end = doc.starts[index + 1] - 1 if index + 1 < len(doc.starts) else len(doc.text)
        lines.append((doc.starts[index], doc.text[doc.starts[index]:line_end].rstrip("\r")))
    if "sglang" in region:
        prose_launches(doc, lines, spans)


def _flush(doc: DocFile, fragments: Fragments | None) -> None:
    if fragments is None or not fragments.flags:
        return
    if is_sglang_list(" ".join(p.text or "" for part in fragments.flags for p in part)):
        launch_from_parts(doc, fragments.env, fragments.flags)


def extract_markdown(text: str, path: str) -> ExtractResult:
    from markdown_it import MarkdownIt  # loaded only for a Markdown file that mentions sglang

    doc = DocFile(text, path)
    parser = MarkdownIt("commonmark", {"maxNesting": MAX_NESTING}).enable("table")
    tokens = parser.parse(deindent_admonitions(text))
    lines = text.split("\n")
    depth = 0
    fragments: Fragments | None = None
    seen: set[tuple[int, int]] = set()
    for token in tokens:
        if token.type in ("bullet_list_open", "ordered_list_open"):
            if depth == 0:
                fragments = Fragments([], [])
            depth += 1
        elif token.type in ("bullet_list_close", "ordered_list_close"):
            depth -= 1
            if depth == 0:
                _flush(doc, fragments)
                fragments = None
        elif token.type in ("fence", "code_block") and token.map:
            tag = _tag(token.info) if token.type == "fence" else ""
            _code_block(doc, tag, _block_lines(token, lines, doc.starts))
        elif token.type == "inline" and token.map and tuple(token.map) not in seen:
            seen.add(tuple(token.map))
            _inline(doc, token, fragments, depth > 0)
    _flush(doc, fragments)
    return doc.result
