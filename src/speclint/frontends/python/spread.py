"""A call's `*args` and `**kwargs` as the arguments they give, when the file gives them values
speclint knows: `subprocess.run(*args, **kw)` with `args = (cmd,)` and `kw = {"env": env}`,
`Popen(*cmd_parts, **popen_kwargs)`, `popen_launch_server(*server, other_args=[...])`.

The call is read as if the file had written those arguments: each element of a tuple or list
whose length is known is one positional argument, each entry of a dict of string keys one
keyword argument, each value placed where the file wrote it. A `*x` whose length is not known
(an unknown value, or a list holding `*more`) gives what comes before its unknown part and
then stops: the arguments after it are not known, so are left out (`subprocess.run(*parts)`
with `parts = [cmd, *rest]` is `subprocess.run(cmd, ...)`); a `**kw` that is not a dict of
string keys gives no keyword. A call whose spread gives nothing known is left as written
(its readers say what they cannot read: a parameter's value comes from each call site).
"""

from __future__ import annotations

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
    positional_known = True  # false after a `*x` whose length is not known
    gave = False
    for arg in call.args:
        if not arg.star:
            if arg.keyword is not None or positional_known:
                made.append(arg)
            continue
        value = ev.eval(arg.value)
        node = arg.value
        if arg.star == "*":
            if not positional_known or value.kind != "list":
                positional_known = False
                continue
            for item in value.elements:
                if item.splat:
                    positional_known = False
                    break
                made.append(py.Arg(arg.range, arg.outer, py.Known(node.range, node.outer, item), None, ""))
                gave = True
            continue
        if value.kind != "dict":
            continue
        for entry in value.entries:
            if entry.key is None or not entry.key.isidentifier():
                continue
            keyword = py.Name(arg.range, arg.outer, entry.key)
            made.append(
                py.Arg(arg.range, arg.outer, py.Known(node.range, node.outer, entry.value), keyword, "")
            )
            gave = True
    if not gave:
        return call
    return py.Call(call.range, call.outer, call.func, made)
