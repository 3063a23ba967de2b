"""A launch inside a function of the file whose argv comes from its parameters, read again
for each call of the function in the file (`def start(self, args): Popen(BASE + args)`
then `server.start(["--tp", "2"])`).

Walking the function alone leaves the parameters unknown (the launch is partly read); each
call the file makes gives them values. A function that launched nothing alone is walked per
call that passes it a string naming SGLang (`start("sglang.launch_server", args)`, the module
`python -m` runs a parameter). The function's own reading and one per call become
alternatives of its launch ("when start() is called at line 40"), a finding they share
reported once. Bounded: MAX_SITES calls per function, MAX_WALKS walks a file.
"""

from __future__ import annotations

from speclint.core.launches import Condition
from speclint.frontends.python import syntax as py
from speclint.frontends.python.constructed import mark_alternatives, note_construction, partly
from speclint.frontends.python.helpers import bind
from speclint.frontends.python.walking import Helper

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.launches import Launch
    from speclint.frontends.python.values import Val
    from speclint.frontends.python.walking import Walking

MAX_SITES = 8
MAX_WALKS = 64


def note_call(walker: Walking, call: py.Call) -> None:
    """Remember `call` with its arguments' values when it calls a function of the file
    that takes arguments (a method called on any object: by a name only one class has), or
    constructs a class of the file (`constructed`). A function called without arguments is
    remembered when it has defaults (`launch_server()`: each parameter its default)."""
    if note_construction(walker, call):
        return
    func = call.func
    if not call.args:
        named = walker.functions.get(func.value) if isinstance(func, py.Name) else None
        params = named.node.params if named is not None else None
        if named is not None and params is not None and any(p.default is not None for p in params.params):
            sites = walker.call_sites.setdefault(named.node, (named, []))[1]
            if len(sites) < MAX_SITES:
                sites.append((walker.pos.span(call), bind(walker, named, call)))
        return
    helper = None
    if isinstance(func, py.Name):
        helper = walker.functions.get(func.value)
    elif isinstance(func, py.Attribute):
        if isinstance(func.value, py.Name) and func.value.value in ("self", "cls") and walker.owner:
            helper = walker.owner.methods.get(func.attr.value)
        else:
            found = [
                info.methods[func.attr.value] for info in walker.classes if func.attr.value in info.methods
            ]
            helper = found[0] if len(found) == 1 else None
    if helper is None:
        return
    sites = walker.call_sites.setdefault(helper.node, (helper, []))[1]
    if len(sites) < MAX_SITES and not any(a.star for a in call.args):
        sites.append((walker.pos.span(call), bind(walker, helper, call)))


def walk_call_sites(walker: Walking) -> None:
    """Functions whose own launches are partly read, walked again per call of the file."""
    walks = MAX_WALKS
    for node, (helper, sites) in walker.call_sites.items():
        own = walker.launches_of.get(node, [])
        if not own and not any(_names_sglang(bound) for _, bound in sites):
            continue  # (`start("sglang.launch_server", args)`: the module is a parameter)
        if own and (
            not sites
            or not any(partly(launch) for launch in own)
            or any(launch.alternative is not None for launch in own)
        ):
            continue
        made: list[tuple[Condition, list[Launch]]] = []
        name = node.name.value
        for span, bound in sites:
            if walks <= 0:
                break
            walks -= 1
            count = len(walker.result.launches)
            walker.walk_function(Helper(helper.node, helper.outer, helper.owner), bound=bound)
            new = walker.result.launches[count:]
            if any(launch.alternative is not None for launch in new):
                continue  # `if` arms inside: they stay their own alternatives
            made.append((Condition(span, f"{name}() is called at line {span.line}"), new))
        mark_alternatives(own, made, f"{node.name.value}() is called from elsewhere (its parameters unknown)")


def _names_sglang(bound: dict[str, Val]) -> bool:
    """A call passing a string that names SGLang (a module `python -m` runs, a launcher
    command), or a list holding one (an argv), or a tuple holding that list (the `args` a
    `subprocess.run(*args)` spreads), to a function that launched nothing with its
    parameters unknown; or one of SGLang's `--speculative-*` options (a wrapper's command
    that `wrapper_flags` says not read)."""
    items = list(bound.values())
    for _ in range(2):
        items += [inner for item in items if item.kind == "list" for inner in item.elements]
    texts = [item.text or "" for item in items if item.kind == "str"]
    if any("sglang" in text for text in texts):
        return True
    from speclint.frontends.python.wrapper_flags import sglang_spellings  # (a wrapper's command)

    return any(sglang_spellings(text) for text in texts)
