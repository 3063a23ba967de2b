"""Where each libcst node is written: (line, column, end line, end column), as libcst's
public `PositionProvider` says (lines from 1, columns in characters from 0). Used by the
fallback reader (`from_cst`), and by the tests as the reference `from_ast` is checked with.

The public path (`MetadataWrapper(...).resolve(PositionProvider)`) walks the whole tree
twice (an empty batched visit, then the provider's code generation) and makes two objects
per node; it was half of the time a small Python wrapper took. `codegen_ranges` runs the
provider's code generation once with a leaner state (libcst's private
`PositionProvidingCodegenState`, its hooks overridden: tuples for CodePositions, ranges kept
by node id, the state its own context manager), and falls back to the public path when that
API is not there. tests/test_python_ranges.py checks both agree.
"""

from __future__ import annotations

import re
from functools import partial

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any, Protocol

    class RangeLookup(Protocol):
        """A node's range: `NodeRanges`, or a mapping from nodes (`fixtures`)."""

        def __getitem__(self, node: cst.CSTNode, /) -> Range: ...


Range = tuple[int, int, int, int]
"""(start line, start column, end line, end column) of a node."""

_NEWLINE = re.compile(r"\r\n?|\n")


class NodeRanges:
    """Node -> its range, kept by the node's `id` (a node's own `__hash__` is Python code,
    called at every store and lookup); holds the module, so no id is reused meanwhile."""

    __slots__ = ("by_id", "module")

    def __init__(self, by_id: dict[int, Range], module: cst.Module) -> None:
        self.by_id = by_id
        self.module = module

    def __getitem__(self, node: cst.CSTNode) -> Range:
        return self.by_id[id(node)]


def codegen_ranges(module: cst.Module) -> NodeRanges:
    """Every node's range. libcst's code generation, on a long `elif` chain (500), runs
    out of stack and, cleaning up, raises KeyError instead of the RecursionError."""
    try:
        kind = _fast_state()
        by_id = _ranges_with(kind, module) if kind is not None else _by_id(public_ranges(module))
    except KeyError as error:
        cause: BaseException | None = error
        while cause is not None and not isinstance(cause, RecursionError):
            cause = cause.__context__
        if cause is None:
            raise
        raise RecursionError("libcst's positions") from None
    return NodeRanges(by_id, module)


def public_ranges(module: cst.Module) -> dict[cst.CSTNode, Range]:
    """The ranges through libcst's public API."""
    found = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    return {
        node: (where.start.line, where.start.column, where.end.line, where.end.column)
        for node, where in found.items()
    }


def _by_id(ranges: Mapping[cst.CSTNode, Range]) -> dict[int, Range]:
    return {id(node): where for node, where in ranges.items()}


def _ranges_with(kind: type, module: cst.Module) -> dict[int, Range]:
    computed: dict[int, Range] = {}
    state = kind(
        default_indent=module.default_indent, default_newline=module.default_newline, provider=computed
    )
    state.syntactic = []
    module._codegen(state)
    return computed


_SAMPLE = """\
@d
def f(a, *b):
    if a:  # c
        x = [a, 'b', f"{a!r}"]
    else:
        return (a)[1:]
"""
_STATE: list[type | None] = []
"""The lean state class once checked (None: use the public path)."""


def _fast_state() -> type | None:
    if not _STATE:
        _STATE.append(_checked_state())
    return _STATE[0]


TESTED_LIBCST = frozenset({"1.9.0"})
"""libcst releases on which tests/test_python_ranges.py found the lean state's ranges equal
to the public provider's on every fixture: no sample check for them (it cost ~3 ms, a
hundredth of a one-file run, mostly the public path's first use)."""


def _checked_state() -> type | None:
    """The lean state, if libcst is a tested release or the state gives the public path's
    ranges on a sample (libcst's private API may change under it)."""
    kind = _make_state()
    if kind is None:
        return None
    if libcst_version() in TESTED_LIBCST:
        return kind
    try:
        module = cst.parse_module(_SAMPLE)
        same = _ranges_with(kind, module) == _by_id(public_ranges(module))
    except Exception:  # any change in the private API: the public path
        return None
    return kind if same else None


def libcst_version() -> str | None:
    """The installed libcst's version from its generated `_version` module (private; the
    public `importlib.metadata` costs more than the check it would spare); None if absent."""
    try:
        from libcst._version import version
    except ImportError:
        return None
    return version if isinstance(version, str) else None


def _make_state() -> type | None:
    """libcst's position-providing state with the hooks below (None when libcst has no such
    class). Built with `type`: the hooks keep tuples where libcst keeps CodePositions."""
    try:
        from libcst.metadata.position_provider import PositionProvidingCodegenState
    except ImportError:
        return None
    hooks: dict[str, object] = {
        "add_indent_tokens": _add_indent_tokens,
        "add_token": _add_token,
        "before_codegen": _before_codegen,
        "after_codegen": _after_codegen,
        "record_syntactic_position": _record_syntactic_position,
    }
    if not all(hasattr(PositionProvidingCodegenState, name) for name in hooks):
        return None
    # the state is its own context manager for a syntactic range (`_exit`); entering it
    # does nothing (`partial(int)`: a call that needs no Python frame)
    hooks.update({"__slots__": ("syntactic",), "__enter__": partial(int), "__exit__": _exit})
    return type("LeanPositionState", (PositionProvidingCodegenState,), hooks)


def _add_indent_tokens(self: Any) -> None:
    for token in self.indent_tokens:
        _add_token(self, token)


def _add_token(self: Any, value: str) -> None:
    self.tokens.append(value)
    if "\n" in value or "\r" in value:
        segments = _NEWLINE.split(value)
        self.line += len(segments) - 1
        self.column = len(segments[-1])
    else:
        self.column += len(value)


def _before_codegen(self: Any, node: cst.CSTNode) -> None:
    self._stack.append((self.line, self.column))


def _after_codegen(self: Any, node: cst.CSTNode) -> None:
    line, column = self._stack.pop()
    # a syntactic range recorded inside is kept
    self.provider.setdefault(id(node), (line, column, self.line, self.column))


def _record_syntactic_position(
    self: Any, node: cst.CSTNode, *, start_node: Any = None, end_node: Any = None
) -> Any:
    """libcst's context manager without a generator or an object per node: the node's range
    is where its code starts and ends, or its start and end nodes' (as libcst's own)."""
    self.syntactic.append((node, start_node, end_node, self.line, self.column))
    return self


def _exit(self: Any, kind: object, error: object, traceback: object) -> None:
    node, start_node, end_node, line, column = self.syntactic.pop()
    computed = self.provider
    start = computed[id(start_node)][:2] if start_node is not None else (line, column)
    end = computed[id(end_node)][2:] if end_node is not None else (self.line, self.column)
    computed[id(node)] = start + end
