"""Jupyter notebook front-end (.ipynb, read with the standard json module).

Code cells are IPython: Python (all code cells together, as the kernel runs them, so an
import in one cell serves the next), `!` shell escapes and `%%bash` cells; Markdown cells
go to the Markdown front-end. A cell's text lives in JSON strings (`"source": ["line\\n",
...]`), so every character is mapped back to where the JSON string writes it: a finding's
line and column are the .ipynb file's own, which any editor opens.
"""

from __future__ import annotations

import json
import re

from speclint.core.launches import Diagnostic, ExtractResult
from speclint.core.spans import Span
from speclint.frontends.moved_spans import map_spans
from speclint.frontends.recognise import PYTHON_MENTIONS
from speclint.frontends.shell.pieces import Piece, line_starts

from .cells import SplitCell, add_python, python_result, split_cell, unread_cell, with_environment
from .excerpt import DocFile, OffsetMap, exact, virtual

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_ESCAPE = re.compile(r"\\(?:u[0-9a-fA-F]{4}(?:\\u[0-9a-fA-F]{4})?|.)", re.S)
MAX_RETRIES = 3
"""Cells left out, one at a time, when the notebook's Python does not parse as a whole."""


JsonPath = tuple[str | int, ...]
"""Where a value sits in the notebook's JSON: keys and list indices from the top."""


class _Pairs(list[tuple[str, object]]):
    """A JSON object as its (key, value) pairs in file order (duplicate keys kept)."""

    def get(self, key: str, default: object = None) -> object:
        return next((v for k, v in self if k == key), default)


def _string_pieces(text: str, begin: int, end: int) -> list[Piece]:
    """The decoded JSON string token text[begin:end] (quotes included), each character
    mapped to where it is written (an escape maps to the whole escape)."""
    pieces: list[Piece] = []
    position = begin + 1
    for match in _ESCAPE.finditer(text, begin + 1, end - 1):
        if match.start() > position:
            pieces.append(exact(text[position : match.start()], position))
        decoded = json.loads('"' + match.group() + '"')
        pieces.append(Piece(decoded, match.start(), match.end()))
        position = match.end()
    if end - 1 > position:
        pieces.append(exact(text[position : end - 1], position))
    return pieces


def _walk_strings(data: object) -> list[tuple[JsonPath, str]]:
    """(path, value) of every string, keys included, in file order (no recursion)."""
    out: list[tuple[JsonPath, str]] = []
    stack: list[tuple[JsonPath, object]] = [((), data)]
    while stack:
        path, node = stack.pop()
        if isinstance(node, str):
            out.append((path, node))
        elif isinstance(node, _Pairs):
            for key, value in reversed(node):
                stack.append((path + (key,), value))
                stack.append((path + ("<key>",), key))
        elif isinstance(node, list):
            for index in range(len(node) - 1, -1, -1):
                stack.append((path + (index,), node[index]))
    return out


def _cells(text: str, data: object) -> list[tuple[str, list[Piece]]] | None:
    """(cell type, pieces of its source) per cell; None when the strings cannot be lined
    up with the file (then the notebook is reported unread)."""
    tokens = [m.span() for m in _STRING.finditer(text)]
    strings = _walk_strings(data)
    if len(tokens) != len(strings):
        return None
    cells: dict[JsonPath, list[Piece]] = {}
    kinds: dict[JsonPath, str] = {}
    for (path, value), (begin, end) in zip(strings, tokens):
        cell = _cell_of(path)
        if cell is None:
            continue
        where, field = cell
        if field == "cell_type":
            kinds[where] = value
        else:
            cells.setdefault(where, []).extend(_string_pieces(text, begin, end))
    return [(kinds.get(where, "code"), pieces) for where, pieces in cells.items()]


def _cell_of(path: JsonPath) -> tuple[JsonPath, str] | None:
    """(cell path, 'cell_type' or 'source') for a string inside a cell's type or source:
    nbformat 4 `cells[i].source`, nbformat 3 `worksheets[j].cells[i].input`."""
    for index, part in enumerate(path):
        if part == "cells" and index + 2 < len(path) and isinstance(path[index + 1], int):
            rest = path[index + 2 :]
            where = path[: index + 2]
            if rest == ("cell_type",):
                return where, "cell_type"
            if rest[:1] in (("source",), ("input",)) and len(rest) <= 2:
                return where, "source"
    return None


def _unread(path: str, message: str, line: int = 1, column: int = 1) -> ExtractResult:
    return ExtractResult(
        diagnostics=[
            Diagnostic(
                "unsupported-input",
                f"{message}; launches in this notebook are not checked",
                Span.point(max(line, 1), max(column, 1)),
            )
        ]
    )


