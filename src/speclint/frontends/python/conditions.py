"""An `if` test the file's own values decide, as the shell front-end decides one (`[ "$X" =
true ]`): `if value is True:` in a pass over a dict's items written out, `if USE_EAGLE:` after
`USE_EAGLE = False`, `if mode == "prefill":`. Only the arm that runs is then walked; a test
with any value not known statically decides nothing (both arms stay, as alternatives).

Python's own semantics, on the values as written: truthiness of a constant, text, list or
dict; `not`; `and`/`or`; one comparison `==`, `!=`, `is`, `is not`, `in`, `not in` (`is`
only against `True`, `False` or `None`, the singletons whose identity the language fixes).
A test naming a variable that a `global`/`nonlocal` statement of the file names, or that the
file assigns on more than one line, decides nothing: which value it holds depends on which
calls ran first; nor does a test in a loop body read once for all its passes (`walker.loop`).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Protocol

from speclint.core import patterns
from speclint.frontends.python import syntax as py

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.frontends.python.positions import Positions
    from speclint.frontends.python.values import Val


class Evaluator(Protocol):
    """What deciding a test needs of `evaluator.Evaluator` (not imported: it imports this)."""

    pos: Positions

    def eval(self, node: py.BaseExpression) -> Val: ...


_UNKNOWN = object()
_ASSIGNED = patterns.compile(r"\n[ \t]*([A-Za-z_]\w*)[ \t]*(?::[^=\n]*)?=(?!=)")
"""An assignment at a line's start, searched in the text after a newline: a literal first
character is found fast, where `^` in MULTILINE mode is tried at every character."""
_REBOUND = patterns.compile(r"^[ \t]*(?:global|nonlocal)[ \t]+([\w \t,]+)", patterns.MULTILINE)


@lru_cache(maxsize=4)  # (every evaluator of a file asks: its walker's and its helpers')
def rebound_names(text: str) -> frozenset[str]:
    """The names a `global` or `nonlocal` statement of the file's source names, and those it
    assigns on more than one line (`MODE = "prefill"`; `serve()`; `MODE = "decode"`; `serve()`:
    a function is read once, with the module's last values, which hold for one call only)."""
    named = (
        {name.strip() for found in _REBOUND.finditer(text) for name in found.group(1).split(",")}
        if "global" in text or "nonlocal" in text  # (most files: no search from every character)
        else set()
    )
    seen: set[str] = set()
    for found in _ASSIGNED.finditer("\n" + text):  # (a match never runs past its line)
        name = found.group(1)
        if name in seen:
            named.add(name)
        seen.add(name)
    return frozenset(name for name in named if name)


def decided(ev: Evaluator, test: py.BaseExpression, rebound: frozenset[str] = frozenset()) -> bool | None:
    """True or False when the test's value is known statically, else None; `rebound`: the
    names functions rebind (`rebound_names`), never decided."""
    if rebound and not rebound.isdisjoint(_names(test)):
        return None
    return _decided(ev, test)


def _names(node: py.Node) -> set[str]:
    """The names an expression reads (its `Name` nodes, through every field)."""
    found: set[str] = set()
    stack: list[object] = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, py.Name):
            found.add(item.value)
        if isinstance(item, (list, tuple)):
            stack.extend(item)
        elif isinstance(item, py.Node):
            for kind in type(item).__mro__:
                stack.extend(getattr(item, slot, None) for slot in getattr(kind, "__slots__", ()))
    return found


def _decided(ev: Evaluator, test: py.BaseExpression) -> bool | None:
    if isinstance(test, py.UnaryOperation) and isinstance(test.operator, py.Not):
        inner = _decided(ev, test.expression)
        return None if inner is None else not inner
    if isinstance(test, py.BooleanOperation):
        left = _decided(ev, test.left)
        if isinstance(test.operator, py.And):
            if left is False:
                return False
            right = _decided(ev, test.right)
            return None if left is None or right is None else right
        if left is True:
            return True
        right = _decided(ev, test.right)
        return None if left is None or right is None else right
    if isinstance(test, py.Comparison):
        return _compare(ev, test)
    value = _value(ev, test)
    return None if value is _UNKNOWN else bool(value)


def _compare(ev: Evaluator, test: py.Comparison) -> bool | None:
    if len(test.comparisons) != 1:
        return None
    target = test.comparisons[0]
    operator = target.operator
    left, right = test.left, target.comparator
    if isinstance(operator, (py.Is, py.IsNot)):
        singleton = _singleton(right) if _singleton(right) is not _UNKNOWN else _singleton(left)
        other = left if _singleton(right) is not _UNKNOWN else right
        if singleton is _UNKNOWN:
            return None
        value = _value(ev, other)
        if value is _UNKNOWN:
            return None
        same = value is singleton
        return same if isinstance(operator, py.Is) else not same
    a, b = _value(ev, left), _value(ev, right)
    if a is _UNKNOWN or b is _UNKNOWN:
        return None
    try:
        if isinstance(operator, py.Equal):
            return bool(a == b)
        if isinstance(operator, py.NotEqual):
            return bool(a != b)
        if isinstance(operator, py.In):
            return bool(a in b)  # type: ignore[operator]
        if isinstance(operator, py.NotIn):
            return bool(a not in b)  # type: ignore[operator]
    except TypeError:  # (`1 in 2`: the program would raise; nothing decided)
        return None
    return None


def _singleton(node: py.BaseExpression) -> object:
    """True, False or None written literally, else _UNKNOWN."""
    if isinstance(node, py.Name) and node.value in ("True", "False", "None"):
        return {"True": True, "False": False, "None": None}[node.value]
    return _UNKNOWN


def _value(ev: Evaluator, node: py.BaseExpression) -> object:
    """The Python value of an expression when known statically, else _UNKNOWN."""
    val = ev.eval(node)
    if val.kind == "unknown" or val.alternatives is not None:
        return _UNKNOWN
    value, known = val.python()
    return value if known else _UNKNOWN
