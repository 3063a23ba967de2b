"""Reading a Python source into the front-end's tree (`syntax`): CPython's `ast` first,
libcst for what the running Python cannot parse.

`ast.parse` is C and costs a fraction of libcst's parse and positions, and nothing to
import (libcst's ~250 node classes cost every process ~150 ms). libcst stays the fallback
so that nothing read before stops being read: syntax of a newer Python than the one running
(`type X = ...`, `f"{x["a"]}"` on 3.11) and NUL bytes inside strings, which CPython refuses
and libcst reads. Where both refuse, libcst's error is raised, as before (the caller
reports CPython's message: `positions.syntax_error`).
"""

from __future__ import annotations

import ast

from speclint.frontends.python import syntax as py
from speclint.frontends.python.select import MAX_FSTRING_FIELDS, crowded_fstring


class Refused(Exception):
    """libcst refuses the source too: (line, column) where it stopped."""

    def __init__(self, line: int, column: int) -> None:
        super().__init__(line, column)
        self.line, self.column = line, column


def read_tree(source: str, starts: list[int] | None = None) -> py.Module:
    """The tree of `source` (its BOM, if any, left out: positions count from after it, as
    libcst's did; `starts`: its line starts, where the caller has them). Raises `Refused`,
    or RecursionError where the source nests too deeply."""
    bare = source[1:] if source.startswith("\ufeff") else source
    if bare.count("{") > MAX_FSTRING_FIELDS and crowded_fstring(bare):
        return _with_libcst(source)  # CPython 3.11 parses such an f-string in quadratic time
    try:
        tree = ast.parse(bare)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return _with_libcst(source)
    from speclint.frontends.python.from_ast import build

    try:
        return build(bare, tree, starts if bare is source else None)
    except RecursionError:
        raise
    except Exception:  # a form the conversion does not know (tests/test_python_syntax_parity.py
        return _with_libcst(source)  # keeps this from happening): read as before


def _with_libcst(source: str) -> py.Module:
    from speclint.core.records import import_with_kept_code

    import_with_kept_code("libcst")  # its classes' code kept (`records`)
    import libcst as cst

    from speclint.frontends.python.from_cst import convert
    from speclint.frontends.python.parsing import parse_module

    try:
        module = parse_module(source)
    except cst.ParserSyntaxError as error:
        raise Refused(error.editor_line, error.editor_column) from None
    return convert(module)