def extract_notebook(text: str, path: str) -> ExtractResult:
    try:
        data = json.loads(text, object_pairs_hook=_Pairs)
    except json.JSONDecodeError as error:
        return _unread(
            path, f"not a readable notebook (invalid JSON: {error.msg})", error.lineno, error.colno
        )
    except RecursionError:
        return _unread(path, "notebook JSON nested too deeply for speclint to follow")
    cells = _cells(text, data)
    if cells is None:
        return _unread(path, "the notebook's JSON strings could not be lined up with the file")
    starts = line_starts(text)
    result = ExtractResult()
    code: list[Piece] = []
    code_cells: list[tuple[int, int]] = []  # notebook-text range of each code cell
    size = 0
    for kind, pieces in cells:
        cell_text = "".join(p.text or "" for p in pieces)
        if kind == "markdown" and ("sglang" in cell_text or "--speculative-" in cell_text):
            from .markdown import extract_markdown

            mapping = OffsetMap(pieces, starts)
            found = map_spans(extract_markdown(mapping.text, path), mapping.move)
            result.launches.extend(found.launches)
            result.diagnostics.extend(found.diagnostics)
            result.comments.extend(found.comments)
        elif kind == "raw" and "sglang" in cell_text:
            result.diagnostics.extend(_raw_cell(path, pieces, starts))
        elif kind == "code":
            code_cells.append((size, size + len(cell_text)))
            code.extend(pieces)
            code.append(virtual("\n", pieces[-1].end if pieces else 0))
            size += len(cell_text) + 1
    if code:
        _code(path, code, code_cells, starts, result)
    return result


def _raw_cell(path: str, pieces: list[Piece], starts: list[int]) -> list[Diagnostic]:
    """A raw cell (not run; nbconvert copies it into the output as it is) holding a command:
    said not read, at its launcher, in the notebook file."""
    from .unread import unread_launcher

    mapping = OffsetMap(pieces, starts)
    doc = DocFile(mapping.text, path)
    lines, offset = [], 0
    for line in mapping.text.split("\n"):
        lines.append((offset, line))
        offset += len(line) + 1
    unread_launcher(doc, lines, [], "it is a raw cell, which the notebook does not run")
    return map_spans(doc.result, mapping.move).diagnostics


def _code(
    path: str, code: list[Piece], code_cells: list[tuple[int, int]], starts: list[int], result: ExtractResult
) -> None:
    """The code cells, read in their own text (`notebook`) and moved into the file."""
    mapping = OffsetMap(code, starts)
    notebook = mapping.text
    mentions = any(mention in notebook for mention in PYTHON_MENTIONS)
    if not mentions and "--speculative-" not in notebook:
        return
    doc = DocFile(notebook, path)
    if "-f" in notebook and ("kubectl" in notebook or "oc " in notebook):  # `kubectl apply -f - << EOF`
        from speclint.frontends.manifest_reader import read_unit_or_manifest

        doc.unit_reader = read_unit_or_manifest
    split = []
    for begin, end in code_cells:
        lines, offset = [], begin
        for line in notebook[begin:end].split("\n"):
            lines.append((offset, line.rstrip("\r")))
            offset += len(line) + 1
        split.append(split_cell(lines))
        if mentions:
            unread_cell(doc, split[-1])
    if "--speculative-" in notebook:  # `!python -m my_harness --speculative-...`: said not read
        from .flag_fragments import remember_commands, say_unread_fragments

        remember_commands(doc, [command for cell in split for command in cell.shell])
        if not mentions and not _python_spells(split):  # (else a Python wrapper's run: read)
            say_unread_fragments(doc)
            _move(doc, mapping, result)
            return
    environment: list[Piece] = []  # what `%env` / `os.environ[...] =` set, in cell order
    for cell in split:
        for command in with_environment(cell, environment):
            doc.shell(command, "drop", ipython=True)
    active = list(range(len(split)))
    for _ in range(MAX_RETRIES + 1):
        found = python_result(
            doc, [p for i in active for p in split[i].python + [virtual("\n", code_cells[i][1])]]
        )
        broken = next((d for d in found.diagnostics if d.kind == "syntax-error"), None)
        if broken is None or len(active) <= 1:
            add_python(doc, found)
            break
        at = doc.starts[min(broken.span.line, len(doc.starts)) - 1] + broken.span.column - 1
        left_out = next((i for i in active if code_cells[i][0] <= at <= code_cells[i][1]), active[-1])
        add_python(doc, ExtractResult(diagnostics=[broken]))
        active.remove(left_out)
    else:
        for index in active:
            add_python(doc, python_result(doc, split[index].python))
    from .notebook_pins import install_pins, pin_launches
    from .notebook_strings import unread_string_launches

    unread_string_launches(doc, code_cells)

    pin_launches(doc.result.launches, install_pins(notebook, doc.starts), doc.starts)
    if doc.fragments:
        from .flag_fragments import say_unread_fragments

        say_unread_fragments(doc)
    _move(doc, mapping, result)


def _python_spells(split: list[SplitCell]) -> bool:
    """Whether the cells' Python writes one of SGLang's `--speculative-*` options (a wrapper's
    command run with them: `python.wrapper_flags`)."""
    from speclint.frontends.python.wrapper_flags import sglang_spellings

    return any(sglang_spellings("".join(p.text or "" for p in cell.python)) for cell in split)


def _move(doc: DocFile, mapping: OffsetMap, result: ExtractResult) -> None:
    """What was read in the code cells' own text, moved into the notebook file."""
    moved = map_spans(doc.result, mapping.move)
    result.launches.extend(moved.launches)
    result.diagnostics.extend(moved.diagnostics)
    result.comments.extend(moved.comments)
