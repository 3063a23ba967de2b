"""A launch's argv that a function builds and returns, where the file never calls the function:
an adapter's `build_command()` that a framework calls (`cmd = ["python3", "-m",
"sglang.launch_server", ...]; ...; return cmd`). With no call in the file there is no run
call to read it at, so the returned list is read as the launch, placed at the `return`, with
the function's parameters unknown. A function the file calls (or names anywhere else) is read
where its result is used, as before."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Protocol

from speclint.frontends.python.values import Scope

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.frontends.python import syntax as py
    from speclint.frontends.python.walking import Walking


class Atoms(Protocol):
    """What `seed_returns` reads of `atoms.Atoms` (which imports this module)."""

    text: str
    returns: dict[int, list[int]]
    defs: dict[int, str]
    rscope: list[int]
    seed: list[bool]


@lru_cache(maxsize=16)  # (texts: a few files at a time)
def named_once(text: str, name: str) -> bool:
    """Whether `name` appears in the file only once (its `def`): nothing in it calls it."""
    return len(re.findall(rf"(?<![\w.]){re.escape(name)}\b|\.{re.escape(name)}\b", text)) == 1


def seed_returns(atoms: Atoms, spelled: list[bool], tainted: list[bool]) -> None:
    """Needed: the `return` statements that may return a launch (`tainted`: `Atoms._reach`)
    of functions that spell `sglang` in their own body and that the file never names again."""
    spelling = {atoms.rscope[atom] for atom, hit in enumerate(spelled) if hit}
    for scope, returned in atoms.returns.items():
        name = atoms.defs.get(scope)
        if name is None or scope not in spelling or not any(tainted[atom] for atom in returned):
            continue
        if named_once(atoms.text, name):
            for atom in returned:
                atoms.seed[atom] = atoms.seed[atom] or tainted[atom]


def read_returned(walker: Walking, node: py.Return, function: py.FunctionDef) -> None:
    """The returned value, when it is a list: its words read as a launch at the `return`
    (only SGLang launches are kept, as for a list passed to `subprocess`); one launch per
    choice of the `if` arms that built it, as at a run call (`branches`)."""
    if node.value is None or not named_once(walker.text, function.name.value):
        return
    from speclint.frontends.python import branches as arms

    choices = arms.choices_for(walker, node.value) if walker.alternatives else None
    if choices is None:
        _read(walker, node, node.value)
        return
    saved = walker.env
    for index, (conditions, values) in enumerate(choices):
        walker.env = Scope(values, saved)
        count = len(walker.result.launches)
        _read(walker, node, node.value)
        launches = walker.result.launches[count:]
        arms.mark(launches, conditions, index, len(choices), walker.pos.span(node))
    walker.env = saved


def _read(walker: Walking, node: py.Return, returned: py.BaseExpression) -> None:
    value = walker.evaluator().eval(returned)
    if value.kind != "list" or not any("sglang" in (item.text or "") for item in value.elements[:4]):
        return
    from speclint.frontends.python.environ import launch_env

    walker.add_argv(node, value.elements, launch_env(walker, None))
