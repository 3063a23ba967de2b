"""A call's positional arguments as argv items, `*args` spread (`subprocess.run([...])`'s
list, `os.execl(p, *a)`, `session.run(*spec)`): what the launch readers share."""

from __future__ import annotations

from speclint.frontends.python.values import ITEM_WEIGHT, MAX_WEIGHT

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.frontends.python import syntax as py
    from speclint.frontends.python.values import Val
    from speclint.frontends.python.walking import Walking


def starred_items(walker: Walking, args: list[py.Arg]) -> list[Val]:
    ev = walker.evaluator()
    items: list[Val] = []
    weight = 0
    for arg in args:
        value = ev.eval(arg.value)
        weight += ITEM_WEIGHT + value.weight
        if weight > MAX_WEIGHT:  # `os.execl(p, *a, *a, ...)`: the rest is not followed
            items.append(ev.unknown(arg, "the arguments grow past what speclint follows", splat=True))
            break
        if arg.star == "*":
            if value.kind == "list":
                items.extend(value.elements)
            else:
                items.append(ev.unknown(arg, value.why_unknown(), splat=True))
        else:
            items.append(value)
    return items
