"""Functions defined in the file whose result is an argv or a command (`Popen(build_cmd())`).

A call of such a helper is evaluated by walking its body quietly (no launch is recorded:
the body is walked once more as a function of its own) with its parameters bound to the
call's arguments, and reading what it returns. Bounded: a helper calling itself, helpers
nested deeper than MAX_DEPTH, or more than MAX_CALLS helper calls or MAX_STATEMENTS
statements walked for them in one file give an unknown value with the reason.
"""

from __future__ import annotations

from dataclasses import replace

from speclint.frontends.python import syntax as py
from speclint.frontends.python.values import Scope

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.frontends.python.evaluator import Evaluator
    from speclint.frontends.python.values import Val
    from speclint.frontends.python.walking import ClassInfo, Helper, Walking

MAX_DEPTH = 8


def find_helper(walker: Walking, call: py.Call) -> Helper | None:
    func = call.func
    if isinstance(func, py.Name):
        return walker.functions.get(func.value)
    if (
        isinstance(func, py.Attribute)
        and isinstance(func.value, py.Name)
        and func.value.value in ("self", "cls")
        and walker.owner is not None
    ):
        return walker.owner.methods.get(func.attr.value)
    if isinstance(func, py.Attribute) and isinstance(func.value, (py.Call, py.Name, py.Attribute)):
        made = _instance_class(walker, func.value)
        found = _instance_method(
            walker, made[0] if made else None, func.attr.value, made[1] if made else None
        )
        if found is not None:  # `DockerServer(port).command()`: a method of a class of the file
            return found
    if isinstance(func, py.Attribute) and walker.owner is not None and _is_super(func.value):
        from speclint.frontends.python.class_order import next_method  # `super().get_server_args()`
        from speclint.frontends.python.walking import Helper

        found = next_method(walker, func.attr.value, call)
        if found is not None:  # run for the class walked: its `cls.X`, its methods
            return Helper(found.node, found.outer, walker.owner, found.positions, found.imports)
    return None


_INSTANCE = "@instance."
"""The env key of a name assigned an instance of a class of the file (`note_instance`)."""
_CALL = "()"
"""After it, the key of the call that made the instance."""


def note_instance(walker: Walking, target: py.BaseExpression, value: py.BaseExpression) -> None:
    """`server = DockerServer(...)` (or `self.server = ...`, read by the same method later):
    `server` names an instance of the class the file defines (its methods are then followed
    as `DockerServer(...).command()`'s are); any other value assigned to the name forgets it."""
    name = _instance_name(target)
    if name is None:
        return
    key = _INSTANCE + name
    made = value.func if isinstance(value, py.Call) else None
    if isinstance(made, py.Name) and any(info.name == made.value for info in walker.classes):
        walker.env[key] = walker.evaluator()._make(made, "const", made.value)
        walker.env[key + _CALL] = walker.evaluator()._make(made, "const", value)  # (`_built`)
    elif key in walker.env:
        walker.env[key] = walker.evaluator()._make(target, "const", None)
        walker.env[key + _CALL] = walker.evaluator()._make(target, "const", None)


def _instance_name(node: py.BaseExpression) -> str | None:
    """`server`, or `self.server` (an attribute of `self`): a name `note_instance` keeps."""
    if isinstance(node, py.Name):
        return node.value
    if isinstance(node, py.Attribute) and isinstance(node.value, py.Name) and node.value.value == "self":
        return "self." + node.attr.value
    return None


def _instance_class(
    walker: Walking, node: py.Call | py.Name | py.Attribute
) -> tuple[str, py.Call | None] | None:
    """The name of the class whose instance `node` is, and the call that made it:
    `DockerServer(...)`, or a name assigned one (`note_instance`)."""
    if isinstance(node, py.Call):
        return (node.func.value, node) if isinstance(node.func, py.Name) else None
    name = _instance_name(node)
    noted = walker.env.get(_INSTANCE + name) if name is not None else None
    if name is None or noted is None or not isinstance(noted.value, str):
        return None
    call = walker.env.get(_INSTANCE + name + _CALL)  # (two arms' different calls: unknown)
    return noted.value, call.value if call is not None and isinstance(call.value, py.Call) else None


def _instance_method(
    walker: Walking, made: str | None, method: str, call: py.Call | None = None
) -> Helper | None:
    """The method `method` of the class named `made` (`Server(cfg).command()`), when that
    class is defined in the file before the call: its own, or one it inherits from a class
    of the file. Its `self.X` are those the class's methods set, and those its `__init__`
    sets when walked with the arguments of `call`, the construction (`_built`); else a
    value its `__init__` takes from a parameter is unknown, with that reason."""
    if made is None:
        return None
    by_name = {info.name: info for info in walker.classes}
    info = by_name.get(made)
    if info is None or info.fixture is not None:
        return None
    from speclint.frontends.python.class_order import ancestors as _ancestors

    chain = [info, *_ancestors(info, by_name)]
    for owner in chain:
        helper = owner.methods.get(method)
        if helper is not None and helper.positions is None:
            constructed = _constructed(walker, info, chain)
            return replace(helper, owner=_built(walker, constructed, chain, call) or constructed)
    return None


