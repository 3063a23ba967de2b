"""Guards that refuse the file's own values: `if BACKEND is None: raise ...`, `assert cls.mode`,
`if not ENABLED: return` before a launch.

When the values the file itself gives make such a guard stop the program (or leave the
function) before the launch, the launch never runs with them: at run time they come from
elsewhere (a subclass sets the class attribute, a caller or the environment sets the name).
SGLang's own test bases do this (`storage_backend = None` with "must be set by subclasses").
Each name the guard reads is then unknown, with the guard's line as the reason, instead of
the refused value (which would be reported as a false error)."""

from __future__ import annotations

from dataclasses import replace

from speclint.frontends.python import syntax as py
from speclint.frontends.python.scan import value_key

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from speclint.frontends.python.walking import Walking


_REPORTS = ("print", "logger.", "logging.", "log.", "warnings.warn", "sys.stderr.write")
"""Calls a guard makes before it stops: it says why, and does nothing else."""


def ends_path(walker: Walking, group: Sequence[py.Node]) -> str | None:
    """What an arm that only stops does at its top level: "raise", "exit" (`sys.exit()`,
    `os._exit()`...) or, in a function, "return"; None for an arm that does anything else
    than say why (`if MODE == "prefill": launch(); return` is a path, not a guard)."""
    from speclint.frontends.python.branches import EXIT_CALLS, surely_exits

    smalls: list[py.Node] = []
    for statement in group:
        if not isinstance(statement, py.SimpleStatementLine):
            return None
        smalls.extend(statement.body)
    ev = walker.evaluator()
    for small in smalls:
        if isinstance(small, (py.Raise, py.Return, py.Pass)):
            continue
        call = small.value if isinstance(small, py.Expr) else None
        if not isinstance(call, py.Call):
            return None
        name = ev.dotted(call.func) or ""
        if not name.startswith(_REPORTS) and walker.imports.get(name, name) not in EXIT_CALLS:
            return None
    if any(isinstance(small, py.Raise) for small in smalls):
        return "raise"
    if surely_exits(walker, group):
        return "exit"
    if walker.in_function and any(isinstance(small, py.Return) for small in smalls):
        return "return"
    return None


def refuse(walker: Walking, test: py.BaseExpression, guard: py.Node, how: str) -> None:
    """The names and `self.`/`cls.` attributes `test` reads, unknown from here on: the guard
    at `guard` stops the launch with the file's own values (`how`: what it does)."""
    line = walker.pos.span(guard).line
    ev = walker.evaluator()
    for node, key in _read_keys(test):
        refused = walker.env.get(key)
        if refused is None or refused.kind == "unknown":
            continue
        begin, end = walker.pos.offsets(node)
        unknown = ev.unknown(
            node,
            f"`{walker.text[begin:end]}` as this file sets it makes line {line} {how} before "
            "the launch: its value at run time is set elsewhere (a subclass, a caller or the "
            "environment)",
        )
        # where the refused value was set: what a finding's "value assigned here" shows
        walker.env[key] = replace(unknown, span=refused.span, begin=refused.begin, end=refused.end)


def refuse_guard(walker: Walking, node: py.If) -> None:
    """An `if` whose arm taken with the file's own values stops the program or returns:
    those values are refused (names a function rebinds included: whatever value the file
    gives them, this one stops the launch)."""
    from speclint.frontends.python.conditions import decided

    if not walker.pos.relocates:
        return
    truth = decided(walker.evaluator(), node.test)
    if truth is None:
        return
    orelse = node.orelse
    taken = node.body.body if truth else orelse.body.body if isinstance(orelse, py.Else) else None
    ends = ends_path(walker, taken) if taken is not None else None
    if ends is not None:
        refuse(walker, node.test, node, ends)


def check_assert(walker: Walking, node: py.Assert) -> None:
    """`assert test`: a test the file's own values make false refuses them."""
    from speclint.frontends.python.conditions import decided

    if decided(walker.evaluator(), node.test) is False:
        refuse(walker, node.test, node, "fail its assert")


def _read_keys(test: py.Node) -> list[tuple[py.Node, str]]:
    """(node, environment key) of each plain name and `self.X`/`cls.X` the test reads, not
    the functions it calls."""
    found: list[tuple[py.Node, str]] = []
    stack: list[object] = [test]
    while stack:
        item = stack.pop()
        if isinstance(item, (list, tuple)):
            stack.extend(item)
            continue
        if not isinstance(item, py.Node):
            continue
        key = value_key(item) if isinstance(item, (py.Name, py.Attribute)) else None
        if key is not None:
            found.append((item, key))
            continue
        if isinstance(item, py.Attribute):
            continue  # `os.path.exists`, `args.mode`: not a value the file keeps
        if isinstance(item, py.Call):
            stack.extend(getattr(item, "args", ()))  # the arguments, not the function
            continue
        for kind in type(item).__mro__:
            stack.extend(getattr(item, slot, None) for slot in getattr(kind, "__slots__", ()))
    return found
