"""The program's own environment (`os.environ`), as far as the file sets it, and what a
launch inherits from it.

A child process gets its parent's environment unless the call passes `env=` (Python's
`subprocess`, `os.exec*e`): so `os.environ["CUDA_VISIBLE_DEVICES"] = "0"` before a
`subprocess.Popen([...])` (or SGLang's `launch_server_cmd`, whose `execute_shell_command`
starts the command with `os.environ` or a copy of it in every release) is the launch's
environment. `env={...}` replaces it; `env={**os.environ, ...}`, `dict(os.environ, ...)`,
`os.environ.copy()` start from it.

Each variable the file sets is kept in the walker's environment under the key
`os.environ["NAME"]` (so `if` arms merge it as any name: set on one path only, it is
unknown after them), in order, at module level and in the function that sets it; the
value `None` stands for a variable the file removes (`del`, `.pop`). A value not known
statically stays unknown, with its reason. What the environment held before the program
ran is not known (the shell front-end reads an inherited variable the same way: not set
unless the file sets it).
"""

from __future__ import annotations

from typing import Protocol

from speclint.core.words import Word
from speclint.frontends.python import syntax as py
from speclint.frontends.python.values import Entry, Val

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.identity import Identity
    from speclint.frontends.python.positions import Positions
    from speclint.frontends.python.values import Env
    from speclint.frontends.shell.pieces import Piece


class Evaluator(Protocol):
    """What of `evaluator.Evaluator` this module needs (it imports this module)."""

    env: Env

    def eval(self, node: py.BaseExpression) -> Val: ...

    def dotted(self, node: py.BaseExpression) -> str | None: ...

    def unknown(
        self, node: py.Node, reason: str, splat: bool = False, identity: Identity | None = None
    ) -> Val: ...

    def _make(
        self, node: py.Node, kind: str, value: object = None, pieces: list[Piece] | None = None
    ) -> Val: ...


class Walking(Protocol):
    """What of the walker (`walking.Walking`) this module needs."""

    env: Env
    pos: Positions

    def evaluator(self) -> Evaluator: ...


ENVIRON = "os.environ"
_KEY = 'os.environ["'
_INHERITED = "what the environment held before the program ran (not known statically)"


def _key(name: str) -> str:
    return f'{_KEY}{name}"]'


_SET = "os.environ[]"
"""Present in the walker's environment once the file sets a variable: the file that never
does pays nothing for reading `os.environ`."""


def _put(walker: Walking, name: str, value: Val) -> None:
    walker.env[_key(name)] = walker.env[_SET] = value


def is_environ(ev: Evaluator, node: py.BaseExpression) -> bool:
    return isinstance(node, (py.Attribute, py.Name)) and ev.dotted(node) == ENVIRON


def _removed(value: Val) -> bool:
    return value.kind == "const" and value.value is None


def _set(env: Env) -> list[tuple[str, Val]]:
    """(NAME, value) of each variable the file set, in the order first set (removed ones
    left out)."""
    found: list[tuple[str, Val]] = []
    if _SET not in env:
        return found
    for key in env:  # a ChainMap: every layer's keys, the innermost value
        if key.startswith(_KEY):
            value = env[key]
            if not _removed(value):
                found.append((key[len(_KEY) : -2], value))
    return found


def environ_value(ev: Evaluator, node: py.BaseExpression) -> Val:
    """`os.environ` (and `os.environ.copy()`, `dict(os.environ)`): a dict of what the file set,
    after one entry of unknown keys for what it held before."""
    inherited = ev.unknown(node, _INHERITED, splat=True)
    entries = [Entry(None, inherited.span, inherited)]
    return ev._make(node, "dict", entries + [Entry(name, value.span, value) for name, value in _set(ev.env)])


def assign_environ(walker: Walking, target: py.BaseExpression, value: Val | None) -> bool:
    """`os.environ["NAME"] = value` (`value` None: `del os.environ["NAME"]`): kept; False
    when `target` is not an item of `os.environ`. A name not known statically makes every
    variable the file set unknown (any of them may be the one changed)."""
    ev = walker.evaluator()
    if not isinstance(target, py.Subscript) or not is_environ(ev, target.value):
        return False
    index = target.slice[0].slice if len(target.slice) == 1 else None
    name = ev.eval(index.value).text if isinstance(index, py.Index) else None
    if name is None:
        _all_unknown(walker, target, f"`{walker.pos.quote(target)}` changes a variable not known statically")
        return True
    _put(walker, name, value if value is not None else ev._make(target, "const", None))
    return True


