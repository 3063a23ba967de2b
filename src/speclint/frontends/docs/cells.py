"""IPython code (a notebook code cell, a ```python fence): Python plus shell escapes.

`!cmd` lines (with their `\\` continuations) and `name = !cmd` are shell commands IPython
runs; `%%bash`, `%%sh`, `%%script bash` cells are shell scripts; other `%`/`%%` magics are
not Python. The Python part keeps its lines (a shell or magic line becomes `pass` at the
same indentation, an `%env` line the `os.environ` assignment it makes) so libcst parses it,
and its positions map back through the pieces.
"""

from __future__ import annotations

from dataclasses import field

from speclint.core import patterns
from speclint.core.launches import Diagnostic, ExtractResult
from speclint.core.records import dataclass
from speclint.frontends.moved_spans import map_spans
from speclint.frontends.recognise import DOC_LAUNCHER, PYTHON_MENTIONS

from .excerpt import OffsetMap, exact, unknown, virtual

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.frontends.shell.pieces import Piece

    from .excerpt import DocFile

_SHELL_CELL = patterns.compile(r"%%(?:bash|sh|shell|system|script\s+(?:/\S*/)?(?:ba|z)?sh)\b")
_ASSIGNED_SHELL = patterns.compile(r"[A-Za-z_]\w*\s*=\s*!")
_WRITEFILE = patterns.compile(r"%%(?:writefile|file)(?:[ \t]+-a)?[ \t]+(['\"]?)(\S+?)\1[ \t]*$")
"""IPython's `%%writefile NAME` (`-a` appends): the cell's text is written to the file, not run."""
_NOT_PYTHON_CELL = patterns.compile(r"%%(?:html|javascript|js|latex|markdown|svg|perl|ruby)\b")
"""Cell magics whose text IPython hands to another language, not to Python."""
_SHEBANG_SHELL = patterns.compile(r"#![ \t]*/\S*(?:/env[ \t]+)?(?:ba|z|da)?sh\b")


@dataclass(slots=True)
class SplitCell:
    """A notebook cell's Python lines and its shell lines (`!cmd`, `%%bash`), apart."""

    python: list[Piece] = field(default_factory=list)
    shell: list[list[Piece]] = field(default_factory=list)
    env: list[tuple[int, list[Piece]]] = field(default_factory=list)
    """`export NAME=value` pieces for what the cell sets in the kernel's environment (`%env`,
    `os.environ[NAME] = ...`), each with how many of `shell` run before it: the shell
    commands IPython starts later inherit it."""
    unread: list[tuple[int, str]] = field(default_factory=list)
    """The lines of a cell that is neither Python nor shell (`%%writefile config.yaml`,
    `%%html`): a launcher in them is said not read."""
    why: str = ""


_ENV_MAGIC = patterns.compile(r"%(?:set_)?env[ \t]+(?=\S)")
_ENVIRON = patterns.compile(r"os\.environ\[(['\"])([A-Za-z_]\w*)\1\][ \t]*=(?!=)[ \t]*(.*?)[ \t]*(?:#.*)?$")
_PY_STRING = patterns.compile(r"(['\"])([^'\"\\\n]*)\1")


def _export(name: str, name_at: int, value: str | None, value_at: int, end: int, reason: str) -> list[Piece]:
    """`export NAME='value'` (the value unknown, for `reason`, when None), at the file's text."""
    pieces = [virtual("export ", name_at), exact(name, name_at), virtual("=", value_at)]
    if value is None or "'" in value:
        pieces.append(unknown(reason, value_at, max(end, value_at + 1)))
    else:
        pieces.extend([virtual("'", value_at), exact(value, value_at), virtual("'", end)])
    return [*pieces, virtual("\n", end)]


def _env_magic(offset: int, line: str, lead: int) -> tuple[str, int, str | None, int, int, str] | None:
    """(NAME, where, value or None when IPython expands it, where, its end, why not known) of
    an `%env NAME=value` / `%env NAME value` line (IPython's `set_env`: split at the first
    `=`, else the first space, both sides stripped; `$x` and `{x}` expanded from the
    kernel); None for `%env NAME` (it reads it) and other lines."""
    magic = _ENV_MAGIC.match(line, lead)
    if magic is None:
        return None
    rest = line[magic.end() :]
    split = "=" if "=" in rest else " "
    if split not in rest:
        return None  # `%env NAME` reads it
    name, value = rest.split(split, 1)
    at = offset + magic.end() + len(name) - len(name.lstrip())
    name, stripped = name.strip(), value.strip()
    if not name or any(c.isspace() for c in name):
        return None  # IPython refuses it
    value_at = offset + magic.end() + len(rest) - len(value.lstrip())
    expanded = "$" in stripped or "{" in stripped
    reason = f"an IPython `%env` value (`{stripped}`), expanded from the kernel's variables"
    return name, at, None if expanded else stripped, value_at, value_at + len(stripped), reason


def _env_line(offset: int, line: str, lead: int) -> list[Piece] | None:
    """What an `%env` line (`_env_magic`) or an `os.environ["NAME"] = "value"` line sets, as
    `export` pieces; None for other lines."""
    magic = _env_magic(offset, line, lead)
    if magic is not None:
        return _export(*magic)
    environ = _ENVIRON.match(line, lead)
    if environ is None:
        return None
    name_at = offset + environ.start(2)
    value_at = offset + environ.start(3)
    literal = _PY_STRING.fullmatch(environ.group(3))
    written = environ.group(3)
    reason = f"a Python value (`{written}`), set in the kernel's environment when the cell runs"
    if literal is None:
        return _export(environ.group(2), name_at, None, value_at, value_at + len(written), reason)
    return _export(
        environ.group(2),
        name_at,
        literal.group(2),
        value_at + 1,
        value_at + 1 + len(literal.group(2)),
        reason,
    )


