"""Classes of the file: `self.X` / `cls.X` across methods, and launches a subclass inherits.

SGLang's own tests (and suites built like them) launch in a base class's `setUpClass` with
`other_args=cls.other_args`, and each subclass sets `other_args` (and `model`) in its body.
The base's launch is then read once more per subclass of the same file, with the subclass's
values; the base's own reading and the subclasses' become alternatives of that launch
("when the class is TestMTP (line 40)"), so a finding they share is reported once. Bounded
by MAX_INHERITED_WALKS method walks a file.
"""

from __future__ import annotations

from speclint.core.launches import MAX_ALTERNATIVES, Alternative, Condition, Diagnostic
from speclint.frontends.python import syntax as py
from speclint.frontends.python.class_order import ancestors as _ancestors
from speclint.frontends.python.class_order import next_method
from speclint.frontends.python.fixtures import Borrowed, base_key, fixture_bases
from speclint.frontends.python.scan import merge_envs
from speclint.frontends.python.syntax_names import super_method
from speclint.frontends.python.values import Scope
from speclint.frontends.python.walking import SETUP_METHODS, ClassInfo, Helper

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from speclint.core.launches import Launch
    from speclint.core.spans import Span
    from speclint.frontends.python.evaluator import Evaluator
    from speclint.frontends.python.values import Val
    from speclint.frontends.python.walking import Walking

MAX_INHERITED_WALKS = 64


def class_body(walker: Walking, node: py.ClassDef) -> None:
    """The class body's names become `self.X` values of its methods; setUp-like methods
    are walked first, since they set what the others read."""
    saved, owner, count = walker.env, walker.owner, len(walker.deferred)
    functions = dict(walker.functions)
    name = walker.pos.span(node.name)
    external = fixture_bases(walker, node)  # SGLang's test fixtures it derives from
    bases = [
        arg.value.value if isinstance(arg.value, py.Name) else base_key(arg.value)
        for arg in node.bases
        if isinstance(arg.value, py.Name) or (external and base_key(arg.value) in external)
    ]
    walker.owner = info = ClassInfo(
        node.name.value, span=name, bases=bases, external=external, decorated=bool(node.decorators)
    )
    walker.env = scope = Scope({}, saved)
    walker.block(node.body.body)  # leaves walker.env as it found it
    info.body = {"@self." + k: v for k, v in scope.maps[0].items()}
    info.full = {**_inherited(walker, info), **info.body}
    info.attrs.update(info.full)  # its own methods read inherited `cls.X` too
    info.methods = {n: h for n, h in walker.functions.items() if h.owner is info}
    walker.functions = functions  # methods are called as self.name(), not by their name
    mine = walker.deferred[count:]
    walker.deferred[count:] = sorted(mine, key=lambda h: h.node.name.value not in SETUP_METHODS)
    walker.env, walker.owner = saved, owner
    walker.classes.append(info)
    _class_names(walker, info)


def _class_names(walker: Walking, info: ClassInfo) -> None:
    """`TestBase.other_args` read through the class's name (a subclass's body deriving its
    flags from its base's): the class's attributes, inherited ones included, in the scope
    the class is defined in."""
    for key, value in (info.full or {}).items():
        walker.env[info.name + key.removeprefix("@self")] = value


def _inherited(walker: Walking, info: ClassInfo) -> dict[str, Val]:
    """The class attributes `info` inherits from the classes defined before it (each base's
    own and inherited ones, kept as it is defined: linear in a deep hierarchy)."""
    attrs: dict[str, Val] = {}
    by_name = {c.name: c for c in walker.classes}
    for name in reversed(info.bases):
        base = info.external.get(name) or by_name.get(name)
        if base is None or base is info:
            continue
        if base.full is None:  # SGLang's fixture class: its own bases are few
            for ancestor in reversed([base, *_ancestors(base, by_name)]):
                attrs.update(ancestor.body)
        else:
            attrs.update(base.full)
    return attrs


