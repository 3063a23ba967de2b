"""An extraction's positions moved into another file: the launches of a code block cut out of a
Markdown file, a notebook cell, a unit file or a manifest written by a here-document, placed
where their text is in that file. Every field of a launch that holds a position is moved, and
every other field is kept (a GPU count, an unread env file, a `--config` file's entries, the
branch a launch is an alternative of)."""

from __future__ import annotations

from dataclasses import replace

from speclint.core.diagnostics import Diagnostic
from speclint.core.launches import ExtractResult, Launch

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from speclint.core.conditions import Alternative
    from speclint.core.config_files import ConfigFile
    from speclint.core.spans import Span
    from speclint.core.words import Word


def map_spans(result: ExtractResult, move: Callable[[Span], Span]) -> ExtractResult:
    """A copy of `result` with every position passed through `move`."""

    def word(w: Word) -> Word:
        return replace(
            w,
            span=move(w.span),
            origin=move(w.origin) if w.origin else None,
            expanded_at=move(w.expanded_at) if w.expanded_at else None,
        )

    launches = [_moved_launch(launch, word, move) for launch in result.launches]
    diagnostics = [_moved_diagnostic(d, move) for d in result.diagnostics]
    comments = [(move(span), text) for span, text in result.comments]
    return ExtractResult(launches, diagnostics, comments)


def _moved_diagnostic(diagnostic: Diagnostic, move: Callable[[Span], Span]) -> Diagnostic:
    """The diagnostic at its moved span; a message that names its own line (`the command
    `x` at line 3 names the launcher`) names the moved one (the file's, not the block's)."""
    span = move(diagnostic.span)
    message = diagnostic.message
    if span.line != diagnostic.span.line and f" at line {diagnostic.span.line} " in message:
        message = message.replace(f" at line {diagnostic.span.line} ", f" at line {span.line} ", 1)
    return Diagnostic(diagnostic.kind, message, span)


def _moved_launch(launch: Launch, word: Callable[[Word], Word], move: Callable[[Span], Span]) -> Launch:
    return replace(
        launch,
        span=move(launch.span),
        args=[word(w) for w in launch.args],
        env={k: word(v) for k, v in launch.env.items()},
        image_span=move(launch.image_span) if launch.image_span else None,
        kwargs=[(word(k), word(v)) for k, v in launch.kwargs],
        env_unread=word(launch.env_unread) if launch.env_unread is not None else None,
        config_file=moved_config(launch.config_file, move) if launch.config_file is not None else None,
        alternative=_moved_alternative(launch.alternative, move) if launch.alternative is not None else None,
        fixture=replace(launch.fixture, span=move(launch.fixture.span))
        if launch.fixture is not None
        else None,
        gpu_count=word(launch.gpu_count) if launch.gpu_count is not None else None,
    )


def moved_config(config: ConfigFile, move: Callable[[Span], Span]) -> ConfigFile:
    """A `--config` file's entries with their spans moved (a new object)."""
    from speclint.core.config_files import ConfigFile

    entries = [
        replace(
            e,
            key_span=move(e.key_span),
            value_span=move(e.value_span),
            item_spans=tuple(move(s) for s in e.item_spans),
        )
        for e in config.entries
    ]
    span = config.problem_span
    return ConfigFile(config.path, entries, config.problem, move(span) if span is not None else None)


def _moved_alternative(alternative: Alternative, move: Callable[[Span], Span]) -> Alternative:
    conditions = tuple(replace(c, span=move(c.span)) for c in alternative.conditions)
    return replace(alternative, conditions=conditions)