def environ_get(ev: Evaluator, node: py.Call, name: str | None, default: py.BaseExpression | None) -> Val:
    """`os.environ.get(NAME, default)` / `os.getenv(NAME, default)`: what the file set NAME to
    before, else the default (as the shell front-end reads `${NAME:-default}`, and
    `setdefault` here); unknown without a default (None only when NAME is unset)."""
    own = ev.env.get(_key(name)) if name is not None else None
    if own is not None and not _removed(own):
        return own
    if name is not None and default is not None:
        return ev.eval(default)
    return ev.unknown(node, f"environment variable {name or '?'} (read when the program runs)")


def environ_method(walker: Walking, call: py.Call) -> bool:
    """`os.environ.update(...)`, `.setdefault(NAME, value)`, `.pop(NAME)`: kept; False for
    other calls. `setdefault` sets a variable the file has not set (as the shell front-end
    reads `${NAME:-value}`)."""
    func = call.func
    ev = walker.evaluator()
    if not isinstance(func, py.Attribute) or not is_environ(ev, func.value):
        return False
    method = func.attr.value
    positional = [a for a in call.args if a.keyword is None and not a.star]
    if method == "update":
        for arg in call.args:
            if arg.keyword is not None:
                _put(walker, arg.keyword.value, ev.eval(arg.value))
                continue
            value = ev.eval(arg.value)
            entries = value.entries if value.kind == "dict" else [Entry(None, value.span, value)]
            for entry in entries:
                if entry.key is None and entry.value.reason != _INHERITED:  # (`**os.environ`: no change)
                    _all_unknown(
                        walker, arg, f"`{walker.pos.quote(call)}` sets variables not known statically"
                    )
                elif entry.key is not None:
                    _put(walker, entry.key, entry.value)
        return True
    name = ev.eval(positional[0].value).text if positional else None
    if name is None and method in ("setdefault", "pop"):
        _all_unknown(walker, call, f"`{walker.pos.quote(call)}` changes a variable not known statically")
    if name is None:
        return method in ("setdefault", "pop")
    current = walker.env.get(_key(name))
    if method == "setdefault" and len(positional) == 2 and (current is None or _removed(current)):
        _put(walker, name, ev.eval(positional[1].value))
    elif method == "pop":
        _put(walker, name, ev._make(call, "const", None))
    return True


def _all_unknown(walker: Walking, node: py.Node, why: str) -> None:
    """Every variable the file set made unknown: a statement changes one it does not name."""
    for known, _ in _set(walker.env):
        _put(walker, known, walker.evaluator().unknown(node, why))


def launch_env(
    walker: Walking, node: py.BaseExpression | None, inherits: bool = True
) -> dict[str, Word] | None:
    """The environment a launch call runs with: `env=` when it is a dict the file spells
    (`{**os.environ, ...}` included), the program's own when it passes none (or `None`) and
    `inherits` (the call is one whose handling of the environment is known); None when
    `env=` is not known statically (then only the command is read)."""
    if node is not None:
        value = walker.evaluator().eval(node)
        if value.kind == "dict":
            return env_words(value.entries)
        if not (inherits and value.kind == "const" and value.value is None):
            return None
    elif not inherits:
        return None
    inherited = env_words([Entry(name, value.span, value) for name, value in _set(walker.env)])
    return inherited or None


def env_words(entries: list[Entry]) -> dict[str, Word]:
    """NAME -> its value's word, for the entries with a known NAME."""
    words: dict[str, Word] = {}
    for entry in entries:
        if entry.key is None:
            continue
        text = entry.value.text if entry.value.kind in ("str", "const") else None
        words[entry.key] = Word(
            text,
            entry.value.span,
            entry.value.origin,
            dynamic_reason=None if text is not None else entry.value.why_unknown(),
        )
    return words