def keep_attributes(owner: ClassInfo, written: Mapping[str, Val], ev: Evaluator) -> None:
    """The `self.X` a method set, for the methods walked after it (set differently by two
    methods: unknown)."""
    for key in [k for k in written if k.startswith("@self.")]:
        if key in owner.attrs:
            owner.attrs.update(merge_envs({}, [written, owner.attrs], ev, {key}))
        else:
            owner.attrs[key] = written[key]


def walk_inherited(walker: Walking) -> None:
    """Walk each subclass's inherited methods with the subclass's values, and mark the
    launches they make and the base's own as alternatives of one launch per call."""
    by_name = {info.name: info for info in walker.classes}
    budget = MAX_INHERITED_WALKS
    groups: dict[Span, list[tuple[ClassInfo, list[Launch]]]] = {}
    for info in walker.classes:
        ancestors = _ancestors(info, by_name)
        if not ancestors:
            continue
        attrs: dict[str, Val] = {}
        for ancestor in reversed(ancestors):
            attrs.update(ancestor.body)
        attrs.update(info.body)
        view = ClassInfo(info.name, attrs, {}, span=info.span, bases=info.bases, external=info.external)
        inherited: list[Helper] = []
        for ancestor in ancestors:
            for name, helper in ancestor.methods.items():
                if name not in info.methods and name not in view.methods:
                    if helper.positions is not None:  # SGLang's: `cls.get_server_args()` reads the subclass
                        helper = Helper(helper.node, helper.outer, view, helper.positions, helper.imports)
                    view.methods[name] = helper
                    inherited.append(helper)
        view.methods.update(info.methods)
        for helper in sorted(inherited, key=lambda h: h.node.name.value not in SETUP_METHODS):
            if not _may_launch(walker, helper):
                continue
            if budget <= 0:
                walker.result.diagnostics.append(_too_many(info, helper))
                return _mark(walker, groups)
            budget -= 1
            count = len(walker.result.launches)
            walker.walk_function(Helper(helper.node, helper.outer, view, helper.positions, helper.imports))
            for launch in walker.result.launches[count:]:
                if isinstance(helper.positions, Borrowed):
                    launch.fixture = helper.positions.fixture
                groups.setdefault(launch.span, []).append((info, [launch]))
    _mark(walker, groups)


def _may_launch(walker: Walking, helper: Helper) -> bool:
    """Whether an inherited method is worth walking with a subclass's values: it launched
    where its class walked it, sets what the others read (setUpClass), or is SGLang's."""
    name = helper.node.name.value
    return helper.positions is not None or name in SETUP_METHODS or bool(walker.launches_of.get(helper.node))


def _too_many(info: ClassInfo, helper: Helper) -> Diagnostic:
    assert info.span is not None  # a class of the file: where its name is written
    return Diagnostic(
        "file-too-large",
        f"more than {MAX_INHERITED_WALKS} inherited methods to read with their subclasses' values "
        f"in one file; the launches {info.name} and the classes after it inherit (from "
        f"{helper.node.name.value}() on) are not read",
        info.span,
    )


def _mark(walker: Walking, groups: dict[Span, list[tuple[ClassInfo, list[Launch]]]]) -> None:
    """Alternatives per launch call: the launches the classes' own methods made there (a
    subclass's setUpClass running the base's through `super()`), then the inherited walks'."""
    owned: dict[Span, list[tuple[ClassInfo, Launch]]] = {}
    for launch in walker.result.launches:
        if (owner := walker.launch_owner.get(id(launch))) is not None:
            owned.setdefault(launch.span, []).append((owner, launch))
    for span in {**owned, **groups}:
        members = groups.get(span)
        everyone = owned.get(span, []) + [(info, launch) for info, ls in members or [] for launch in ls]
        if members is None and len({id(info) for info, _ in everyone}) < 2:
            continue  # made by one class only: no alternative to name
        if len(everyone) > MAX_ALTERNATIVES:
            continue  # too many: each stays a launch of its own (or of its `if` arms)
        if len(everyone) == 1 and everyone[0][1].fixture is not None:
            continue  # one class of the file makes it: no alternative to name
        for index, (info, launch) in enumerate(everyone):
            where = info.span or span
            condition = Condition(where, f"the class is {info.name} (line {where.line})")
            arms = launch.alternative.conditions if launch.alternative is not None else ()
            launch.alternative = Alternative((condition, *arms), index, len(everyone))


