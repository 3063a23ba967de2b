"""IPython code (a notebook code cell, a ```python fence): Python plus shell escapes.

`!cmd` lines (with their `\\` continuations) and `name = !cmd` are shell commands IPython
runs; `%%bash`, `%%sh`, `%%script bash` cells are shell scripts; other `%`/`%%` magics are
not Python. The Python part keeps its lines (a shell or magic line becomes `pass` at the
same indentation) so libcst parses it, and its positions map back through the pieces.
"""

from __future__ import annotations

import re
from dataclasses import field

from speclint.core.launches import Diagnostic, ExtractResult
from speclint.core.records import dataclass
from speclint.frontends.moved_spans import map_spans
from speclint.frontends.recognise import DOC_LAUNCHER, PYTHON_MENTIONS

from .excerpt import OffsetMap, exact, virtual

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.frontends.shell.embedded import Piece

    from .excerpt import DocFile

_SHELL_CELL = re.compile(r"%%(?:bash|sh|shell|system|script\s+(?:/\S*/)?(?:ba|z)?sh)\b")
_ASSIGNED_SHELL = re.compile(r"[A-Za-z_]\w*\s*=\s*!")


@dataclass(slots=True)
class SplitCell:
    """A notebook cell's Python lines and its shell lines (`!cmd`, `%%bash`), apart."""

    python: list[Piece] = field(default_factory=list)
    shell: list[list[Piece]] = field(default_factory=list)


def _line(offset: int, line: str) -> list[Piece]:
    return [exact(line, offset), virtual("\n", offset + len(line))]


def split_cell(lines: list[tuple[int, str]]) -> SplitCell:
    """The Python and the shell commands of one cell or fence."""
    cell = SplitCell()
    first = next((i for i, (_, line) in enumerate(lines) if line.strip()), None)
    if first is not None and _SHELL_CELL.match(lines[first][1].strip()):
        script: list[Piece] = []
        for offset, line in lines[first + 1 :]:
            script.extend(_line(offset, line))
        cell.shell.append(script)
        return cell
    in_string = False
    continuing = False
    for number, (offset, line) in enumerate(lines):
        stripped = line.lstrip()
        lead = len(line) - len(stripped)
        if continuing:
            cell.shell[-1].extend(_line(offset, line))
            cell.python.append(virtual("\n", offset))
            continuing = line.rstrip().endswith("\\")
            continue
        shell_at = None
        if not in_string:
            if stripped.startswith("!"):
                shell_at = lead + (2 if stripped.startswith("!!") else 1)
            elif _ASSIGNED_SHELL.match(stripped):
                shell_at = lead + stripped.index("!") + 1
        if shell_at is not None:
            cell.shell.append(_line(offset + shell_at, line[shell_at:]))
            cell.python.extend([exact(line[:lead], offset), virtual("pass\n", offset + len(line))])
            continuing = line.rstrip().endswith("\\")
        elif not in_string and (stripped.startswith("%") or (number == first and stripped.startswith("%%"))):
            cell.python.extend([exact(line[:lead], offset), virtual("pass\n", offset + len(line))])
        else:
            cell.python.extend(_line(offset, line))
            if (line.count('"""') + line.count("'''")) % 2:
                in_string = not in_string
    return cell


def python_worth_reading(doc: DocFile, code: str) -> bool:
    """As for a .py file (it mentions SGLang or one of its launch APIs), or a snippet that
    builds `ServerArgs(...)` without its import in a doc about SGLang (an issue's excerpt)."""
    if any(mention in code for mention in PYTHON_MENTIONS):
        return True
    return "ServerArgs(" in code and "sglang" in doc.text.lower()


def python_result(doc: DocFile, pieces: list[Piece]) -> ExtractResult:
    """The Python front-end on the pieces, positions moved into the file."""
    pieces = [p for p in pieces if p.text]
    mapping = OffsetMap(pieces, doc.starts)
    if not python_worth_reading(doc, mapping.text):
        return ExtractResult()
    from speclint.frontends.python.extract import extract_python  # libcst: only for code that mentions sglang

    return map_spans(extract_python(mapping.text + "\n", doc.path), mapping.move)


def add_python(doc: DocFile, found: ExtractResult) -> None:
    """Add a doc's Python result: a syntax error is a warning (docs show excerpts)."""
    doc.result.launches.extend(found.launches)
    doc.result.comments.extend(found.comments)
    for diagnostic in found.diagnostics:
        if diagnostic.kind == "syntax-error":
            diagnostic = Diagnostic("doc-syntax-error", diagnostic.message, diagnostic.span)
        doc.result.diagnostics.append(diagnostic)


_SESSION_PROMPT = re.compile(r"^(\s*)(?:>>>|\.\.\.|In \[\d+\]:|\.\.\.:)(?: |$)")
"""The interactive interpreter's prompts (`>>> `, and `... ` on a statement's further lines),
as the `doctest` module reads a session pasted into documentation, and IPython's (`In [1]: `,
`   ...: `; its `Out[1]:` lines are output)."""
PYTHON_SESSION = re.compile(r"^[ \t]*(?:In \[\d+\]:|>>>) ", re.MULTILINE)
"""A pasted interpreter or IPython terminal session: a line starting with `>>> ` or `In [N]: `."""


def _session(lines: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """A pasted interpreter session: the code after its prompts, the output lines blanked
    (a block without a `>>> ` line is code as it is)."""
    if not any(
        line.lstrip().startswith((">>>", "In [")) and _SESSION_PROMPT.match(line) for _, line in lines
    ):
        return lines
    kept = []
    for offset, line in lines:
        match = _SESSION_PROMPT.match(line)
        kept.append((offset + match.end(), line[match.end() :]) if match else (offset + len(line), ""))
    return kept


def python_block(doc: DocFile, lines: list[tuple[int, str]]) -> None:
    """A ```python fence: its Python (a pasted `>>> ` session read as doctest reads it), its
    shell escapes, and a shell command written in a Python fence (read as shell when Python
    finds no launch in it)."""
    lines = _session(lines)
    cell = split_cell(lines)
    for command in cell.shell:
        doc.shell(command, "drop", ipython=True)
    found = python_result(doc, cell.python)
    broken = any(d.kind == "syntax-error" for d in found.diagnostics)
    if not found.launches and broken and any(DOC_LAUNCHER.search(line) for _, line in lines):
        pieces = [piece for offset, line in lines for piece in _line(offset, line)]
        if doc.shell(pieces, "drop"):
            return
    add_python(doc, found)
