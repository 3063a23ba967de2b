"""Python front-end: SGLang launches in Python launch wrappers.

The file is parsed, never imported or run. Statements are walked in order per scope so
lists built with `+=`, `.append`, `.extend` and dicts built with `.update` have their values
where they are used; a value assigned differently on two paths becomes unknown. Launches:
argv lists (subprocess, os.exec*, asyncio), shell strings (`shell=True`, `os.system`), both
handed to the shell front-end, SGLang's `launch_server_cmd` text split into argv words as the
release splits it (`split_text`), and keyword APIs
(`sgl.Engine(...)`, `ServerArgs(...)`) kept as keyword pairs (`Launch.kwargs`). The file is
read with CPython's `ast`, libcst for syntax it cannot parse (`tree`). From 16 KiB up, only
the lines the launches need are read (`select`).
"""

from __future__ import annotations

import gc
import re

from speclint.core.launches import Diagnostic, ExtractResult
from speclint.core.spans import Span
from speclint.frontends.python.comments import comments_in
from speclint.frontends.python.depth import nesting_problem
from speclint.frontends.python.positions import OwnRanges, Positions, python_line_starts, syntax_error
from speclint.frontends.python.select import (
    SELECT_MIN_CHARS,
    Broken,
    confirm_syntax_error,
    lone_backslashes_as_comments,
    select,
)
from speclint.frontends.python.tree import Refused, read_tree
from speclint.frontends.python.walker import PyWalker
from speclint.frontends.shell.pieces import span_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

_SURROGATE = "[\ud800-\udfff]"
"""(compiled by `re.sub` at the first non-ASCII file, in `re`'s cache: ~0.2 ms)"""
_TOO_DEEP = "nested too deeply for speclint to follow; launches in this file are not checked"


def extract_python(text: str, path: str) -> ExtractResult:
    paused = gc.isenabled()
    gc.disable()  # a big file makes a million acyclic nodes: each full collection rescans them
    try:
        result = _extract(text, path)
    finally:
        if paused:
            gc.enable()
    # a Modal app's image, a registry tag or a pin (`modal_images`): the app imports modal
    # ("modal" alone is in every "multimodal" test file, whose tree would be parsed again)
    if result.launches and ("import modal" in text or "from modal" in text):
        from speclint.frontends.python.modal_images import attach_modal_images

        attach_modal_images(text, result)
    if result.launches and "image_id" in text:  # a SkyPilot task's docker image (`sky_images`)
        from speclint.frontends.python.sky_images import attach_sky_images

        attach_sky_images(text, result)
    if result.launches and ("# /// script" in text or "install" in text and "nox" in text):
        from speclint.frontends.python.install_pins import attach_install_pins

        attach_install_pins(text, result)  # (a nox session's install, PEP 723 metadata)
    return result


def _extract(text: str, path: str) -> ExtractResult:
    # libcst hands the text to native code as UTF-8: a lone surrogate (from a caller's
    # surrogateescape decoding) raised UnicodeEncodeError. U+FFFD keeps every position.
    if not text.isascii():  # (an ASCII text has none: no regex pass over it)
        text = re.sub(_SURROGATE, "\ufffd", text)
    starts = python_line_starts(text)
    deep = nesting_problem(text)
    if deep is not None:  # libcst would crash the interpreter or take minutes (`depth`)
        return ExtractResult(
            diagnostics=[
                Diagnostic("unsupported-input", f"Python {_TOO_DEEP}", span_of(starts, deep, deep + 1))
            ]
        )
    if len(text) >= SELECT_MIN_CHARS:  # only what the walker needs is read (`select`)
        chosen = select(text, starts)
        if isinstance(chosen, Broken):
            found = confirm_syntax_error(text, starts, chosen.error)
            if found is not None:
                known = chosen.error if chosen.exact else None
                return ExtractResult(diagnostics=[syntax_error(text, *found, known)])
        elif chosen is not None:
            left_out = [(span_of(starts, begin, end), comment) for begin, end, comment in chosen.comments]
            result = _read(chosen.text, text, starts, path, chosen.lines, left_out)
            if result is not None:  # else the selection is refused: read it all, as before
                return result
    result = _read(text, text, starts, path)
    assert result is not None  # the whole file: `_read` gives None only for a selection
    return result


def _read(
    source: str,
    text: str,
    starts: list[int],
    path: str,
    lines: list[int] | None = None,
    left_out: Sequence[tuple[Span, str]] = (),
) -> ExtractResult | None:
    """Parse `source` (the file, or `select`'s selection of its lines, `lines` saying
    where each starts, with the comments of the others in `left_out`) and walk it. For a
    selection, None when it cannot be read (the caller then reads the whole file)."""
    result = ExtractResult()
    whole = source is text
    source = lone_backslashes_as_comments(source)
    try:
        module = read_tree(source, starts if source is text else None)  # (the file's own lines)
    except Refused as error:
        if not whole:
            return None
        result.diagnostics.append(syntax_error(text, error.line, error.column))
        return result
    except RecursionError:
        if not whole:
            return None
        result.diagnostics.append(Diagnostic("unsupported-input", f"Python {_TOO_DEEP}", Span.point(1, 1)))
        return result
    try:
        bare = source[1:] if source.startswith("\ufeff") else source
        positions = Positions(OwnRanges(), starts, lines, bare, starts if bare is text else None)
        positions.module = module
        walker = PyWalker(text, path, positions, result)
        walker.module(module)
        comments = [(positions.span_at(where), value) for where, value in comments_in(bare)]
        result.comments += sorted(comments + list(left_out), key=lambda item: (item[0].line, item[0].column))
    except RecursionError:  # past what the pre-scan estimates: drop what was found
        if not whole:
            return None
        return ExtractResult(
            diagnostics=[Diagnostic("unsupported-input", f"Python {_TOO_DEEP}", Span.point(1, 1))]
        )
    result.launches.sort(key=lambda launch: (launch.span.line, launch.span.column))
    return result
