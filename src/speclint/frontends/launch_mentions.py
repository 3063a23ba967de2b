"""After extraction, for every front-end: a file that names SGLang's launcher but yielded no
launch gets one `no-launch-found` diagnostic, and so does each command that runs the launcher
through a command speclint does not read in a file that has launches, so a clean run never
hides an unread launch."""

from __future__ import annotations

from speclint.core.spans import Span
from speclint.frontends import recognise

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.diagnostics import Diagnostic
    from speclint.core.launches import ExtractResult

_GIVES_UP = ("unsupported-input", "file-too-large")
"""Diagnostics that already say nothing in the file was checked."""
_KIND = "no-launch-found"
_NOT_READ = "launcher-not-read"
"""A front-end's note: a command it did not read runs the launcher's own words."""
_REASONS = ("launch-unread", "syntax-error", "doc-syntax-error", "template-gap", "broken-continuation")
"""Diagnostics that may explain why no launch was found, most specific first."""


def _commented(span: Span, comments: list[tuple[Span, str]]) -> bool:
    return any(
        (c.line, c.column) <= (span.line, span.column)
        and (span.end_line, span.end_column) <= (c.end_line, c.end_column)
        for c, _ in comments
    )


def _span_at(text: str, start: int, end: int) -> Span:
    line = text.count("\n", 0, start) + 1
    column = start - (text.rfind("\n", 0, start) + 1) + 1
    return Span(line, column, line, column + (end - start))


def no_launch_found(text: str, extracted: ExtractResult) -> Diagnostic | None:
    """The diagnostic for a file that names the launcher (outside comments) but yielded no
    launch, pointing at the first mention of the most telling kind (`MENTIONS`); None when
    there is a launch or no mention."""
    if extracted.launches or any(d.kind in _GIVES_UP or d.kind == _KIND for d in extracted.diagnostics):
        return None  # (a front-end already said what it did not read: the router's launcher)
    for mention in recognise.MENTIONS:  # compiled here, for a file without a launch
        for match in mention.finditer(text):
            part = "named" if "named" in mention.groupindex and match.group("named") else 0
            span = _span_at(text, match.start(part), match.end(part))
            if not _commented(span, extracted.comments):
                return _finding(match.group(part), span, extracted)
    said = next((d for d in extracted.diagnostics if d.kind == _NOT_READ), None)
    if said is not None:  # a launch a front-end found but did not read, in words no mention has
        from speclint.core.diagnostics import Diagnostic  # (`run_bench_one_batch(m, [...])`)

        return Diagnostic(_KIND, said.message, said.span)
    return None


def _finding(named: str, span: Span, extracted: ExtractResult) -> Diagnostic:
    from speclint.core.diagnostics import Diagnostic

    message = f"this file names `{named}` but speclint found no launch in it"
    reason = next((d for kind in _REASONS for d in extracted.diagnostics if d.kind == kind), None)
    if reason is not None and reason.kind == "launch-unread":
        message += f" ({reason.message})"
    elif reason is not None:
        message += f" ({reason.message}, line {reason.span.line})"
    else:
        message += ": nothing here was checked"
    return Diagnostic(_KIND, message, span)


def launchers_not_read(extracted: ExtractResult) -> list[Diagnostic]:
    """One `no-launch-found` diagnostic per command that runs the launcher's words through a
    command speclint does not read (`xargs`, `watch`, a function), in a file with launches;
    a file without any gets the one diagnostic of `no_launch_found` instead."""
    if not extracted.diagnostics:
        return []  # (no diagnostic: the record class stays unmade)
    said = [d for d in extracted.diagnostics if d.kind == _NOT_READ]
    if not extracted.launches:  # the first already said by `no_launch_found` when no mention
        first = said[:1]
        if not first or not any(
            d.kind == _KIND and d.message == first[0].message for d in extracted.diagnostics
        ):
            return []
        said = said[1:]
    from speclint.core.diagnostics import Diagnostic

    return [Diagnostic(_KIND, d.message, d.span) for d in said]
