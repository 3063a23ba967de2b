"""Calls of SGLang's launch test helpers (`sglang.test.test_utils.popen_launch_server`,
`popen_launch_pd_server`) and of the helpers that launch the server through them
(`run_bench_serving(model, ..., other_server_args=[...])`), read with the command the
helper's own source builds, as tools/gen_sglang_helpers.py read it (`sglang.helpers`)."""

from __future__ import annotations

from speclint.frontends.python.environ import launch_env
from speclint.frontends.shell.embedded import ArgvItem
from speclint.frontends.shell.pieces import Piece

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from speclint.frontends.python import syntax as py
    from speclint.frontends.python.values import Val
    from speclint.frontends.python.walking import Walking
    from speclint.sglang.helpers import HelperReading

    Argument = Callable[[str], "py.BaseExpression | None"]


class _Computed(Exception):
    """A launch helper's parameter the forwarding helper computes itself (not the caller's)."""

    def __init__(self, source: str) -> None:
        self.source = source


def test_helper_call(
    walker: Walking,
    call: py.Call,
    last: str,
    arguments: tuple[list[py.Arg], dict[str, py.BaseExpression]],
    not_read: Callable[[Walking, py.Call, str], None],
) -> None:
    """A call of the launch helper or forwarding helper named `last` (`arguments`: its
    positional and keyword arguments); `not_read` says a launch not read (`launch.not_read`)."""
    positional, keywords = arguments
    from speclint.sglang.helpers import newest_forwarding, newest_helper

    def given(params: tuple[str, ...]) -> Argument:
        def argument(param: str) -> py.BaseExpression | None:
            index = params.index(param) if param in params else None
            if index is not None and len(positional) > index:
                return positional[index].value
            return keywords.get(param)

        return argument

    direct = newest_helper(last)
    if direct is not None:
        unread = _test_helper(walker, call, given(direct.params), direct)
        if unread is not None:
            not_read(walker, call, unread)
        return
    forwarding = newest_forwarding(last)
    reading = newest_helper(forwarding.forwards) if forwarding is not None else None
    if forwarding is None or reading is None:
        return
    outer, passes = given(forwarding.params), dict(forwarding.passes)

    def forwarded(param: str) -> py.BaseExpression | None:
        if param not in passes:
            return None  # the launch helper's default
        name = passes[param]
        if name is None:
            raise _Computed(param)
        return outer(name)

    try:
        unread = _test_helper(walker, call, forwarded, reading)
    except _Computed as computed:
        unread = None
        not_read(
            walker,
            call,
            f"launches the server with `{forwarding.forwards}(..., {computed.source}=...)` whose "
            f"`{computed.source}` `{last}` computes itself (SGLang {forwarding.release}'s "
            "sglang/test/test_utils.py)",
        )
    if unread is not None:
        not_read(walker, call, unread)


_DEFAULTS: dict[str, object] = {"None": None, "False": False, "True": True}
"""A helper parameter's default as its source writes it -> its value."""


def _test_helper(walker: Walking, call: py.Call, argument: Argument, reading: HelperReading) -> str | None:
    """A call of one of SGLang's launch test helpers, read with the command its source builds
    (`reading`: the newest release that has it, `sglang serve --model-path M *other_args` for
    popen_launch_server since 0.5.10): the literal words before the first parameter are the
    entry, placed at the helper's name; a literal word right before a parameter goes with it
    (placed at that argument, left out with it when the call does not pass it, as
    `--model-path`); then `other_args`' items. A call passing another value than the default
    of a parameter that chose the branch building the command is not read. What the helper
    adds at run time (`--device` auto-detected, `--host`/`--port` from base_url, `--api-key`)
    is not read. `argument(param)`: the expression the call gives the helper's parameter.
    Returns why the launch was not read, or None."""
    ev = walker.evaluator()
    for param, default in reading.command_decided_by:
        node = argument(param)
        if node is not None and ev.eval(node).python() != (_DEFAULTS.get(default, node), True):
            return (  # `pd_separated=True`: another command than the one read
                f"passes `{param}` another value than `{default}`, with which `{reading.name}` builds "
                f"another command than the one speclint read from SGLang {reading.release}'s source"
            )
    prefix: list[ArgvItem] = []
    items: list[Val] = []
    begin, end = walker.pos.offsets(call.func)
    entry_read = False
    pending: list[str] = []
    for word in reading.command:
        if word.text is not None:
            pending.append(word.text)
            continue
        attached = pending
        if not entry_read:
            entry = pending[:-1] if word.param is not None else pending
            prefix += [ArgvItem([Piece(text, begin, end)]) for text in entry]
            attached, entry_read = pending[len(entry) :], True
        pending = []
        if word.unknown is not None or (attached and items):
            return f"`{reading.name}` builds its command from values speclint does not model"
        node = argument(word.param or word.splat or "")
        if node is None:
            continue
        value = ev.eval(node)
        if word.param is not None:
            where = walker.pos.offsets(node)
            prefix += [ArgvItem([Piece(text, *where)]) for text in attached]
            items.append(value)
        elif attached:
            return f"`{reading.name}` builds its command from values speclint does not model"
        else:
            items += (
                value.elements
                if value.kind == "list"
                else [ev.unknown(node, value.why_unknown(), splat=True)]
            )
    if pending:  # written words after other_args: not modelled
        return f"`{reading.name}` builds its command from values speclint does not model"
    for texts, param in reading.given_after():  # `--model-path MODEL` when MODEL is not None
        given = argument(param)
        if given is None or (after := ev.eval(given)).python() == (None, True):
            continue
        flags = {(e.text or "").split("=")[0] for e in items if (e.text or "").startswith("--")}
        if any(t.startswith(f) for f in flags for t in texts if len(f) > 2):  # the last one wins
            return f"passes arguments that set `{texts[0]}` too, which `{reading.name}` sets again after them"
        from speclint.frontends.python.scan import argv_item

        where = walker.pos.offsets(given)  # (placed before the arguments: none sets it, so alike)
        prefix += [ArgvItem([Piece(text, *where)]) for text in texts] + [argv_item(after)]
    env = argument("env")
    count = len(walker.result.launches)
    walker.add_argv(call, items, launch_env(walker, env), prefix)
    for launch in walker.result.launches[count:]:
        launch.helper = (reading.name, reading.release)
    return None


def flags_given(walker: Walking, positional: list[py.Arg], keywords: dict[str, py.BaseExpression]) -> bool:
    """Whether a call is given a list holding a known `--flag` word (an argv of server flags)."""
    ev = walker.evaluator()
    for node in [arg.value for arg in positional] + list(keywords.values()):
        value = ev.eval(node)
        if value.kind == "list" and any((e.text or "").startswith("--") for e in value.elements):
            return True
    return False
