"""One of SGLang's `--speculative-*` options in a file of commands (a Makefile, justfile,
Procfile, unit, task file) outside every launch speclint read there: a recipe that runs the
project's own script with them (`./scripts/serve.sh $(SPEC_FLAGS)`), a variable no launch
expands. No other engine's speculative options have those names (vLLM's is
`--speculative-config`), so the flag says an SGLang server is started by a command speclint
did not read: said (`no-launch-found`, info) at the first such flag, never passed in silence.

Only spellings some SGLang release declares, exactly as written (the bundled schema data), on
a line that names no other engine, outside comments, and none a launch of the file read (where
a launch's words came from a variable, their spans point at its use, not at its value).
"""

from __future__ import annotations

from bisect import bisect_right

from speclint.core.launches import Diagnostic
from speclint.core.spans import Span
from speclint.frontends.python.wrapper_flags import MARK, OTHER_ENGINE, SPECULATIVE

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.launches import ExtractResult

_SAID = ("no-launch-found", "launcher-not-read", "launch-unread")


def say_unread_speculative(text: str, result: ExtractResult) -> None:
    """Add the diagnostic for the first unread `--speculative-*` option of SGLang's server."""
    if MARK not in text or any(d.kind in _SAID for d in result.diagnostics):
        return
    from speclint.sglang.flags.release_index import option_entries

    options = option_entries()
    starts = [0]
    at = text.find("\n")
    while at >= 0:
        starts.append(at + 1)
        at = text.find("\n", at + 1)
    read = [
        where
        for launch in result.launches
        for word in launch.args
        for where in (word.span, word.origin)
        if where
    ]
    taken = {word.text for launch in result.launches for word in launch.args}
    for match in SPECULATIVE.finditer(text):
        if match.group() not in options or match.group() in taken:
            continue  # (a flag a launch read: a variable it expands, `$(SPEC_FLAGS)`, written elsewhere)
        line = bisect_right(starts, match.start())
        column = match.start() - starts[line - 1] + 1
        if any(_inside(line, column, span) for span, _ in result.comments):
            continue
        if any(_inside(line, column, span) for span in read):
            continue
        end = text.find("\n", match.start())
        written = text[starts[line - 1] : end if end >= 0 else len(text)]
        if written.lstrip().startswith("#") or OTHER_ENGINE.search(written) is not None:
            continue
        said = (
            f"SGLang's `{match.group()}` is outside every launch speclint read in this file"
            if result.launches
            else f"this file names `{match.group()}`, an option of SGLang's server, but speclint found no launch in it"
        )
        message = (
            f"{said}: the command that passes it is not SGLang's launcher (a script of the project's "
            "own, a wrapper) or was not read as one, so nothing in it was checked"
        )
        result.diagnostics.append(
            Diagnostic("no-launch-found", message, Span(line, column, line, column + len(match.group())))
        )
        return


def _inside(line: int, column: int, span: Span) -> bool:
    return (span.line, span.column) <= (line, column) < (span.end_line, span.end_column)
