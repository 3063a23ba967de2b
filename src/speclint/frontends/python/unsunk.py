"""An argv list of the file that runs SGLang's launcher (`["python3", "-m",
"sglang.launch_server", ...]`) but that no call speclint reads ever runs: handed to a thread
(`threading.Thread(target=subprocess.run, args=(cmd,))`), `os.spawnlp`, a library speclint
does not know. In a file whose other launches are read it was passed over; it is said
(`launcher-not-read`, SLM005) at the module's name. The list is found in the file's text
(`"-m", "MODULE"` as two adjacent string items), outside comments; one whose characters
reached a launch sink (`PyWalker.sunk`) was read.
"""

from __future__ import annotations

from bisect import bisect_right

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.diagnostics import Diagnostic
    from speclint.core.spans import Span


def unsunk_argv_lists(
    text: str, starts: list[int], sunk: list[tuple[int, int]], comments: list[tuple[Span, str]]
) -> list[Diagnostic]:
    """A `launcher-not-read` diagnostic at each launcher module written as the item after
    `"-m"` in a list that no sink took."""
    from speclint.core import patterns
    from speclint.core.diagnostics import Diagnostic
    from speclint.frontends.recognise import launcher_module
    from speclint.frontends.shell.pieces import span_of

    found = patterns.compile(rf"""(["'])-m\1\s*,\s*(["'])(?P<module>{launcher_module()})\2""")
    ranges = sorted(sunk)
    begins = [begin for begin, _ in ranges]
    out: list[Diagnostic] = []
    for match in found.finditer(text):
        at = match.start("module")
        index = bisect_right(begins, at)
        if any(begin <= at < max(end, begin + 1) for begin, end in ranges[:index]):
            continue  # (read: a launch, or a command said unread where it runs)
        span = span_of(starts, at, match.end("module"))
        if any(_inside(span, comment) for comment, _ in comments):
            continue
        out.append(
            Diagnostic(
                "launcher-not-read",
                f"speclint did not read the launch these argv words make, which run "
                f"`{match.group('module')}`: no call speclint reads runs them (a thread, `os.spawn*`, "
                "a library's runner), so nothing in this launch was checked",
                span,
            )
        )
    return out


def _inside(span: Span, comment: Span) -> bool:
    return (comment.line, comment.column) <= (span.line, span.column) and (
        span.end_line,
        span.end_column,
    ) <= (
        comment.end_line,
        comment.end_column,
    )
