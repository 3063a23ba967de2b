"""A runner handed to another API that calls it later, as Python's own APIs do:

- `threading.Thread(target=F, args=(...), kwargs={...})`, `multiprocessing.Process(...)` (and
  a context's, `mp.get_context("spawn").Process(...)`): `start()` calls `F(*args, **kwargs)`;
- `executor.submit(F, *args, **kwargs)` (concurrent.futures), `asyncio.to_thread(F, *args,
  **kwargs)`, `loop.run_in_executor(EXECUTOR, F, *args)`;
- `pool.apply_async(F, args, kwds)` / `pool.apply(F, args, kwds)` (multiprocessing.Pool).

Each is read as the call `F(*args, **kwargs)` it makes, written at the handing call: with `F`
`subprocess.run`, `os.system`, ... that call is a launch read as a direct one is; with `F` a
function of the file it is a call site of that function (`calls`). With `F` a callable
speclint does not know, arguments that spell an SGLang launch are reported not read
(`launch.not_read`), never passed over. The arguments are read only as the file writes them
(a tuple or list literal, a dict literal of string keys); others make the launch not read.
"""

from __future__ import annotations

from speclint.frontends.python import syntax as py
from speclint.frontends.python.handed_names import EXECUTOR, HANDED_NAMES, MAP, POOL, STARTERS
from speclint.frontends.python.launch import GENERIC_HELPER, LAUNCH_NAMES, not_read
from speclint.frontends.python.scan import calls_in
from speclint.frontends.python.spread import spread

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

    from speclint.frontends.python.walking import Walking


def with_handed(walker: Walking, calls: Sequence[py.Call]) -> Iterator[py.Call]:
    """Each call, then the call a handing call of it makes (`Thread(target=F, args=A)`:
    `F(*A)`), when it hands one."""
    for written in calls:
        call = spread(walker, written)  # `subprocess.run(*args, **kw)`: what they give
        yield call
        func = call.func
        last = func.attr.value if isinstance(func, py.Attribute) else getattr(func, "value", None)
        if last in HANDED_NAMES:
            yield from (spread(walker, made) for made in _handed(walker, call, last))


def _handed(walker: Walking, call: py.Call, last: str) -> list[py.Call]:
    positional = [a for a in call.args if a.keyword is None and not a.star]
    keywords = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
    args: list[py.Arg] | None
    if last == MAP:
        return _mapped(walker, call, positional) if len(positional) == 2 == len(call.args) else []
    if last in STARTERS:
        target = keywords.get("target")
        args = _from_literal(walker, call, keywords.get("args"), keywords.get("kwargs"))
    elif last in POOL:
        target = positional[0].value if positional else keywords.get("func")
        rest = [a.value for a in positional[1:3]]
        given = [*rest, *(None for _ in range(2 - len(rest)))]
        args = _from_literal(walker, call, keywords.get("args", given[0]), keywords.get("kwds", given[1]))
    else:
        skip = 2 if last == EXECUTOR else 1
        if len(call.args) < skip or any(a.keyword is not None or a.star for a in call.args[:skip]):
            return []
        target = call.args[skip - 1].value
        args = list(call.args[skip:])
    if target is None:
        return []
    if isinstance(target, py.Lambda):  # `target=lambda: subprocess.run(cmd)`: its calls
        if _no_parameters(target.params):
            return calls_in(target.body, walker.pos.ranges)
        _check_unread(walker, call, target, None)  # its parameters: not bound to `args`
        return []
    made = py.Call(call.range, call.outer, target, args or [])
    if args is None:
        _check_unread(walker, call, target, None)
        return []
    if not _followed(walker, target):
        _check_unread(walker, call, target, made)
    return [made]


def _mapped(walker: Walking, call: py.Call, positional: list[py.Arg]) -> list[py.Call]:
    """`map(F, ITEMS)`: `F(item)` per item of a list or tuple the file writes there, or, for
    a `subprocess` runner, per argv of a list a name holds (`map(subprocess.Popen, cmds)`)."""
    from speclint.frontends.python.environ import launch_env

    target, items = positional[0].value, positional[1].value
    if isinstance(items, (py.List, py.Tuple)) and all(isinstance(e, py.Element) for e in items.elements):
        made = [
            py.Call(call.range, call.outer, target, [py.Arg(e.range, e.outer, e.value, None, "")])
            for e in items.elements
        ]
        if made and not _followed(walker, target):
            _check_unread(walker, call, target, made[0])
        return made
    value = walker.evaluator().eval(items)
    name = walker.evaluator().dotted(target) or ""
    if value.kind == "list" and name.startswith("subprocess.") and name.rsplit(".", 1)[-1] in LAUNCH_NAMES:
        for item in value.elements:
            if item.kind == "list":
                walker.add_argv(call, item.elements, launch_env(walker, None))
        return []
    _check_unread(walker, call, target, None)
    return []


