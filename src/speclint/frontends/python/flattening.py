"""Argument lists flattened from a list of pieces: `sum([[f"--{k}", str(v)] for k, v in
d.items()], [])`, `itertools.chain.from_iterable(...)` and `itertools.chain(*pieces)` (or
`chain(a, b)`), read as the one list Python makes when each piece is a known list or tuple
(`evaluator.Evaluator` reads the comprehension over a known dict's items); else None, and
the call is computed when the program runs."""

from __future__ import annotations

from speclint.frontends.python import syntax as py

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Protocol

    from speclint.frontends.python.environ import Evaluator
    from speclint.frontends.python.values import Val

    class Evaluating(Evaluator, Protocol):
        """What of `evaluator.Evaluator` flattening needs (as `call_values.Evaluating`)."""

        def _ListComp(self, node: py.ListComp | py.GeneratorExp) -> Val: ...


NAMES = frozenset({"sum", "itertools.chain", "itertools.chain.from_iterable"})


def flattened(ev: Evaluating, node: py.Call) -> Val | None:
    """The list `sum(pieces, [])`, `chain.from_iterable(pieces)` or `chain(...)` makes."""
    name = ev.dotted(node.func)
    given = node.args
    if any(a.keyword is not None or a.star == "**" for a in given):
        return None
    if name == "sum" and len(given) == 2 and not given[0].star and not given[1].star:
        start = ev.eval(given[1].value)
        if start.kind != "list" or start.elements:  # (only `sum(pieces, [])`)
            return None
        pieces = _pieces(ev, given[0].value)
    elif name == "itertools.chain.from_iterable" and len(given) == 1 and not given[0].star:
        pieces = _pieces(ev, given[0].value)
    elif name == "itertools.chain" and len(given) == 1 and given[0].star == "*":
        pieces = _pieces(ev, given[0].value)
    elif name == "itertools.chain" and not any(a.star for a in given):
        pieces = [ev.eval(a.value) for a in given]
    else:
        return None
    if pieces is None or any(piece.kind != "list" for piece in pieces):
        return None
    return ev._make(node, "list", [item for piece in pieces for item in piece.elements])


def _pieces(ev: Evaluating, given: py.BaseExpression) -> list[Val] | None:
    value = ev._ListComp(given) if isinstance(given, py.GeneratorExp) else ev.eval(given)
    return list(value.elements) if value.kind == "list" else None
