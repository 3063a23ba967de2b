"""A runner whose command speclint cannot know, built from a part that spells an SGLang
launch: `subprocess.Popen(with_gpu_flags(BASE + ["--tp-size", "2"]))` with `BASE` naming
`sglang.launch_server` and `with_gpu_flags` a function speclint does not follow. The launch is
said not read (`launch.not_read`), never passed over, even beside the file's other launches
(before: "All checks passed" over it)."""

from __future__ import annotations

from speclint.frontends.python import syntax as py
from speclint.frontends.python.scan import descendants
from speclint.frontends.recognise import LAUNCH_TEXT

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from speclint.frontends.python.values import Val
    from speclint.frontends.python.walking import Walking

    NotRead = Callable[[Walking, py.Call, str], None]

_MAX_PARTS = 48
"""Expressions inside the command looked at, at most."""
_MADE = "__speclint_made "
"""env key + a name: the call whose unknown result the name holds (`cmd = wrap(BASE)`)."""


def note_made(walker: Walking, target: py.BaseExpression, value: py.BaseExpression) -> None:
    """After `NAME = CALL(...)` whose result is unknown: remember CALL for `unread_command`
    (`cmd = pin_to_gpus(BASE); Popen(cmd)`); any other value assigned to NAME forgets it."""
    if not isinstance(target, py.Name):
        return
    key = _MADE + target.value
    current = walker.env.get(target.value)
    if isinstance(value, py.Call) and current is not None and current.kind == "unknown":
        walker.env[key] = walker.evaluator()._make(value, "const", value)
    elif key in walker.env:
        walker.env[key] = walker.evaluator()._make(target, "const", None)


def unread_command(
    walker: Walking, call: py.Call, target: py.BaseExpression, value: Val, not_read: NotRead
) -> None:
    """Say `call` not read (`not_read`: `launch.not_read`, handed in by its caller) when its
    command `target` (of unknown `value`) holds a part whose value spells an SGLang launch."""
    ev = walker.evaluator()
    made = walker.env.get(_MADE + target.value) if isinstance(target, py.Name) else None
    source = made.value if made is not None and isinstance(made.value, py.Call) else target
    for count, node in enumerate(descendants(source, True, (py.Lambda,))):
        if count > _MAX_PARTS:
            return
        if node is source or not isinstance(node, py.BaseExpression) or isinstance(node, py.Lambda):
            continue
        if _spells_launch(ev.eval(node)):
            written = walker.pos.quote(source)
            shown = f"`{written}`," if len(written) <= 60 else f"`{written[:57]}...`,"
            if source is not target:  # `cmd = wrap(BASE)` earlier
                line = walker.pos.span(source).line
                shown = f"`{walker.pos.quote(target)}`, made by {shown[:-1]} at line {line},"
            not_read(walker, call, f"runs {shown} which speclint cannot read ({value.why_unknown()})")
            return


def _spells_launch(value: Val) -> bool:
    items = [value]
    for _ in range(2):  # an argv, or a tuple holding one
        items = [inner for item in items for inner in (item.elements if item.kind == "list" else [item])]
    return LAUNCH_TEXT.search(" ".join(item.text or "" for item in items if item.kind == "str")) is not None
