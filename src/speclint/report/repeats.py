"""A finding two files' results both give is reported once: a `--config` file (or a script a
Dockerfile copies, an env file...) linted on its own and through the file that names it gives
the same finding, at the same token, twice.

The memory of what was reported is a window of the last `WINDOW` findings, not every finding of
the run: a run's memory stays flat however many files it lints (issue 19). A file and the one
that names it are usually near each other in a walk (one folder); two copies further apart than
the window are both reported (a repeat, never a finding lost)."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.engine import FileResult

WINDOW = 1024
"""Findings remembered (at most a few hundred KB of keys)."""


class RepeatFilter:
    """Drops from each result the findings an earlier result within the window gave."""

    def __init__(self, window: int = WINDOW) -> None:
        self.window = window
        self.seen: dict[tuple[object, ...], None] = {}
        """The keys remembered, oldest first (a dict: insertion order)."""

    def drop_repeats(self, result: FileResult) -> None:
        if not result.findings:
            return
        kept = []
        seen = self.seen
        for finding in result.findings:
            span = finding.span
            key = (
                finding.path,
                span.line,
                span.column,
                span.end_line,
                span.end_column,
                finding.code,
                finding.message,
            )
            if key in seen:
                continue
            seen[key] = None
            if len(seen) > self.window:
                del seen[next(iter(seen))]  # the oldest goes
            kept.append(finding)
        if len(kept) < len(result.findings):
            result.findings = kept