def _no_parameters(params: py.Parameters) -> bool:
    return not (
        params.params or params.star_arg or params.kwonly_params or params.star_kwarg or params.posonly_params
    )


def _from_literal(
    walker: Walking, call: py.Call, args: py.BaseExpression | None, kwargs: py.BaseExpression | None
) -> list[py.Arg] | None:
    """The arguments a tuple (or list) literal and a dict literal of string keys give, or a
    name the file assigns one (`_held_args`, `_held_kwargs`); None when either is written
    otherwise (a call, a name whose value is not known there)."""
    made: list[py.Arg] = []
    if isinstance(args, py.Name) and args.value != "None":  # `args = (cmd,)` earlier in the file
        held = _held_args(walker, args)
        if held is None:
            return None
        made.extend(held)
    elif args is not None and not isinstance(args, py.Name):  # (`args=None`: none)
        if not isinstance(args, (py.Tuple, py.List)):
            return None
        for element in args.elements:
            if isinstance(element, py.StarredElement):
                return None  # `args=(*cmds,)`: which argument is which is not written
            made.append(py.Arg(element.range, element.outer, element.value, None, ""))
    if isinstance(kwargs, py.Name) and kwargs.value != "None":  # `kw = {"env": env}` earlier
        held = _held_kwargs(walker, kwargs)
        return None if held is None else made + held
    if kwargs is not None and not isinstance(kwargs, py.Name):  # (`kwargs=None`: none)
        if not isinstance(kwargs, py.Dict):
            return None
        for entry in kwargs.elements:
            if isinstance(entry, py.StarredDictElement):
                made.append(py.Arg(entry.range, entry.outer, entry.value, None, "**"))
                continue
            if not isinstance(entry, py.DictElement):
                return None
            key = entry.key
            text = walker.evaluator().eval(key).text
            if text is None or not text.isidentifier():
                return None
            made.append(
                py.Arg(entry.range, entry.outer, entry.value, py.Name(key.range, key.outer, text), "")
            )
    return made


def _held_args(walker: Walking, name: py.Name) -> list[py.Arg] | None:
    """The arguments a name holding a tuple (or list) gives, each element as the file wrote
    it; None when its value or its length is not known here."""
    value = walker.evaluator().eval(name)
    if value.kind != "list" or any(item.splat for item in value.elements):
        return None
    return [
        py.Arg(name.range, name.outer, py.Known(name.range, name.outer, item), None, "")
        for item in value.elements
    ]


def _held_kwargs(walker: Walking, name: py.Name) -> list[py.Arg] | None:
    """The keyword arguments a name holding a dict of string keys gives; None when its value
    or one of its keys is not known here."""
    value = walker.evaluator().eval(name)
    if value.kind != "dict" or any(e.key is None or not e.key.isidentifier() for e in value.entries):
        return None
    return [
        py.Arg(
            name.range,
            name.outer,
            py.Known(name.range, name.outer, entry.value),
            py.Name(name.range, name.outer, entry.key),
            "",
        )
        for entry in value.entries
        if entry.key is not None
    ]


def _followed(walker: Walking, target: py.BaseExpression) -> bool:
    """Whether `F(...)` is read where it is made: a runner `launch.recognize` knows, a helper
    it reads by name, or a function or method of the file (walked, its call sites noted)."""
    name = walker.evaluator().dotted(target) or ""
    last = name.rsplit(".", 1)[-1]
    if isinstance(target, py.Name) and target.value in walker.functions:
        return True
    if isinstance(target, py.Attribute) and any(last in info.methods for info in walker.classes):
        return True
    return bool(name) and (last in LAUNCH_NAMES or GENERIC_HELPER.search(last) is not None)


def _check_unread(walker: Walking, call: py.Call, target: py.BaseExpression, made: py.Call | None) -> None:
    """A launch handed to a callable speclint does not read (or with arguments it cannot
    read) is said not read when what is handed spells one."""
    from speclint.frontends.recognise import LAUNCH_TEXT

    ev = walker.evaluator()
    if made is None:
        nodes = [
            a.value for a in call.args if a.keyword is None or a.keyword.value in ("args", "kwargs", "kwds")
        ]
    else:
        nodes = [a.value for a in made.args]
    for node in nodes:
        value = ev.eval(node)
        items = [value]
        for _ in range(2):  # `args=(cmd,)` held in a name: the tuple, then the argv list
            items = [inner for item in items for inner in (item.elements if item.kind == "list" else [item])]
        text = " ".join(item.text or "" for item in items if item.kind == "str")
        if LAUNCH_TEXT.search(text):
            written = walker.pos.quote(target)
            why = (
                f" through `{walker.pos.quote(node)}`, which speclint cannot read as the call's arguments"
                if made is None
                else ", which speclint does not read"
            )
            not_read(walker, call, f"hands an SGLang launch to `{written}`{why}")
            return
