"""Python APIs that start a command for the program: docker-py, SkyPilot and pexpect.

- docker-py `client.containers.run(IMAGE, command=..., entrypoint=..., environment=...)` (and
  `containers.create`, podman-py's same API): the container runs `entrypoint` then `command`,
  each a list or a string docker-py splits into words (`docker.utils.split_command`:
  `shlex.split`, docker 7.1.0); `environment` (a dict, or `["K=V", ...]`) is the container's
  environment, which starts empty as with `docker run -e`; the image picks the SGLang release
  as a `docker run` image does (`sglang.flags.versions.version_from_image`).
- SkyPilot `sky.Task(setup=..., run=..., envs=...)` (keyword-only but for `name`): `setup`
  then `run` are shell scripts run by bash with `envs` set, as the task YAML's keys are
  (`manifests.task_configs`); a `run` that is a command generator (a function) is not text
  and is not read.
- pexpect `pexpect.spawn(COMMAND)` / `pexpect.run(COMMAND)` (the string split into words,
  pexpect's `split_command_line`), `pexpect.spawn(PROGRAM, [ARGS...])` (the program, then the
  list), `pexpect.popen_spawn.PopenSpawn(CMD)` (`shlex.split` for a string, pexpect 4.8.0);
  `env=` is the whole environment, as `subprocess`'s, and without it (or `env=None`) the
  child inherits the program's `os.environ` (pexpect's `spawn._spawn` hands `self.env`, None
  by default, to `ptyprocess.PtyProcess.spawn`, which then keeps the parent's; `PopenSpawn`
  to `subprocess.Popen`), so
  what the file sets there before the call is the launch's. docker-py's container never
  inherits it: its environment is `environment=` alone (and the image's `ENV`).

Every one is handed to the shell front-end as words or shell text, each character placed where
the file writes it; none of them is imported or run.
"""

from __future__ import annotations

from dataclasses import replace

from speclint.core.words import Word
from speclint.frontends.python import syntax as py
from speclint.frontends.python.environ import env_words as entry_words
from speclint.frontends.python.environ import launch_env

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.spans import Span
    from speclint.frontends.python.values import Val
    from speclint.frontends.python.walking import Walking

_CONTAINER_METHODS = frozenset({"run", "create"})
_SKY_TASKS = frozenset({"sky.Task", "sky.task.Task"})
_PEXPECT_STRINGS = frozenset({"pexpect.run", "pexpect.runu"})
_PEXPECT_SPAWNS = frozenset({"pexpect.spawn", "pexpect.spawnu", "pexpect.pty_spawn.spawn"})
_POPEN_SPAWNS = frozenset({"pexpect.popen_spawn.PopenSpawn", "pexpect.PopenSpawn"})
_READ = _SKY_TASKS | _PEXPECT_STRINGS | _PEXPECT_SPAWNS | _POPEN_SPAWNS
API_CALLS = (
    "containers.run",
    "containers.create",
    *sorted(_READ),
)
"""Every name read here (docker-py's as its method is written on any client)."""
API_NAMES = frozenset(name.rsplit(".", 1)[-1] for name in API_CALLS)
"""Their last parts, in `launch.LAUNCH_NAMES`: a statement calling one is kept in a big
file's selection (`select`)."""


def recognize_api(walker: Walking, call: py.Call, name: str) -> bool:
    """Read `call` when it is one of the APIs above; False when it is none of them."""
    containers = _is_containers_method(call)
    if not containers and name not in _READ:
        return False
    positional = [a for a in call.args if a.keyword is None and not a.star]
    keywords = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
    if containers:
        _container(walker, call, positional, keywords)
    elif name in _SKY_TASKS:
        _sky_task(walker, keywords)
    else:
        _pexpect(walker, call, name, positional, keywords)
    return True


def _is_containers_method(call: py.Call) -> bool:
    """`<anything>.containers.run(...)` / `.containers.create(...)` (docker-py's and
    podman-py's ContainerCollection, reached from a client however it is made)."""
    func = call.func
    return (
        isinstance(func, py.Attribute)
        and func.attr.value in _CONTAINER_METHODS
        and isinstance(func.value, py.Attribute)
        and func.value.attr.value == "containers"
    )


