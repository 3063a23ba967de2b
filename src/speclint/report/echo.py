"""What `click.echo` does with text, without importing click (about 15 ms of a cold run that
lints one file): ANSI codes dropped unless colour was asked for or the stream is a terminal,
and a flush after every write. A stream click would re-wrap (one whose encoding is ASCII, or
none) is handed to click itself, so output stays what click prints."""

from __future__ import annotations

import sys
from functools import cache

from speclint.core import patterns

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from typing import TextIO


@cache
def _ansi() -> re.Pattern[str]:
    """An ANSI escape sequence (click's `strip_ansi` pattern)."""
    return patterns.compile(r"\033\[[0-?]*[ -/]*[@-~]")


def strip_ansi(text: str) -> str:
    """`text` without colours and styles (`click.unstyle`). Every sequence starts with ESC: a
    text without one is returned as it is, without compiling the pattern (a plain report)."""
    if "\033" not in text:
        return text
    return _ansi().sub("", text)


def echo(message: str = "", *, nl: bool = True, err: bool = False, color: bool | None = None) -> None:
    """`click.echo(message, nl=nl, err=err, color=color)` for a text message."""
    stream = sys.stderr if err else sys.stdout
    if stream is None:  # no standard stream to write to (pythonw)
        return
    if _needs_click(stream):
        import click

        click.echo(message, nl=nl, err=err, color=color)
        return
    out = message + "\n" if nl else message
    if out and (not color if color is not None else not isatty(stream)):
        out = strip_ansi(out)
    if out:
        stream.write(out)
    stream.flush()


def isatty(stream: object) -> bool:
    """Whether `stream` is a terminal (False for anything that cannot say)."""
    method = getattr(stream, "isatty", None)
    try:
        return bool(method and method())
    except Exception:
        return False


def _needs_click(stream: TextIO) -> bool:
    """Streams click treats specially: ASCII ones (it re-wraps them as UTF-8), Jupyter's."""
    encoding = getattr(stream, "encoding", None) or "ascii"
    try:
        import codecs

        ascii_stream = codecs.lookup(encoding).name == "ascii"
    except LookupError:
        ascii_stream = False
    return ascii_stream or type(stream).__module__.startswith("ipykernel.") or hasattr(stream, "color")
