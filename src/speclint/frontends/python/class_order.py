"""The order in which Python looks a method up in the classes of the file (and SGLang's test
fixtures, `fixtures`): a class's bases depth first, left to right, and the method `super()`
names from inside one of them. Read by `classes` and `helpers` (imports neither)."""

from __future__ import annotations

from speclint.frontends.python.scan import descendants

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.frontends.python import syntax as py
    from speclint.frontends.python.walking import ClassInfo, Helper, Walking


def ancestors(info: ClassInfo, by_name: dict[str, ClassInfo]) -> list[ClassInfo]:
    """The classes `info` derives from, nearest first (depth first, left to right): the
    file's, and those read from SGLang's fixtures (`fixtures`; their bases among their own)."""
    found: list[ClassInfo] = []
    seen = {id(info)}  # by identity: comparing ClassInfos compares all their values
    stack = [(name, info) for name in reversed(info.bases)]
    while stack:
        name, child = stack.pop()
        base = child.external.get(name)
        if base is None and child.fixture is None:
            base = by_name.get(name)
        if base is None or id(base) in seen:
            continue
        seen.add(id(base))
        found.append(base)
        stack.extend((grand, base) for grand in reversed(base.bases))
    return found


def next_method(walker: Walking, name: str, call: py.Call) -> Helper | None:
    """What `super().name` is in the method holding `call`: `name` of the first class after
    that method's class in the walked class's bases (depth first, left to right)."""
    owner = walker.owner
    if owner is None:
        return None
    by_name = {info.name: info for info in walker.classes}
    order = [by_name.get(owner.name, owner), *ancestors(owner, by_name)]
    after = next((i for i, info in enumerate(order) if _makes(info, name, call)), 0)
    return next((a.methods[name] for a in order[after + 1 :] if name in a.methods), None)


def _makes(info: ClassInfo, name: str, call: py.Call) -> bool:
    """Whether a method of `info` itself (its `name` first) holds `call`."""
    own = [h for h in info.methods.values() if h.owner is info or h.owner is None]
    own.sort(key=lambda h: h.node.name.value != name)
    return any(node is call for h in own for node in descendants(h.node, True))
