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

from speclint.frontends.python import syntax as py
from speclint.frontends.python.environ import _KEY, _all_unknown, _put, environ_method
from speclint.frontends.python.values import Scope

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.frontends.python.walking import Helper, Walking

_PUTENV = frozenset({"os.putenv"})
"""(`from os import putenv`: `putenv` is read as `os.putenv` where the imports say so.)"""


def called_names(text: str) -> list[str]:
    """The names written before a `(` (spaces and line ends between them allowed), in order:
    what `re.findall` of the pattern `\\b(\\w+)\\s*\\(` finds, read back from each `(` (that
    pattern tried every word of the text: a tenth of a small wrapper's walk)."""
    names: list[str] = []
    at = text.find("(")
    while at >= 0:
        end = at
        while end > 0 and text[end - 1].isspace():
            end -= 1
        start = end
        while start > 0 and (text[start - 1].isalnum() or text[start - 1] == "_"):
            start -= 1
        if start < end:
            names.append(text[start:end])
        at = text.find("(", at + 1)
    return names


MAX_DEPTH = 8
"""Functions within functions followed for what they set."""


def environ_statement(walker: Walking, call: py.Call) -> bool:
    """A call statement that changes the environment: applied to the walker's. True for
    `os.environ`'s methods and `os.putenv`, nothing else to read in them; False for any
    other call (a function of the file followed here is also an ordinary call)."""
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
    _follow(walker, call)
    return False  # (a call of the file's function is also read as any call is: `mutations`)


def _may_set(walker: Walking, function: py.FunctionDef, seen: set[int]) -> bool:
    """Whether the function's text names `environ` or `putenv`, or calls a module-level
    function of the file that may (so a call of any other function costs no walk)."""
    seen.add(id(function))
    begin, end = walker.pos.offsets(function)
    text = walker.text[begin:end]
    if "environ" in text or "putenv" in text:
        return True
    for name in called_names(text):
        helper = walker.functions.get(name)
        if helper is not None and helper.owner is None and helper.positions is None:
            if id(helper.node) not in seen and _may_set(walker, helper.node, seen):
                return True
    return False


def _called_helper(walker: Walking, call: py.Call) -> tuple[str, Helper] | None:
    """(the name as called, the function) for `name(...)` of a module-level function of the
    file, or `self.name(...)` / `cls.name(...)` of a method of the class whose method makes
    the call (`self.setup()` before the launch)."""
    func = call.func
    if isinstance(func, py.Name):
        helper = walker.functions.get(func.value)
        if helper is None or helper.owner is not None:
            return None
        name = func.value
    elif (
        isinstance(func, py.Attribute)
        and isinstance(func.value, py.Name)
        and func.value.value in ("self", "cls")
        and walker.owner is not None
    ):
        helper = walker.owner.methods.get(func.attr.value)
        if helper is None or helper.owner is not walker.owner:
            return None
        name = f"{func.value.value}.{func.attr.value}"
    else:
        return None
    return None if helper.positions is not None else (name, helper)


def _follow(walker: Walking, call: py.Call) -> bool:
    """`name(...)` of a module-level function of the file, or `self.name(...)` of a method of
    the caller's class: what its body sets in `os.environ`, set here."""
    found = _called_helper(walker, call)
    if found is None:
        return False
    name, helper = found
    if not _may_set(walker, helper.node, set()):
        return False  # (nothing in it, or in the functions it calls, names the environment)
    if helper.node in walker.active or len(walker.active) >= MAX_DEPTH:
        _all_unknown(walker, call, f"{name}() is called within itself; speclint does not follow it")
        return True
    from speclint.frontends.python.helpers import _Exhausted, bind

    inner = walker.helper_walker()  # quiet: no launch is recorded from the body here
    inner.imports, inner.functions, inner.budget = walker.imports, walker.functions, walker.budget
    inner.helper_budget = walker.helper_budget
    inner.active = walker.active | {helper.node}
    inner.in_function = True
    inner.owner = helper.owner
    globals_env = walker.module_env if walker.module_env is not None else walker.env
    environ = {
        key: value for key, value in walker.env.items() if key.startswith(_KEY) or key == "os.environ[]"
    }
    attrs = helper.owner.attrs if helper.owner is not None else {}  # `self.X` the class set
    inner.env = scope = Scope(bind(walker, helper, call), environ, helper.outer, attrs, globals_env)
    try:
        inner.block(helper.node.body.body)
    except _Exhausted:
        why = f"{name}(): more helper statements than speclint follows in one file"
        _all_unknown(walker, call, why)
        return True
    changed = {key: value for key, value in scope.maps[0].items() if key.startswith(_KEY)}
    if not walker.in_function:  # (at module level: the function's own walk, later, with the
        for key in changed:  # module's final values, starts from what it held before this call)
            helper.outer.setdefault(key, walker.env.get(key) or walker.evaluator()._make(call, "const", None))
    for key, value in changed.items():
        _put(walker, key[len(_KEY) : -2], value)
    return True
