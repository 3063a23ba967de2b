"""An extraction's positions moved into another file: the launches of a code block cut out of a
Markdown file, a notebook cell or a unit file written by a here-document, placed where their
text is in that file."""

from __future__ import annotations

from dataclasses import replace

from speclint.core.diagnostics import Diagnostic
from speclint.core.launches import ExtractResult, Launch

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from speclint.core.spans import Span
    from speclint.core.words import Word


def map_spans(result: ExtractResult, move: Callable[[Span], Span]) -> ExtractResult:
    """A copy of `result` with every position passed through `move` (for code blocks cut
    out of a Markdown file)."""

    def word(w: Word) -> Word:
        return replace(
            w,
            span=move(w.span),
            origin=move(w.origin) if w.origin else None,
            expanded_at=move(w.expanded_at) if w.expanded_at else None,
        )

    launches = []
    for launch in result.launches:
        launches.append(
            Launch(
                launch.path,
                launch.entry,
                move(launch.span),
                [word(w) for w in launch.args],
                {k: word(v) for k, v in launch.env.items()},
                launch.image,
                move(launch.image_span) if launch.image_span else None,
                launch.kwargs_style,
                [(word(k), word(v)) for k, v in getattr(launch, "kwargs", [])],
            )
        )
    diagnostics = [Diagnostic(d.kind, d.message, move(d.span)) for d in result.diagnostics]
    comments = [(move(span), text) for span, text in result.comments]
    return ExtractResult(launches, diagnostics, comments)