def _env_python(offset: int, line: str, lead: int) -> list[Piece]:
    """The Python statement for a magic line: `os.environ["NAME"] = "value"` for an `%env`
    that sets a variable (so a Python launch after it, `launch_server_cmd(...)`,
    `subprocess.Popen([...])`, inherits it as from the kernel), each part where the line
    writes it; the value IPython expands is `get_ipython().var_expand(...)` (what IPython
    runs: not known statically). `pass` for other magics."""
    indent = exact(line[:lead], offset)
    magic = _env_magic(offset, line, lead) if line[lead:].startswith(("%env", "%set_env")) else None
    if magic is None or '"' in magic[0] or "\\" in magic[0]:  # (a name Python's string can't hold as written)
        return [indent, virtual("pass\n", offset + len(line))]
    name, name_at, value, value_at, end, _ = magic
    quote = next((q for q in ('"', "'") if value is not None and q not in value and "\\" not in value), None)
    pieces = [indent, virtual('os.environ["', name_at), exact(name, name_at), virtual('"] = ', value_at)]
    if quote is None or value is None:
        pieces.append(virtual("get_ipython().var_expand()", value_at))
    else:
        pieces += [virtual(quote, value_at), exact(value, value_at), virtual(quote, end)]
    return [*pieces, virtual("\n", end)]


def with_environment(cell: SplitCell, environment: list[Piece]) -> list[list[Piece]]:
    """The cell's shell commands, each after the `export` lines set before it (in earlier
    cells: `environment`, which this extends with the cell's own)."""
    commands = []
    pending = list(cell.env)
    for number, command in enumerate(cell.shell):
        while pending and pending[0][0] <= number:
            environment.extend(pending.pop(0)[1])
        commands.append([*environment, *command] if environment else command)
    for _, pieces in pending:
        environment.extend(pieces)
    return commands


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
    if first is not None and (kind := _cell_magic(lines[first][1].strip(), lines[first + 1 :])) is not None:
        if kind == "shell":  # `%%writefile serve.sh`: the script the notebook then runs
            script = [p for offset, line in lines[first + 1 :] for p in _line(offset, line)]
            cell.shell.append(script)
            return cell
        if kind != "python":
            cell.unread, cell.why = lines[first + 1 :], kind
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
            cell.python.extend(_env_python(offset, line, lead))
            if stripped.startswith("%env") or stripped.startswith("%set_env"):
                exported = _env_line(offset, line, lead)
                if exported is not None:
                    cell.env.append((len(cell.shell), exported))
        else:
            cell.python.extend(_line(offset, line))
            if not in_string and "os.environ[" in stripped:
                exported = _env_line(offset, line, lead)
                if exported is not None:
                    cell.env.append((len(cell.shell), exported))
            if (line.count('"""') + line.count("'''")) % 2:
                in_string = not in_string
    return cell


def _cell_magic(magic: str, body: list[tuple[int, str]]) -> str | None:
    """What a first-line cell magic makes of the cell's text: "shell" (`%%writefile x.sh`, or
    a file whose first line is a shell's `#!`), "python" (`%%writefile x.py`), why it is not
    read (another file written, `%%html`), or None (a magic that runs the cell as Python)."""
    written = _WRITEFILE.match(magic)
    if written is not None:
        name = written.group(2)
        head = next((line.strip() for _, line in body if line.strip()), "")
        if name.endswith((".sh", ".bash")) or _SHEBANG_SHELL.match(head):
            return "shell"
        if name.endswith(".py"):
            return "python"
        return (
            f"the cell is written to `{name}` by `%%writefile`, a file speclint does not read from a notebook"
        )
    if _NOT_PYTHON_CELL.match(magic):
        return f"`{magic.split()[0]}` runs the cell as another language, not as Python or shell"
    return None


def python_worth_reading(doc: DocFile, code: str) -> bool:
    """As for a .py file (it mentions SGLang or one of its launch APIs, or writes one of SGLang's
    `--speculative-*` options), or a snippet that builds `ServerArgs(...)` without its import
    in a doc about SGLang (an issue's excerpt)."""
    if any(mention in code for mention in PYTHON_MENTIONS):
        return True
    if "--speculative-" in code:  # a wrapper run with SGLang's flags (`python.wrapper_flags`)
        from speclint.frontends.python.wrapper_flags import sglang_spellings

        if sglang_spellings(code):
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


_SESSION_PROMPT = patterns.compile(r"^(\s*)(?:>>>|\.\.\.|In \[\d+\]:|\.\.\.:)(?: |$)")
"""The interactive interpreter's prompts (`>>> `, and `... ` on a statement's further lines),
as the `doctest` module reads a session pasted into documentation, and IPython's (`In [1]: `,
`   ...: `; its `Out[1]:` lines are output)."""
PYTHON_SESSION = patterns.compile(r"^[ \t]*(?:In \[\d+\]:|>>>) ", patterns.MULTILINE)
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
    unread_cell(doc, cell)
    for command in with_environment(cell, []):
        doc.shell(command, "drop", ipython=True)
    found = python_result(doc, cell.python)
    broken = any(d.kind == "syntax-error" for d in found.diagnostics)
    if not found.launches and broken and any(DOC_LAUNCHER.search(line) for _, line in lines):
        pieces = [piece for offset, line in lines for piece in _line(offset, line)]
        if doc.shell(pieces, "drop"):
            return
    add_python(doc, found)


def unread_cell(doc: DocFile, cell: SplitCell) -> None:
    """A cell neither Python nor shell that runs the launcher: said not read, at the launcher."""
    if cell.unread:
        from .unread import unread_launcher

        unread_launcher(doc, cell.unread, [], cell.why, by_name=True)
