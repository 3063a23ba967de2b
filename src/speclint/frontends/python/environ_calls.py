"""A statement that changes the program's environment through a call: `os.environ.update(...)`
and its other methods (`environ.environ_method`), `os.putenv(NAME, value)`, and a call of a
function the file defines at module level (`setup_env()` before `subprocess.Popen(cmd)`),
whose body is walked quietly there, in order, its parameters bound to the call's arguments
(`helpers.bind`), so the variables it sets in `os.environ` are set after the call as they
are when the program runs it. Nothing is imported or run; what the body cannot be followed
through (recursion, the helper budget) leaves every variable the file set unknown, the
reason said.

`os.putenv` sets the variable for the processes the program starts (a child started without
`env=` gets the C environment), not in the `os.environ` mapping (Python's documentation):
it is read as setting it for the launches; a copy of `os.environ` made after it
(`{**os.environ}`) is read as holding it too.
"""

from __future__ import annotations

from collections import ChainMap

from speclint.frontends.python import syntax as py
from speclint.frontends.python.environ import _KEY, _all_unknown, _put, environ_method

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.frontends.python.walking import Walking

_PUTENV = frozenset({"os.putenv"})
"""(`from os import putenv`: `putenv` is read as `os.putenv` where the imports say so.)"""
MAX_DEPTH = 8
"""Functions within functions followed for what they set."""


def environ_statement(walker: Walking, call: py.Call) -> bool:
    """A call statement that changes the environment: applied to the walker's; False when it
    is none of those above (or the file never names the environment)."""
    if environ_method(walker, call):
        return True
    if "environ" not in walker.text and "putenv" not in walker.text:
        return False  # (the file that never changes it pays one substring search)
    ev = walker.evaluator()
    if ev.dotted(call.func) in _PUTENV:
        positional = [a for a in call.args if a.keyword is None and not a.star]
        name = ev.eval(positional[0].value).text if len(positional) == 2 else None
        if name is None:
            _all_unknown(walker, call, f"`{walker.pos.quote(call)}` changes a variable not known statically")
        else:
            _put(walker, name, ev.eval(positional[1].value))
        return True
    return _follow(walker, call)


def _follow(walker: Walking, call: py.Call) -> bool:
    """`name(...)` of a module-level function of the file: what its body sets in
    `os.environ`, set here."""
    if not isinstance(call.func, py.Name):
        return False
    helper = walker.functions.get(call.func.value)
    if helper is None or helper.owner is not None or helper.positions is not None:
        return False
    if helper.node in walker.active or len(walker.active) >= MAX_DEPTH:
        _all_unknown(
            walker, call, f"{call.func.value}() is called within itself; speclint does not follow it"
        )
        return True
    from speclint.frontends.python.helpers import _Exhausted, bind

    inner = walker.helper_walker()  # quiet: no launch is recorded from the body here
    inner.imports, inner.functions, inner.budget = walker.imports, walker.functions, walker.budget
    inner.helper_budget = walker.helper_budget
    inner.active = walker.active | {helper.node}
    inner.in_function = True
    globals_env = walker.module_env if walker.module_env is not None else walker.env
    environ = {
        key: value for key, value in walker.env.items() if key.startswith(_KEY) or key == "os.environ[]"
    }
    inner.env = scope = ChainMap(bind(walker, helper, call), environ, helper.outer, globals_env)
    try:
        inner.block(helper.node.body.body)
    except _Exhausted:
        why = f"{call.func.value}(): more helper statements than speclint follows in one file"
        _all_unknown(walker, call, why)
        return True
    changed = {key: value for key, value in scope.maps[0].items() if key.startswith(_KEY)}
    if not walker.in_function:  # (at module level: the function's own walk, later, with the
        for key in changed:  # module's final values, starts from what it held before this call)
            helper.outer.setdefault(key, walker.env.get(key) or walker.evaluator()._make(call, "const", None))
    for key, value in changed.items():
        _put(walker, key[len(_KEY) : -2], value)
    return True