def _container(
    walker: Walking, call: py.Call, positional: list[py.Arg], keywords: dict[str, py.BaseExpression]
) -> None:
    ev = walker.evaluator()
    image_node = positional[0].value if positional else keywords.get("image")
    command_node = positional[1].value if len(positional) > 1 else keywords.get("command")
    if command_node is None:
        return  # the image's own command: not written here
    items: list[Val] = []
    for node in (keywords.get("entrypoint"), command_node):
        if node is not None:
            items += _words(walker, node)
    image: tuple[str | None, Span | None] | None = None
    if image_node is not None:
        value = ev.eval(image_node)
        image = (value.text if value.kind == "str" else None, value.origin or value.span)
    env = _environment(walker, keywords.get("environment"))
    _run(walker, call, items, env, image)


def _run(
    walker: Walking,
    call: py.Call,
    items: list[Val],
    env: dict[str, Word] | None,
    image: tuple[str | None, Span | None] | None = None,
) -> None:
    """The argv run with `env` as its environment. No shell runs it: a `$NAME` in a string
    split into words reaches the program as it is written, so `env` is not used to expand it
    (the walk leaves it unknown); it is set on the launch afterwards."""
    count = len(walker.result.launches)
    walker.add_argv(call, items, None, image=image)
    for launch in walker.result.launches[count:]:
        for name, word in (env or {}).items():
            launch.env.setdefault(name, word)


def _words(walker: Walking, node: py.BaseExpression) -> list[Val]:
    """A command given as a list (its elements) or a string split into words."""
    ev = walker.evaluator()
    value = ev.eval(node)
    if value.kind == "list":
        return value.elements
    if value.kind == "str":
        return [replace(value, shell_code=True)]
    return [ev.unknown(node, value.why_unknown(), splat=True)]


def _environment(walker: Walking, node: py.BaseExpression | None) -> dict[str, Word] | None:
    """docker-py's `environment`: a dict, or a list of `K=V` strings (a `K` without `=` is
    the host's value: unknown here)."""
    if node is None:
        return None
    value = walker.evaluator().eval(node)
    if value.kind != "list":
        return env_words(walker, node)
    words: dict[str, Word] = {}
    for item in value.elements:
        text = item.text if item.kind == "str" else None
        if text is None:
            continue
        key, equals, rest = text.partition("=")
        reason = (
            None if equals else f"{key} is passed from the host's environment, which speclint does not know"
        )
        words[key] = Word(rest if equals else None, item.span, item.origin, dynamic_reason=reason)
    return words


def _sky_task(walker: Walking, keywords: dict[str, py.BaseExpression]) -> None:
    env = env_words(walker, keywords.get("envs")) or {}
    for key in ("setup", "run"):
        node = keywords.get(key)
        if node is not None:
            walker.add_shell(walker.evaluator().written(node), env)


def _pexpect(
    walker: Walking,
    call: py.Call,
    name: str,
    positional: list[py.Arg],
    keywords: dict[str, py.BaseExpression],
) -> None:
    ev = walker.evaluator()
    command = (
        positional[0].value if positional else keywords.get("cmd" if name in _POPEN_SPAWNS else "command")
    )
    if command is None:
        return
    args = positional[1].value if len(positional) > 1 else keywords.get("args")
    env = launch_env(walker, keywords.get("env"))  # (none given: pexpect's child inherits `os.environ`)
    if args is not None and name in _PEXPECT_SPAWNS:
        listed = ev.eval(args)
        if listed.kind != "list" or listed.elements:  # `args=[]`: the command string is split
            rest = (
                listed.elements
                if listed.kind == "list"
                else [ev.unknown(args, listed.why_unknown(), splat=True)]
            )
            _run(walker, call, [ev.eval(command), *rest], env)
            return
    _run(walker, call, _words(walker, command), env)


def env_words(walker: Walking, node: py.BaseExpression | None) -> dict[str, Word] | None:
    """An `env=` mapping the file writes: name -> its value (unknown where it is not known)."""
    if node is None:
        return None
    value = walker.evaluator().eval(node)
    if value.kind != "dict":
        return None
    return entry_words(value.entries)
