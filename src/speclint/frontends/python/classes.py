"""Classes of the file: `self.X` / `cls.X` across methods, and launches a subclass inherits.

SGLang's own tests (and suites built like them) launch in a base class's `setUpClass` with
`other_args=cls.other_args`, and each subclass sets `other_args` (and `model`) in its body.
The base's launch is then read once more per subclass of the same file, with the subclass's
values; the base's own reading and the subclasses' become alternatives of that launch
("when the class is TestMTP (line 40)"), so a finding they share is reported once. Bounded
by MAX_INHERITED_WALKS method walks a file.
"""

from __future__ import annotations

from collections import ChainMap

import libcst as cst

from speclint.core.launches import MAX_ALTERNATIVES, Alternative, Condition
from speclint.frontends.python.fixtures import Borrowed, base_key, fixture_bases
from speclint.frontends.python.scan import merge_envs
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


def class_body(walker: Walking, node: cst.ClassDef) -> None:
    """The class body's names become `self.X` values of its methods; setUp-like methods
    are walked first, since they set what the others read."""
    saved, owner, count = walker.env, walker.owner, len(walker.deferred)
    functions = dict(walker.functions)
    name = walker.pos.span(node.name)
    external = fixture_bases(walker, node)  # SGLang's test fixtures it derives from
    bases = [
        arg.value.value if isinstance(arg.value, cst.Name) else base_key(arg.value)
        for arg in node.bases
        if isinstance(arg.value, cst.Name) or (external and base_key(arg.value) in external)
    ]
    walker.owner = info = ClassInfo(node.name.value, span=name, bases=bases, external=external)
    walker.env = scope = ChainMap({}, saved)
    walker.block(node.body.body)  # leaves walker.env as it found it
    info.body = {"@self." + k: v for k, v in scope.maps[0].items()}
    info.attrs.update(info.body)
    info.methods = {n: h for n, h in walker.functions.items() if h.owner is info}
    walker.functions = functions  # methods are called as self.name(), not by their name
    mine = walker.deferred[count:]
    walker.deferred[count:] = sorted(mine, key=lambda h: h.node.name.value not in SETUP_METHODS)
    walker.env, walker.owner = saved, owner
    walker.classes.append(info)


def keep_attributes(owner: ClassInfo, written: Mapping[str, Val], ev: Evaluator) -> None:
    """The `self.X` a method set, for the methods walked after it (set differently by two
    methods: unknown)."""
    for key in [k for k in written if k.startswith("@self.")]:
        if key in owner.attrs:
            owner.attrs.update(merge_envs({}, [written, owner.attrs], ev, {key}))
        else:
            owner.attrs[key] = written[key]


def _ancestors(info: ClassInfo, by_name: dict[str, ClassInfo]) -> list[ClassInfo]:
    """The classes `info` derives from, nearest first (depth first, left to right): the
    file's, and those read from SGLang's fixtures (`fixtures`; their bases among their own)."""
    found: list[ClassInfo] = []
    stack = [(name, info) for name in reversed(info.bases)]
    while stack:
        name, child = stack.pop()
        base = child.external.get(name)
        if base is None and child.fixture is None:
            base = by_name.get(name)
        if base is None or base is info or base in found:
            continue
        found.append(base)
        stack.extend((grand, base) for grand in reversed(base.bases))
    return found


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
            if budget <= 0:
                return _mark(walker, groups)
            budget -= 1
            count = len(walker.result.launches)
            walker.walk_function(Helper(helper.node, helper.outer, view, helper.positions, helper.imports))
            for launch in walker.result.launches[count:]:
                if isinstance(helper.positions, Borrowed):
                    launch.fixture = helper.positions.fixture
                groups.setdefault(launch.span, []).append((info, [launch]))
    _mark(walker, groups)


def _mark(walker: Walking, groups: dict[Span, list[tuple[ClassInfo, list[Launch]]]]) -> None:
    for span, members in groups.items():
        base = [
            launch
            for launch in walker.result.launches
            if launch.span == span and walker.launch_owner.get(id(launch)) is not None
        ]
        everyone = [(walker.launch_owner[id(launch)], launch) for launch in base] + [
            (info, launch) for info, launches in members for launch in launches
        ]
        if len(everyone) > MAX_ALTERNATIVES or any(launch.alternative is not None for _, launch in everyone):
            continue
        if len(everyone) == 1 and everyone[0][1].fixture is not None:
            continue  # one class of the file makes it: no alternative to name  # already alternatives of `if` arms, or too many: each stays a launch of its own
        for index, (info, launch) in enumerate(everyone):
            where = info.span or span
            condition = Condition(where, f"the class is {info.name} (line {where.line})")
            launch.alternative = Alternative((condition,), index, len(everyone))


def walk_super(walker: Walking, name: str) -> None:
    """`super().setUpClass()` in a method of a class deriving from one of SGLang's fixture
    bases: the base's method, walked here with the class's values and the `cls.X` the method
    set so far (the first such base defining it; bases of the file are not followed here)."""
    owner = walker.owner
    if owner is None:
        return
    ancestors = _ancestors(owner, {info.name: info for info in walker.classes})
    found = next(
        (a.methods[name] for a in ancestors if a.fixture is not None and name in a.methods),
        None,
    )
    if found is None or found.node in walker.active or walker.helper_budget.calls <= 0:
        return
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
                view.methods[method] = Helper(
                    helper.node, helper.outer, view, helper.positions, helper.imports
                )
    view.methods.update(owner.methods)
    saved = walker.env, walker.owner, walker.in_function, walker.active
    count = len(walker.result.launches)
    walker.active = walker.active | {found.node}
    try:
        walker.walk_function(Helper(found.node, found.outer, view, found.positions, found.imports))
    finally:
        walker.env, walker.owner, walker.in_function, walker.active = saved
        walker.stopped = False
    if isinstance(found.positions, Borrowed):
        for launch in walker.result.launches[count:]:
            launch.fixture = found.positions.fixture
