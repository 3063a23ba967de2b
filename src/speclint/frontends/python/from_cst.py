"""libcst's tree -> the front-end's tree (`syntax`): the fallback reader and the reference.

CPython's `ast` reads every file the running Python can parse (`from_ast`). A file it
cannot parse but libcst can (syntax of a newer Python: `type X = ...`, `f"{x["a"]}"` on
3.11) is read through libcst as before, converted here to the same classes and fields, so
that nothing read before stops being read. tests/test_python_syntax_parity.py builds both
trees of the same files and compares them node by node. Imported only on that path: libcst
costs ~150 ms to import.
"""

from __future__ import annotations

from dataclasses import fields

import libcst as cst

from speclint.frontends.python import syntax as py
from speclint.frontends.python.nodes import Node, Operator
from speclint.frontends.python.ranges import codegen_ranges

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from speclint.frontends.python.ranges import NodeRanges

_KINDS: dict[type, type | None] = {}


def _kind(cst_kind: type) -> type | None:
    found = _KINDS.get(cst_kind, False)
    if found is False:
        found = getattr(py, cst_kind.__name__, None)
        if found is not None and not isinstance(found, type):
            found = None
        _KINDS[cst_kind] = found
    return found  # type: ignore[return-value]


class Converter:
    """Converts one libcst module, with the ranges libcst's positions give."""

    def __init__(self, module: cst.Module) -> None:
        self.ranges: NodeRanges = codegen_ranges(module)
        self.operators: dict[type, Operator] = {}

    def node(self, node: cst.CSTNode) -> Any:
        kind = _kind(type(node))
        if kind is None:
            raise TypeError(f"no syntax class for libcst's {type(node).__name__}")
        if issubclass(kind, Operator):
            made = self.operators.get(kind)
            if made is None:
                made = self.operators[kind] = kind()
            return made
        values = [self.value(getattr(node, name)) for name in kind.FIELDS]  # type: ignore[attr-defined]
        where = self.ranges.by_id.get(id(node))
        outer = None
        lpar = getattr(node, "lpar", None)
        if isinstance(lpar, (list, tuple)) and lpar:
            rpar = node.rpar  # type: ignore[attr-defined]
            outer = self.ranges[lpar[0]][:2] + self.ranges[rpar[-1]][2:]
        maker: Any = kind
        return maker(where, outer, *values)

    def value(self, value: object) -> object:
        if isinstance(value, cst.CSTNode):
            return self.node(value)
        if isinstance(value, (list, tuple)):
            return [self.node(item) for item in value]
        if isinstance(value, cst.MaybeSentinel):
            return None
        return value


def convert(module: cst.Module) -> py.Module:
    """The front-end's tree of a libcst module."""
    made: py.Module = Converter(module).node(module)
    return made


def code_fields(kind: type) -> tuple[str, ...]:
    """The libcst fields a syntax class keeps (for the tests)."""
    return tuple(f.name for f in fields(kind))


__all__ = ["Node", "convert"]