def _built(
    walker: Walking, info: ClassInfo, chain: list[ClassInfo], call: py.Call | None
) -> ClassInfo | None:
    """`info` (its `__init__`-set values unknown) with the `self.X` its `__init__` (its own or
    the nearest base's) sets
    when walked with the arguments of `call` (`Server(port=8000)`: 8000, the defaults for
    those left out); None when that is not read (no such `__init__`, a decorated class,
    `*args` at the call, or the helper budget spent)."""
    init = next((owner.methods["__init__"] for owner in chain if "__init__" in owner.methods), None)
    if (
        call is None
        or init is None
        or init.positions is not None
        or init.node in walker.active
        or any(owner.decorated or "__post_init__" in owner.methods for owner in chain)
        or any(a.star for a in call.args)
        or walker.helper_budget.calls <= 0
    ):
        return None
    walker.helper_budget.calls -= 1
    inner = walker.helper_walker()
    inner.imports, inner.functions, inner.budget = walker.imports, walker.functions, walker.budget
    inner.classes = list(walker.classes)
    inner.helper_budget, inner.owner = walker.helper_budget, info
    inner.active = walker.active | {init.node}
    inner.in_function = True
    globals_env = walker.module_env if walker.module_env is not None else walker.env
    inner.env = scope = Scope(bind(walker, init, call), init.outer, info.attrs, globals_env)
    inner.returns = []
    try:
        inner.block(init.node.body.body)
    except _Exhausted:
        return None
    written = {key: value for key, value in scope.maps[0].items() if key.startswith("@self.")}
    return replace(info, attrs={**info.attrs, **written})


def _constructed(walker: Walking, info: ClassInfo, chain: list[ClassInfo]) -> ClassInfo:
    """`info` as its constructor leaves it, as far as speclint can say: the `self.X` an
    `__init__` / `__post_init__` of the class or its bases names, or every one for a
    decorated class (`@dataclass` fields), are unknown (the call's arguments may set them);
    the class body's other values stand."""
    ev = walker.evaluator()
    attrs = dict(info.attrs)
    decorated = any(owner.decorated for owner in chain)
    from speclint.frontends.python.scan import descendants

    for owner in chain:
        for name in ("__init__", "__post_init__"):
            init = owner.methods.get(name)
            for node in descendants(init.node.body, True) if init is not None else ():
                if (
                    isinstance(node, py.Attribute)
                    and isinstance(node.value, py.Name)
                    and node.value.value == "self"
                ):
                    why = f"`self.{node.attr.value}` is set when {info.name}(...) is constructed"
                    attrs["@self." + node.attr.value] = ev.unknown(node, why)
    if decorated:
        for key, value in attrs.items():
            why = f"`{key[1:]}` may be set by the constructor of the decorated class {info.name}"
            attrs[key] = replace(value, kind="unknown", value=None, pieces=[], reason=why, alternatives=None)
    return replace(info, attrs=attrs)


def _is_super(node: py.BaseExpression) -> bool:
    return isinstance(node, py.Call) and isinstance(node.func, py.Name) and node.func.value == "super"


def new_evaluator(walker: Walking) -> Evaluator:
    """An Evaluator of the walker's current `env`, positions and imports. Its helper callback
    holds the walker weakly: no cycle keeps a file's tree alive."""
    from _weakref import ref

    from speclint.frontends.python.conditions import rebound_names
    from speclint.frontends.python.evaluator import Evaluator

    held = ref(walker)

    def helper(call: py.Call) -> Val | None:
        found = held()
        assert found is not None  # (the walker holds its evaluator)
        return call_helper(found, call)

    ev = Evaluator(walker.pos, walker.env, walker.imports, helper)
    ev.rebound, ev.deciding = rebound_names(walker.text), not walker.looping  # (`conditions`)
    return ev


def call_helper(walker: Walking, call: py.Call) -> Val | None:
    """What the helper `call` names returns, or None when it names no helper of the file."""
    helper = find_helper(walker, call)
    if helper is None:
        return None
    ev = walker.evaluator()
    name = helper.node.name.value
    if helper.node in walker.active:
        return ev.unknown(call, f"{name}() calls itself; speclint does not follow recursion")
    if len(walker.active) >= MAX_DEPTH:
        return ev.unknown(call, f"helpers nested more than {MAX_DEPTH} deep; speclint stops at {name}()")
    budget = walker.helper_budget
    if budget.calls <= 0 or budget.statements <= 0:
        return ev.unknown(call, f"{name}(): more helper calls than speclint follows in one file")
    budget.calls -= 1
    if any(isinstance(d, py.Decorator) for d in helper.node.decorators) and not _plain(helper):
        return ev.unknown(call, f"{name}() is decorated; its result is computed when the program runs")
    inner = walker.helper_walker()
    inner.imports, inner.functions, inner.budget = walker.imports, walker.functions, walker.budget
    inner.classes = list(walker.classes)  # (what `super()` in the helper names)
    if helper.positions is not None:  # a method of SGLang's source (`fixtures`)
        inner.pos, inner.imports = helper.positions, helper.imports or {}
    inner.helper_budget, inner.owner = budget, helper.owner
    inner.active = walker.active | {helper.node}
    inner.in_function = True
    globals_env = walker.module_env if walker.module_env is not None else walker.env
    layers = [helper.outer] + ([helper.owner.attrs] if helper.owner is not None else []) + [globals_env]
    inner.env = Scope(bind(walker, helper, call), *layers)
    inner.returns = []
    try:
        inner.block(helper.node.body.body)
    except _Exhausted:
        return ev.unknown(call, f"{name}(): more helper statements than speclint follows in one file")
    return _returned(ev, call, name, inner.returns)


