"""A launch command held in a Python string of a notebook that speclint did not see run.

`cmd = "python3 -m sglang.launch_server --model-path ... --tp 2"` then `!{cmd}` (IPython
puts the variable's value into the shell line), or a string handed to a helper the notebook
imports: the command runs, but no launch was read from it. Each such string (the launcher and
a flag after it, on a line that opens a string before it, or right after a line that opens
a triple-quoted one) that no launch read is said not read, so a notebook with other launches
is never "All checks passed" over it.

A command a cell prints for the reader to run in a terminal (`print("python -m
sglang.launch_server --model-path ... --tp 2")`, the string a plain literal on one line) is
read as a doc command is, its rest unknown where it shows no model.
"""

from __future__ import annotations

from speclint.core import patterns
from speclint.frontends.recognise import PROSE_LAUNCH

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .excerpt import DocFile

_FLAG_AFTER = patterns.compile(r"\s--?[A-Za-z]")
_PRINTED = patterns.compile(r"""\s*print\(\s*([rRuUfF]?)(["'])((?:(?!\2)[^\\])*)\2\s*\)\s*;?\s*""")
"""`print("...")` of one plain string literal (no escape), the whole line."""
_NOT_PLAIN = patterns.compile(r"[<>|;&()`]")
"""A shell operator or a `<placeholder>` in a printed command: not read as written."""
_OPENS_TRIPLE = patterns.compile(r"(?:[rRfFbBuU]{0,2})(?:\"\"\"|''')\s*(?:\\)?$")


def unread_string_launches(doc: DocFile, code_cells: list[tuple[int, int]]) -> None:
    """`launcher-not-read` at each launcher in a Python string of the code cells (notebook
    text ranges) whose line no launch covers and no diagnostic speaks of."""
    from speclint.core.diagnostics import Diagnostic
    from speclint.frontends.shell.pieces import span_of

    covered: set[int] = set()
    for launch in doc.result.launches:  # (a string read through a variable: its words' lines)
        for span in [launch.span, *(w.span for w in launch.args), *(k.span for k, _ in launch.kwargs)]:
            covered.update(range(span.line, span.end_line + 1))
    covered.update(d.span.line for d in doc.result.diagnostics)
    for begin, end in code_cells:
        previous = ""
        offset = begin
        for line in doc.text[begin:end].split("\n"):
            match = PROSE_LAUNCH.search(line)
            number = doc.text.count("\n", 0, offset) + 1 if match else 0
            if (
                match is not None
                and number not in covered
                and _FLAG_AFTER.match(line, match.end())
                and not line.lstrip().startswith(("#", "!", "%"))
                and (any(q in line[: match.start()] for q in "\"'") or _OPENS_TRIPLE.search(previous))
                and not _printed(doc, line, offset)
            ):
                named = " ".join(match.group().split())
                doc.result.diagnostics.append(
                    Diagnostic(
                        "launcher-not-read",
                        f"speclint did not read the command that runs `{named}` in this Python string "
                        "(it did not see the string run: `!{variable}`, a helper it does not follow), "
                        "so nothing in this launch was checked",
                        span_of(doc.starts, offset + match.start(), offset + match.end()),
                    )
                )
            previous = line
            offset += len(line) + 1


def _printed(doc: DocFile, line: str, offset: int) -> bool:
    """A cell line printing a command for the reader to run (`print("python -m
    sglang.launch_server ...")`): read as a doc command. Returns whether a launch was read."""
    printed = _PRINTED.fullmatch(line)
    if printed is None or ("f" in printed.group(1).lower() and "{" in printed.group(3)):
        return False
    command = printed.group(3)
    launcher = PROSE_LAUNCH.match(command)
    if launcher is None or _NOT_PLAIN.search(command):
        return False
    from .excerpt import exact
    from .inline import flags_and_values, with_rest

    if not flags_and_values(command[launcher.end() :].split()):
        return False  # (`... --model-path m, then query it`: a sentence)

    return doc.shell(with_rest([exact(printed.group(3), offset + printed.start(3))]), "drop") > 0