def walk_super(walker: Walking, call: py.Call) -> None:
    """`super().setUpClass()` in a method: the method of that name of the next class after
    the one whose method makes `call` (depth first, left to right: the file's bases and
    SGLang's fixture bases), or `Base.__init__(self, ...)` naming one of its bases, walked
    here with the class's values and the `cls.X` the method set so far (a subclass setting
    `cls.other_args` in its own setUpClass before the base's runs) and the call's arguments;
    the `self.X` it sets are the caller's after it (`super().__init__(port=port)`)."""
    owner = walker.owner
    if owner is None:
        return
    name = super_method(call)
    found = next_method(walker, name, call) if name is not None else None
    if name is None:
        found, call = _explicit(walker, owner, call)
    if owner is None or found is None or found.node in walker.active or walker.helper_budget.calls <= 0:
        return
    ancestors = _ancestors(owner, {info.name: info for info in walker.classes})
    walker.helper_budget.calls -= 1
    attrs: dict[str, Val] = {}
    for ancestor in reversed(ancestors):
        attrs.update(ancestor.body)
    attrs.update(owner.attrs)
    attrs.update({k: v for k, v in walker.env.items() if k.startswith("@self.")})
    view = ClassInfo(owner.name, attrs, {}, span=owner.span, bases=owner.bases, external=owner.external)
    for ancestor in ancestors:
        for method, helper in ancestor.methods.items():
            if method not in view.methods and helper.positions is not None:
                helper = Helper(helper.node, helper.outer, view, helper.positions, helper.imports)
            view.methods.setdefault(method, helper)
    view.methods.update(owner.methods)
    bound = _bound(walker, found, call)
    before = dict(view.attrs)
    saved = walker.env, walker.owner, walker.in_function, walker.active
    count = len(walker.result.launches)
    walker.active = walker.active | {found.node}
    try:
        walker.walk_function(
            Helper(found.node, found.outer, view, found.positions, found.imports), bound=bound
        )
    finally:
        walker.env, walker.owner, walker.in_function, walker.active = saved
        walker.stopped = False
    for key, value in view.attrs.items():  # `super().__init__(port=port)`: the `self.X` it set
        if found.positions is None and key.startswith("@self.") and value is not before.get(key):
            walker.env[key] = value
    if isinstance(found.positions, Borrowed):
        for launch in walker.result.launches[count:]:
            launch.fixture = found.positions.fixture


def _bound(walker: Walking, found: Helper, call: py.Call) -> dict[str, Val] | None:
    """The arguments `super().__init__(port=port, ...)` passes, evaluated where it is called
    (the parameters it leaves out: their defaults); None for a call without arguments (the
    next method's parameters stay unknown, as they were)."""
    from speclint.frontends.python.helpers import bind

    if not call.args or found.positions is not None:
        return None
    return bind(walker, found, call)


def _explicit(walker: Walking, owner: ClassInfo, call: py.Call) -> tuple[Helper | None, py.Call]:
    """`Base.__init__(self, port=port)` in a method of a class deriving from the file's `Base`:
    `Base`'s method of that name (its own or the one it inherits), and the call without `self`."""
    func, args = call.func, call.args
    if not (
        isinstance(func, py.Attribute)
        and isinstance(func.value, py.Name)
        and args
        and args[0].keyword is None
        and not args[0].star
        and isinstance(args[0].value, py.Name)
        and args[0].value.value in ("self", "cls")
    ):
        return None, call
    by_name = {info.name: info for info in walker.classes}
    base = next((a for a in _ancestors(owner, by_name) if a.name == func.value.value), None)
    if base is None:
        return None, call
    method = func.attr.value
    found = next((a.methods[method] for a in [base, *_ancestors(base, by_name)] if method in a.methods), None)
    return found, py.Call(call.range, call.outer, func, list(args[1:]))
