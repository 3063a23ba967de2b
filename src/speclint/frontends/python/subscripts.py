"""`xs[i]`, `xs[a:b]`, `args[:-1]`, `d["key"]`: subscripts the file's own values answer.

SGLang's tests derive a subclass's flags from its base's (`other_args =
TestBase.other_args[:-1] + ["--tp", "8"]`). A list indexed or sliced with int literals is
the list's own elements, each still where it is written; a list holding an element of
unknown length (`*extra`, a string split when the program runs) is not sliced: which
elements remain is only known then.
"""

from __future__ import annotations

from typing import Protocol

from speclint.frontends.python import syntax as py

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.frontends.python.values import Val
    from speclint.frontends.shell.pieces import Piece


class Evaluator(Protocol):
    """What of `evaluator.Evaluator` a subscript needs (it imports this module)."""

    def eval(self, node: py.BaseExpression) -> Val: ...

    def read(self, found: Val, node: py.Node) -> Val: ...

    def _make(
        self, node: py.Node, kind: str, value: object = None, pieces: list[Piece] | None = None
    ) -> Val: ...


def subscript(ev: Evaluator, node: py.Subscript) -> Val | None:
    """The value of `node` when the file says it, else None (the caller says why not)."""
    if len(node.slice) != 1:
        return None
    index = node.slice[0].slice
    base = ev.eval(node.value)
    if base.kind == "dict" and isinstance(index, py.Index):
        key = ev.eval(index.value).text
        found = [e for e in base.entries if e.key == key]
        if key is not None and found and not any(e.key is None for e in base.entries):
            return ev.read(found[-1].value, node)
        return None
    if base.kind != "list" or any(item.splat or item.shell_code for item in base.elements):
        return None
    if isinstance(index, py.Index):
        position = _integer(ev, index.value)
        if position is None or not -len(base.elements) <= position < len(base.elements):
            return None  # IndexError when it runs: not a value
        return ev.read(base.elements[position], node)
    assert isinstance(index, py.Slice)  # the only other kind of subscript element
    bounds = [
        _integer(ev, part) if part is not None else None for part in (index.lower, index.upper, index.step)
    ]
    if any(
        part is not None and bound is None
        for part, bound in zip((index.lower, index.upper, index.step), bounds)
    ):
        return None
    if bounds[2] == 0:
        return None  # ValueError when it runs
    return ev._make(node, "list", base.elements[bounds[0] : bounds[1] : bounds[2]])


def _integer(ev: Evaluator, node: py.BaseExpression) -> int | None:
    """An int the file writes (`3`, `-1`, a name holding one), else None."""
    value = ev.eval(node)
    if value.kind == "const" and type(value.value) is int:
        return value.value
    return None
