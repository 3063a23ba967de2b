"""A call's `*args` and `**kwargs` as the arguments they give, when the file gives them values
speclint knows: `subprocess.run(*args, **kw)` with `args = (cmd,)` and `kw = {"env": env}`,
`Popen(*cmd_parts, **popen_kwargs)`, `popen_launch_server(*server, other_args=[...])`.

The call is read as if the file had written those arguments: each element of a tuple or list
whose length is known is one positional argument, each entry of a dict of string keys one
keyword argument, each value placed where the file wrote it. What is not known stays a spread
where it is written, for the call's readers to say so: a `*x` or `**kw` whose value is not
known, the part of a list from its first `*more` on (`subprocess.run(*parts)` with `parts =
[cmd, *rest]` is `subprocess.run(cmd, *rest)`), a dict's entries whose keys are not known. A
call whose spreads give nothing known is left as written (a parameter's value comes from each
call site).
"""

from __future__ import annotations

from dataclasses import replace

from speclint.frontends.python import syntax as py
from speclint.frontends.recognise import POPEN_LAUNCH_PD_SERVER, POPEN_LAUNCH_SERVER, SHELL_HELPERS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.frontends.python.walking import Walking


_RUNNERS = frozenset(
    {
        *("Popen", "run", "call", "check_call", "check_output"),
        *("execv", "execvp", "execve", "execvpe", "execl", "execlp", "execle", "execlpe"),
        *("system", "popen", "getoutput", "getstatusoutput"),
        *("create_subprocess_exec", "create_subprocess_shell"),
        POPEN_LAUNCH_SERVER,
        POPEN_LAUNCH_PD_SERVER,
        *SHELL_HELPERS,
    }
)
"""The runners whose arguments are spread: subprocess's, os's and asyncio's, SGLang's test
and docs helpers. Keyword launches (`sgl.Engine(**cfg)`, `ServerArgs(**cfg)`) read `**cfg`
themselves, each key placed where it is merged (`launch.kwargs_pairs`)."""


def spread(walker: Walking, call: py.Call) -> py.Call:
    """`call` with its `*` and `**` arguments replaced by the arguments they give (above),
    for a runner (`_RUNNERS`) or a function or method of the file (each call site's values)."""
    if not any(arg.star for arg in call.args):
        return call
    func = call.func
    last = func.attr.value if isinstance(func, py.Attribute) else getattr(func, "value", None)
    if last not in _RUNNERS and not (
        isinstance(func, py.Name)
        and func.value in walker.functions
        or isinstance(func, py.Attribute)
        and any(last in info.methods for info in walker.classes)
    ):
        return call
    ev = walker.evaluator()
    made: list[py.Arg] = []
    gave = False
    for arg in call.args:
        value = ev.eval(arg.value) if arg.star else None
        node = arg.value
        if value is None or value.kind not in ("list", "dict") or (value.kind == "list") != (arg.star == "*"):
            made.append(arg)  # written out, or a spread whose value is not known: as written
            continue
        if value.kind == "list":
            known = next((i for i, item in enumerate(value.elements) if item.splat), len(value.elements))
            made.extend(
                py.Arg(arg.range, arg.outer, py.Known(node.range, node.outer, item), None, "")
                for item in value.elements[:known]
            )
            if known < len(value.elements):  # `[cmd, *rest]`: the rest stays a spread
                rest = replace(value, value=value.elements[known:])
                made.append(py.Arg(arg.range, arg.outer, py.Known(node.range, node.outer, rest), None, "*"))
            gave = gave or known > 0
            continue
        unnamed = [e for e in value.entries if e.key is None or not e.key.isidentifier()]
        for entry in value.entries:
            if entry not in unnamed and entry.key is not None:
                keyword = py.Name(arg.range, arg.outer, entry.key)
                known_value = py.Known(node.range, node.outer, entry.value)
                made.append(py.Arg(arg.range, arg.outer, known_value, keyword, ""))
                gave = True
        if unnamed:  # `{**other, "env": env}`: the unknown keys stay a spread
            rest = replace(value, value=unnamed)
            made.append(py.Arg(arg.range, arg.outer, py.Known(node.range, node.outer, rest), None, "**"))
    if not gave:
        return call
    return py.Call(call.range, call.outer, call.func, made)