class _Exhausted(Exception):
    pass


def count_statement(walker: Walking) -> None:
    budget = walker.helper_budget
    budget.statements -= 1
    if budget.statements < 0:
        raise _Exhausted


def _plain(helper: Helper) -> bool:
    """Decorators that leave the result as the body returns it."""
    for decorator in helper.node.decorators:
        target = decorator.decorator
        name = (
            target.attr.value
            if isinstance(target, py.Attribute)
            else target.value
            if isinstance(target, py.Name)
            else ""
        )
        if name not in ("staticmethod", "classmethod", "cache", "lru_cache", "functools"):
            return False
    return True


def bind(walker: Walking, helper: Helper, call: py.Call) -> dict[str, Val]:
    """The helper's parameters: the call's arguments (evaluated where it is called), the
    defaults, or unknown values named after the parameter."""
    ev = walker.evaluator()
    params = helper.node.params
    ordered = [*params.posonly_params, *params.params]
    if helper.owner is not None and ordered and not _is_static(helper):
        ordered = ordered[1:]  # self / cls
    bound: dict[str, Val] = {}
    positional = [a for a in call.args if a.keyword is None]
    keywords = {a.keyword.value: a for a in call.args if a.keyword is not None}
    unpacked = any(a.star for a in call.args)
    for index, param in enumerate(ordered + list(params.kwonly_params)):
        name = param.name.value
        if (
            index < len(ordered)
            and index < len(positional)
            and not any(a.star for a in positional[: index + 1])
        ):
            bound[name] = ev.eval(positional[index].value)
        elif name in keywords:
            bound[name] = ev.eval(keywords[name].value)
        elif param.default is not None and not unpacked:
            bound[name] = (ev if helper.positions is None else _own_evaluator(walker, helper)).eval(
                param.default
            )
        else:
            bound[name] = ev.named(
                param.name, name, f"parameter `{name}` of {helper.node.name.value}()", param.name
            )
    names = {param.name.value for param in ordered + list(params.kwonly_params)}
    for star in (params.star_arg, params.star_kwarg):
        if not isinstance(star, py.Param):
            continue
        if unpacked:  # `f(*parts)`: which arguments are the extra ones is not known here
            bound[star.name.value] = ev.unknown(
                star.name, f"`{star.name.value}` holds the extra arguments of {helper.node.name.value}()"
            )
        elif star is params.star_arg:  # `def start(*args)`: the tuple of the extra positionals
            bound[star.name.value] = ev._make(
                call, "list", [ev.eval(a.value) for a in positional[len(ordered) :]]
            )
        else:  # `**kwargs`: the dict of the keywords no parameter takes
            from speclint.frontends.python.values import Entry

            extra = [arg for word, arg in keywords.items() if word not in names and arg.keyword]
            entries = [
                Entry(a.keyword.value, ev.pos.span(a.keyword), ev.eval(a.value)) for a in extra if a.keyword
            ]
            bound[star.name.value] = ev._make(call, "dict", entries)
    return bound


def _own_evaluator(walker: Walking, helper: Helper) -> Evaluator:
    """An evaluator where a method of SGLang's source is written (`fixtures`)."""
    from speclint.frontends.python.evaluator import Evaluator

    assert helper.positions is not None
    return Evaluator(helper.positions, Scope(helper.outer, walker.env), helper.imports or {})


def _is_static(helper: Helper) -> bool:
    return any(
        isinstance(d.decorator, py.Name) and d.decorator.value == "staticmethod"
        for d in helper.node.decorators
    )


def _returned(ev: Evaluator, call: py.Call, name: str, returns: list[Val]) -> Val:
    """One value for all the `return`s: the value when they agree; for lists, the common
    start then an unknown number of elements; otherwise unknown."""
    if not returns:
        return ev.unknown(call, f"{name}() returns nothing speclint can read")
    from speclint.frontends.python.scan import same_value

    first = returns[0]
    if all(same_value(first, other) for other in returns[1:]):
        return first
    reason = f"{name}() returns different values on different paths"
    if all(r.kind == "list" for r in returns):
        prefix: list[Val] = []
        for items in zip(*(r.elements for r in returns)):
            if all(item is items[0] for item in items):
                prefix.append(items[0])
            else:
                break
        tail = ev.unknown(call, reason, splat=True)
        return replace(first, value=prefix + [tail])
    return ev.unknown(call, reason)
