"""A launch a method of a class builds from the `self.X` its `__init__` sets from its
parameters (`def __init__(self, port=30000): self.port = port`, then `def start(self):
Popen([..., "--port", str(self.port)])`), read again for each construction of the class in
the file (`Server(port=8000)`): `__init__` is walked with that call's arguments (and the
defaults of those it leaves out), then the method with the `self.X` it set.

The method's own reading (its class constructed elsewhere: the parameters unknown) and one
per construction become alternatives of its launch ("when Server(...) is constructed at line
40"), a finding they share reported once. Bounded as `calls` is: MAX_SITES constructions a
class, MAX_WALKS method walks a file.
"""

from __future__ import annotations

from dataclasses import replace

from speclint.core.launches import MAX_ALTERNATIVES, Alternative, Condition
from speclint.frontends.python import syntax as py
from speclint.frontends.python.walking import ClassInfo

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.launches import Launch
    from speclint.frontends.python.walking import Walking

MAX_SITES = 8
MAX_WALKS = 32
_INIT = "__init__"


def note_construction(walker: Walking, call: py.Call) -> bool:
    """Remember `call` with its arguments' values when it constructs a class of the file that
    has its own `__init__` (`Server(port=8000)`); False when it is no such call."""
    from speclint.frontends.python.helpers import bind

    func = call.func
    if not isinstance(func, py.Name):
        return False
    info = next((c for c in reversed(walker.classes) if c.name == func.value), None)
    init = info.methods.get(_INIT) if info is not None else None
    if init is None or init.positions is not None:
        return False
    sites = walker.call_sites.setdefault(init.node, (init, []))[1]
    if len(sites) < MAX_SITES and not any(a.star for a in call.args):
        sites.append((walker.pos.span(call), bind(walker, init, call)))
    return True


def walk_constructions(walker: Walking) -> None:
    """Each class whose methods made a launch partly read, walked again per construction."""
    walks = MAX_WALKS
    for info in walker.classes:
        init = info.methods.get(_INIT)
        sites = walker.call_sites.get(init.node, (init, []))[1] if init is not None else []
        if init is None or not sites:
            continue
        launching = [
            helper
            for helper in info.methods.values()
            if helper is not init
            and any(partly(launch) for launch in walker.launches_of.get(helper.node, []))
        ]
        made: dict[py.FunctionDef, list[tuple[Condition, list[Launch]]]] = {}
        for span, bound in sites if launching else []:
            if walks <= 0:
                break
            walks -= len(launching) + 1
            view = ClassInfo(
                info.name,
                dict(info.full or info.body),
                {},
                span=info.span,
                bases=info.bases,
                external=info.external,
            )
            view.methods = {name: replace(helper, owner=view) for name, helper in info.methods.items()}
            walker.walk_function(view.methods[_INIT], bound=bound)  # sets the `self.X` in view.attrs
            condition = Condition(span, f"{info.name}(...) is constructed at line {span.line}")
            for helper in launching:
                count = len(walker.result.launches)
                walker.walk_function(view.methods[helper.node.name.value])
                new = walker.result.launches[count:]
                if not any(launch.alternative is not None for launch in new):  # `if` arms: their own
                    made.setdefault(helper.node, []).append((condition, new))
        for helper in launching:
            mark_alternatives(
                walker.launches_of.get(helper.node, []),
                made.get(helper.node, []),
                f"{info.name}(...) is constructed elsewhere (its arguments unknown)",
            )


def partly(launch: Launch) -> bool:
    """Some argument or keyword value of the launch is unknown."""
    return any(w.text is None for w in launch.args) or any(v.text is None for _, v in launch.kwargs)


def mark_alternatives(own: list[Launch], made: list[tuple[Condition, list[Launch]]], elsewhere: str) -> None:
    """The launches a function (or a class's method) makes on its own (`own`, with its
    parameters unknown) and those made again for each call or construction in the file
    (`made`), at the same place: each marked as one alternative, those of `own` with the
    condition `elsewhere` says (called, or constructed, from elsewhere)."""
    by_span: dict[object, list[tuple[Condition | None, Launch]]] = {}
    for launch in own:
        by_span.setdefault(launch.span, []).append((None, launch))
    for condition, launches in made:
        for launch in launches:
            by_span.setdefault(launch.span, []).append((condition, launch))
    for members in by_span.values():
        if len(members) < 2 or len(members) > MAX_ALTERNATIVES:
            continue
        for index, (given, launch) in enumerate(members):
            chosen = given or Condition(launch.span, elsewhere)
            launch.alternative = Alternative((chosen,), index, len(members))
