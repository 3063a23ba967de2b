"""Shell functions that hold a launch, read once per call with the call's words as `$1`, `"$@"` ...

bash runs a function's body where it is called, with the call's words as positional
parameters and the caller's variables as they are at the call (bash manual, "Shell
Functions"); a `VAR=x` prefix of the call is in the body's environment. So each call of a
function whose body holds a launch (or whose words name the launcher: `retry python3 -m
sglang.launch_server ...` through a body's `"$@"`) is read as bash would run it: the body
walked with the call's words (`Env.positional`, see `positional`), and its launches point at
the call's words where they came from the call.

A function called nowhere (or only in ways speclint does not follow) keeps its own reading,
with its arguments unknown. The launches the calls of one body make are alternatives of
that launch ("when serve() is called at line 12"), as branch alternatives are folded
(`rules.alternatives`): a finding every call shares is reported once; one that only some
calls have says which. Bounded: MAX_READINGS calls of a function are read (the one after
them once more with its arguments unknown), calls nested MAX_DEPTH deep, no recursion.
"""

from __future__ import annotations

from speclint.core.launches import Condition
from speclint.frontends.recognise import names_launcher
from speclint.frontends.shell.set_positional import forget
from speclint.frontends.shell.variables import VarValue, dynamic_value

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tree_sitter import Node

    from speclint.core.words import Word
    from speclint.frontends.shell.expand import Arg
    from speclint.frontends.shell.function_defs import Definition
    from speclint.frontends.shell.walking import Walking

MAX_READINGS = 16
"""Calls of one function read with their words (as MAX_ALTERNATIVES bounds branch arms)."""
MAX_DEPTH = 8
"""Calls inside called functions followed this deep."""


def follow_call(walker: Walking, node: Node, args: list[Arg], prefix: dict[str, Word]) -> bool:
    """Read the body of the function `args[0]` names with this call's words; False when the
    call is not followed (the body keeps its own reading)."""
    name = args[0].word.text or ""
    definition = walker.definitions.get(name)
    calls = walker.calls
    if (
        definition is None
        or not walker.collect
        or len(calls.stack) >= MAX_DEPTH
        or any(open_call is definition for open_call, _ in calls.stack)
        or definition.readings > MAX_READINGS
    ):
        return False
    words = tuple(arg.word for arg in args[1:])
    if not definition.may_launch(walker.definitions, set()) and not any(
        word.text is not None and names_launcher(word.text.encode("utf-8", "surrogatepass")) for word in words
    ):
        return False
    span = walker.tm.node_span(node)
    env = walker.env.copy()
    for var, word in prefix.items():  # `VAR=x serve ...`: in the body's environment
        env.assign(
            var, VarValue(text=word.text, reason=word.dynamic_reason, origin=word.origin, exported=True)
        )
    forget(env)
    env.positional_reason = f"argument of function {name}()"
    if definition.readings < MAX_READINGS:
        env.positional = words
    else:
        env.positional = None
        env.positional_reason += f" (speclint reads the first {MAX_READINGS} calls of it with their words)"
    definition.readings += 1
    calls.stack.append((definition, Condition(span, f"{name}() is called at line {span.line}")))
    saved, saved_tm = walker.env, walker.tm
    walker.env = env
    walker.tm = definition.tm  # an exported function called in an inner shell: its own text
    try:
        walker.statement(definition.body)
    finally:
        walker.env, walker.tm = saved, saved_tm
        calls.stack.pop()
    return True


def read_uncalled(walker: Walking, deferred: list[Definition]) -> None:
    """The bodies no call read are walked once each, after the whole file, with their
    arguments unknown: a global is known inside only if it keeps the value it had at the
    definition until the end of the file. Each is read after the unread functions that call
    it (reading those may read it with a call's words)."""
    final = walker.env
    pending: list[Definition] = []
    callers: dict[str, int] = {}  # name -> how many pending functions call it
    seen = 0
    while True:
        for definition in deferred[seen:]:  # reading a body may define more functions
            if definition.readings == 0:
                pending.append(definition)
                for name in definition.callees():
                    if name != definition.name:
                        callers[name] = callers.get(name, 0) + 1
        seen = len(deferred)
        kept = []
        for definition in pending:
            if definition.readings == 0:
                kept.append(definition)
            else:  # read by a call meanwhile
                for name in definition.callees():
                    if name != definition.name:
                        callers[name] -= 1
        pending = kept
        if not pending:
            break
        definition = next((d for d in pending if not callers.get(d.name)), pending[0])
        pending.remove(definition)
        for name in definition.callees():
            if name != definition.name:
                callers[name] -= 1
        name, snapshot = definition.name, definition.snapshot
        env = snapshot.copy()
        forget(env)
        env.positional = None
        env.positional_reason = f"argument of function {name}()"
        for var, value in final.vars.items():
            if snapshot.vars.get(var) is not value:
                env.vars[var] = dynamic_value(
                    f"${var} changes after function {name}() is defined", value.origin, value.exported
                )
        env.assume_all()  # a caller may set any of them for the call: `VAR=x name`
        walker.env = env
        walker.statement(definition.body)
    walker.env = final
