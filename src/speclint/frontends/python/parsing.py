"""libcst's `parse_module` without the check each node runs as it is made (the fallback reader,
`tree`: for files CPython's `ast` cannot parse).

Every libcst node's `__post_init__` calls its `_validate` (balanced parentheses, the
whitespace a keyword needs, ...): a tenth of the parse of a small launch wrapper, for a tree
the parser itself just built from the text (libcst's own comment there calls moving it out
of parsing a possible speed-up). `parse_module` turns that check off while libcst's
native parser builds the tree (private: the base class's `__post_init__` is replaced, once,
by one that validates but while `parse_module` parses, on a single-threaded lint), and uses
the public path unchanged where libcst's `__post_init__` does anything but validate.
tests/test_python_parsing.py checks both give the same tree and the front-end the same
reading.

Where the check refuses what the parser built (libcst issue #1061: `() if 0 else(lambda:())`
raises a TypeError from `_validate`), the file is now read instead of failing the lint.
"""

from __future__ import annotations

import libcst as cst
from libcst._nodes.base import CSTNode


def parse_module(source: str) -> cst.Module:
    """`cst.parse_module(source)`, the nodes made without their `_validate`."""
    global _checking
    if not _skippable():
        return cst.parse_module(source)
    if CSTNode.__dict__["__post_init__"] is not _post_init:
        # once: changing a class on every parse would cost every node class its method
        # caches each time (and, from Python 3.12, its version tags run out)
        type.__setattr__(CSTNode, "__post_init__", _post_init)
    _checking = False
    try:
        return cst.parse_module(source)
    finally:
        _checking = True


_checking = True
"""Whether a node validates itself as it is made: always, but while `parse_module` parses."""


def _post_init(self: CSTNode) -> None:
    """libcst's `__post_init__` (which only validates: `_skippable`), but while parsing."""
    if _checking:
        self._validate()


_SKIPPABLE: list[bool] = []


def _skippable() -> bool:
    """Whether libcst's `__post_init__` is the one that only validates (a release that does
    more there keeps it: the public path)."""
    if not _SKIPPABLE:
        post_init = CSTNode.__dict__.get("__post_init__")
        code = getattr(post_init, "__code__", None)
        _SKIPPABLE.append(
            post_init is _post_init
            or code is not None
            and code.co_names == ("_validate",)
            and code.co_argcount == 1
            and not code.co_consts[1:]  # (only the docstring-less `None`)
        )
    return _SKIPPABLE[0]
