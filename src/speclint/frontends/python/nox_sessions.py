"""nox sessions (`noxfile.py`): `session.run("python", "-m", "sglang.launch_server", ...)`.

nox's `Session.run(*args, env=None, include_outer_env=True, ...)` (and `run_install`, its
older name `run_always`) runs `args` as a command's argv, no shell (nox 2024.4.15,
`nox/sessions.py`, `Session._run` then `nox.command.run`): each positional argument one
word, `*list` spread. Its `env=` is laid over the session's environment, which starts from
the environment nox runs in (`{**self.env, **overlay_env}` when `include_outer_env`, the
default); with `include_outer_env=False` the command gets `env=` alone. What a session sets
with `session.env[NAME] = ...` is not followed (`env=` wins over it).

Read when the file imports nox and the call is `NAME.run(...)` on a name that is not an
imported module (the session a `@nox.session` function is given).
"""

from __future__ import annotations

from speclint.core.words import Word
from speclint.frontends.python.environ import launch_env

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.frontends.python import syntax as py
    from speclint.frontends.python.walking import Walking

NOX_RUNS = frozenset({"run", "run_install", "run_always"})


def recognize_nox(walker: Walking, call: py.Call, name: str) -> bool:
    """Read `call` when it is a nox session's `run`; False when it is not one."""
    head, _, last = name.partition(".")
    if last not in NOX_RUNS or head in walker.imports or not _imports_nox(walker):
        return False
    from speclint.frontends.python.starred import starred_items

    keywords = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
    items = starred_items(walker, [a for a in call.args if a.keyword is None])
    if not items:
        return True
    walker.add_argv(call, items, _env(walker, keywords))
    return True


def _imports_nox(walker: Walking) -> bool:
    return any(full == "nox" or full.startswith("nox.") for full in walker.imports.values())


def _env(walker: Walking, keywords: dict[str, py.BaseExpression]) -> dict[str, Word] | None:
    given = keywords.get("env")
    outer = keywords.get("include_outer_env")
    if outer is not None and walker.evaluator().eval(outer).python() == (False, True):
        return launch_env(walker, given, inherits=False) if given is not None else None
    inherited = launch_env(walker, None) or {}
    if given is None:
        return inherited or None
    overlay = launch_env(walker, given)
    if overlay is None:  # `env=` not known statically
        return None
    return {**inherited, **overlay}
