"""`core.recipes`: a record class made from a kept recipe is the class `dataclasses` makes.

Every dataclass speclint defines is made both ways from its own source and the two are
compared in everything a user or a library can see: the fields and their attributes, the
parameters, `__match_args__`, the slots, each generated function (code, defaults,
annotations, closure, names) and what the methods do on an instance (init, repr, eq, hash,
frozen assignment, replace, asdict, pickling, pattern matching).
"""

from __future__ import annotations
import __future__

import ast
import dataclasses
import importlib
import pickle
import sys
from pathlib import Path
from types import FunctionType

import pytest

from speclint.core import recipes, records, slot_init

pytestmark = pytest.mark.skipif(
    not recipes.served(), reason="recipes are served only on the Pythons they follow (recipes.served)"
)

SRC = Path(__file__).resolve().parent.parent / "src" / "speclint"
FUTURE = __future__.annotations.compiler_flag


def speclint_records() -> list[tuple[str, ast.ClassDef]]:
    """(module, class definition) of every `@dataclass` class in speclint's source."""
    found = []
    for path in sorted(SRC.rglob("*.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and any(_is_dataclass(d) for d in node.decorator_list):
                assert node in tree.body, f"{path}: {node.name} is not at the top of its module"
                module = ".".join(path.relative_to(SRC.parent).with_suffix("").parts)
                found.append((module.removesuffix(".__init__"), node))
    return found


def _is_dataclass(decorator: ast.expr) -> bool:
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    return isinstance(target, ast.Name) and target.id == "dataclass"


RECORDS = speclint_records()
NAMESPACES: dict[str, dict[str, object]] = {}


def raw_class(module_name: str, node: ast.ClassDef) -> tuple[type, dict[str, object]]:
    """The class as its module's `class` statement makes it, before the decorator, and the
    decorator's options."""
    module = importlib.import_module(module_name)
    (decorator,) = node.decorator_list
    options = (
        {k.arg: ast.literal_eval(k.value) for k in decorator.keywords}
        if isinstance(decorator, ast.Call)
        else {}
    )
    bare = ast.ClassDef(**{**vars(node), "decorator_list": []})
    code = compile(
        ast.Module(body=[bare], type_ignores=[]), module.__file__, "exec", flags=FUTURE, dont_inherit=True
    )
    namespace = NAMESPACES.setdefault(module_name, dict(vars(module)))  # one copy: same globals
    exec(code, namespace)
    made = namespace[node.name]
    namespace[node.name] = getattr(module, node.name)  # later classes see the module's own
    return made, options


@pytest.fixture
def codes(monkeypatch, tmp_path):
    """A fresh store, as a new process starts with it."""
    made = records._Codes()
    made.kept.path = str(tmp_path / "records.kept")
    monkeypatch.setattr(records, "_codes", made)
    return made


def both_ways(make_raw, codes) -> tuple[type, type, type, type]:
    """(theirs, ours, raw class of theirs, raw class of ours): `dataclasses` itself (the first
    class of a shape is made by it, its recipe kept), then from the recipe."""
    raw_theirs, options = make_raw()
    theirs = records.dataclass(**options)(raw_theirs)
    raw_ours, _ = make_raw()
    made = recipes.plan(raw_ours, options)
    assert made is not None, "not served from a recipe"
    assert codes.kept.get(made.key) is not None
    worked_out = codes.fresh
    ours = records.dataclass(**options)(raw_ours)
    assert codes.fresh == worked_out, "the recipe did not fit: made by dataclasses again"
    return theirs, ours, raw_theirs, raw_ours


@pytest.mark.parametrize(("module", "node"), RECORDS, ids=[f"{m}.{n.name}" for m, n in RECORDS])
def test_every_speclint_record_made_from_its_recipe_is_the_dataclass(module, node, codes, monkeypatch):
    theirs, ours, raw_theirs, raw_ours = both_ways(lambda: raw_class(module, node), codes)
    same_class(theirs, ours, {raw_theirs: raw_ours, theirs: ours})
    same_behaviour(theirs, ours, importlib.import_module(module), monkeypatch)


def test_every_speclint_record_is_found():
    """The walk above sees each `@dataclass` of the source (none nested, none missed)."""
    written = sum(path.read_text().count("\n@dataclass") for path in SRC.rglob("*.py"))
    assert len(RECORDS) == written and written > 80


def same_class(theirs: type, ours: type, pairs: dict[object, object]) -> None:
    for name in ("__name__", "__qualname__", "__module__", "__doc__", "__match_args__"):
        assert getattr(ours, name) == getattr(theirs, name), name
    assert ours.__bases__ == tuple(pairs.get(base, base) for base in theirs.__bases__)
    for name in ("__basicsize__", "__itemsize__", "__dictoffset__", "__weakrefoffset__", "__flags__"):
        assert getattr(ours, name) == getattr(theirs, name), name
    assert getattr(ours, "__slots__", None) == getattr(theirs, "__slots__", None)
    assert [type(c) for c in ours.__mro__] == [type(c) for c in theirs.__mro__]
    assert ours.__mro__[1:] == tuple(pairs.get(base, base) for base in theirs.__mro__[1:])
    assert repr(ours.__dataclass_params__) == repr(theirs.__dataclass_params__)
    assert list(vars(ours)) == list(vars(theirs))
    for name, value in vars(theirs).items():
        mine = vars(ours)[name]
        assert type(mine) is type(value), name
        if name == "__dataclass_fields__":
            same_fields(value, mine)
        elif name == "__dataclass_params__":
            continue
        elif isinstance(value, FunctionType):
            same_function(value, mine, pairs)
        elif isinstance(value, (staticmethod, classmethod)):
            same_function(value.__func__, mine.__func__, pairs)
        elif isinstance(value, property):
            for part in ("fget", "fset", "fdel"):
                if getattr(value, part) is not None:
                    same_function(getattr(value, part), getattr(mine, part), pairs)
        elif type(value).__name__ in ("member_descriptor", "getset_descriptor"):
            assert mine.__name__ == value.__name__ and mine.__objclass__ is ours
        elif hasattr(value, "__set_name__") and hasattr(value, "func"):  # functools.cached_property
            same_function(value.func, mine.func, pairs)
        else:
            assert mine == value, name


def same_fields(theirs: dict[str, dataclasses.Field], ours: dict[str, dataclasses.Field]) -> None:
    assert list(ours) == list(theirs)
    for name, field in theirs.items():
        mine = ours[name]
        assert type(mine) is type(field)
        for attribute in dataclasses.Field.__slots__:
            a, b = getattr(field, attribute), getattr(mine, attribute)
            assert type(a) is type(b) and a == b, (name, attribute)
            if callable(a) or a is dataclasses.MISSING:
                assert a is b, (name, attribute)


def same_function(theirs: FunctionType, ours: FunctionType, pairs: dict[object, object]) -> None:
    assert type(ours) is type(theirs)
    for name in ("__code__", "__defaults__", "__kwdefaults__", "__annotations__", "__qualname__"):
        assert getattr(ours, name) == getattr(theirs, name), name
    for name in ("__name__", "__module__", "__doc__", "__type_params__"):
        assert getattr(ours, name, None) == getattr(theirs, name, None), name
    assert ours.__globals__ is theirs.__globals__ and ours.__builtins__ is theirs.__builtins__
    assert list(vars(ours)) == list(vars(theirs))
    if "__wrapped__" in vars(theirs):  # the generated __repr__ inside its recursion guard
        same_function(theirs.__wrapped__, ours.__wrapped__, pairs)
    theirs_cells = [cell.cell_contents for cell in theirs.__closure__ or ()]
    ours_cells = [cell.cell_contents for cell in ours.__closure__ or ()]
    assert len(ours_cells) == len(theirs_cells)
    for a, b in zip(theirs_cells, ours_cells):
        if isinstance(a, FunctionType):
            same_function(a, b, pairs)
        elif isinstance(a, type) and a in pairs:  # the class itself (a frozen class's __setattr__)
            assert b is pairs[a]
        elif type(a) is type(object().__str__):  # a slot's `__set__` (`core.slot_init`)
            assert type(b) is type(a) and b.__name__ == a.__name__ == "__set__"
            assert b.__self__.__name__ == a.__self__.__name__
            assert b.__self__.__objclass__ is pairs.get(a.__self__.__objclass__, a.__self__.__objclass__)
        else:
            assert b is a or (type(b) is type(a) and b == a)


def dataclasses_made(**options: bool):
    """The class `dataclasses` makes, and then for a frozen class with slots its fields set
    through its slots (`core.slot_init`, tested against dataclasses' own in test_slot_init.py):
    what `records.dataclass` makes however it makes it."""

    def decorate(raw: type) -> type:
        made = dataclasses.dataclass(**options)(raw)
        if options.get("frozen") and options.get("slots"):
            slot_init.install(made, None)
        return made

    return decorate


def outcome(call, *args, **kwargs) -> tuple[str, object]:
    try:
        return "value", call(*args, **kwargs)
    except Exception as error:  # what a user would see, the same either way
        return type(error).__name__, str(error).replace(" at 0x", "@")


def same_behaviour(theirs: type, ours: type, module, monkeypatch) -> None:
    """The generated methods do the same on instances made with the same arguments."""
    fields = [f for f in dataclasses.fields(theirs) if f.init]
    required = [
        f for f in fields if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    ]
    samples = [(f"<{f.name}>",) for f in required]
    args = [sample[0] for sample in samples]
    made = outcome(theirs, *args)
    mine = outcome(ours, *args)
    assert mine[0] == made[0]
    if made[0] != "value":
        assert mine == made
        return
    a, b = made[1], mine[1]
    assert type(b) is ours
    assert repr(b) == repr(a)
    assert outcome(lambda: b == ours(*args)) == outcome(lambda: a == theirs(*args))
    assert outcome(lambda: b == object()) == outcome(lambda: a == object())
    assert outcome(hash, b) == outcome(hash, a)
    for f in dataclasses.fields(theirs):
        assert outcome(setattr, b, f.name, "<changed>")[0] == outcome(setattr, a, f.name, "<changed>")[0]
        assert outcome(delattr, b, f.name)[0] == outcome(delattr, a, f.name)[0]
    b, a = ours(*args), theirs(*args)
    assert outcome(setattr, b, "not_a_field", 1)[0] == outcome(setattr, a, "not_a_field", 1)[0]
    assert outcome(lambda: repr(b)) == outcome(lambda: repr(a))
    if fields:
        change = {fields[0].name: "<replaced>"}
        assert outcome(lambda: repr(dataclasses.replace(b, **change))) == outcome(
            lambda: repr(dataclasses.replace(a, **change))
        )
    assert outcome(dataclasses.asdict, b) == outcome(dataclasses.asdict, a)
    assert outcome(dataclasses.astuple, b) == outcome(dataclasses.astuple, a)
    assert outcome(matched, ours, b) == outcome(matched, theirs, a)
    for cls, instance in ((theirs, a), (ours, b)):
        monkeypatch.setattr(module, cls.__name__, cls)
        copied = pickle.loads(pickle.dumps(instance))
        assert type(copied) is cls and repr(copied) == repr(instance)


def made_repr(cls: type, *args: object) -> str:
    return repr(cls(*args))


def matched(cls: type, instance: object) -> object:
    """What a class pattern with every positional field captures."""
    names = ", ".join(f"f{i}" for i in range(len(cls.__match_args__)))
    namespace: dict[str, object] = {"C": cls, "instance": instance}
    exec(
        f"match instance:\n    case C({names}):\n        result = [{names}]\n    case _:\n        result = None",
        namespace,
    )
    return namespace["result"]


SHAPES = {
    "first": "a: int\n    b: int = 1",
    "a new field": "a: int\n    b: int = 1\n    c: str = 'c'",
    "another default": "a: int\n    b: int = 2",
    "a default factory": "a: int\n    b: list[int] = field(default_factory=list)",
    "no default": "a: int\n    b: int",
    "not in repr": "a: int\n    b: int = field(default=1, repr=False)",
    "not compared": "a: int\n    b: int = field(default=1, compare=False)",
    "not in init": "a: int\n    b: int = field(default=1, init=False)",
    "hashed apart": "a: int = field(hash=False)\n    b: int = 1",
    "renamed": "a: int\n    bb: int = 1",
    "reordered": "b: int\n    a: int = 1",
    "a field called self": "self: int\n    a: int = 1",
}


@pytest.mark.parametrize(
    "options",
    [
        {"frozen": True, "slots": True},
        {"slots": True},
        {},
        {"frozen": True},
        {"frozen": True, "slots": True, "init": False},
    ],
)
def test_a_changed_class_is_never_served_a_stale_recipe(options, codes, tmp_path):
    """One store across the versions of a class (each one a new process, as after an edit):
    each version is the class `dataclasses` makes of it."""
    store = codes.kept.path
    for name, body in SHAPES.items():
        source = f'class Thing:\n    """A thing."""\n\n    {body}\n'
        namespace = {"__name__": __name__, "field": dataclasses.field}

        def make_raw(source=source, namespace=namespace):
            exec(compile(source, "<shape>", "exec", flags=FUTURE, dont_inherit=True), namespace)
            return namespace["Thing"], options

        theirs_raw, _ = make_raw()
        theirs = dataclasses_made(**options)(theirs_raw)
        ours_raw, _ = make_raw()
        ours = records.dataclass(**options)(ours_raw)
        same_class(theirs, ours, {theirs_raw: ours_raw, theirs: ours})
        assert outcome(made_repr, ours, 5) == outcome(made_repr, theirs, 5), name
        assert outcome(made_repr, ours, 5, 6) == outcome(made_repr, theirs, 5, 6), name
        again_raw, _ = make_raw()
        worked_out = codes.fresh
        again = records.dataclass(**options)(again_raw)  # now from the recipe
        assert codes.fresh == worked_out, name
        same_class(theirs, again, {theirs_raw: again_raw, theirs: again})
        codes.kept.save()
        codes = records._Codes()
        codes.kept.path = store
        records._codes = codes


@pytest.mark.parametrize(
    "definition",
    [
        "x: int\n    y: ClassVar[int] = 1",
        "x: InitVar[int]\n    y: int = 1",
        "x: int\n    _: KW_ONLY\n    y: int = 1",
        "x: int = field(kw_only=True)",
        "x: int\n    def __repr__(self):\n        return 'mine'",
        "x: int\n    def __eq__(self, other):\n        return True",
        "x: int\n    y: list = []",
    ],
    ids=["ClassVar", "InitVar", "KW_ONLY", "kw_only field", "own __repr__", "own __eq__", "mutable default"],
)
def test_unusual_classes_are_left_to_dataclasses(definition, codes, monkeypatch):
    import types
    import typing

    module = types.ModuleType("odd_records")  # where dataclasses looks names up: the class's module
    monkeypatch.setitem(sys.modules, "odd_records", module)
    namespace = vars(module)
    namespace.update(
        field=dataclasses.field,
        ClassVar=typing.ClassVar,
        InitVar=dataclasses.InitVar,
        KW_ONLY=dataclasses.KW_ONLY,
    )
    source = f'class Odd:\n    """Odd."""\n\n    {definition}\n'
    exec(compile(source, "<odd>", "exec", flags=FUTURE, dont_inherit=True), namespace)
    odd = namespace["Odd"]
    assert recipes.plan(odd, {"frozen": True}) is None
    exec(compile(source, "<odd>", "exec", flags=FUTURE, dont_inherit=True), namespace)
    raw = namespace["Odd"]
    theirs = outcome(dataclasses.dataclass(frozen=True), raw)
    ours = outcome(records.dataclass(frozen=True), odd)
    assert ours[0] == theirs[0]
    if ours[0] == "value":
        same_class(theirs[1], ours[1], {raw: odd, theirs[1]: ours[1]})


def test_a_class_without_a_docstring_or_on_another_python_or_dataclasses_is_left_to_it(monkeypatch):
    class Bare:
        x: int

    Bare.__annotations__ = {"x": "int"}
    assert recipes.plan(Bare, {}) is None
    Bare.__doc__ = "Documented."
    assert recipes.plan(Bare, {}) is not None
    monkeypatch.setattr(recipes, "_HELPERS", False)  # a dataclasses without its 3.11 helpers
    assert recipes.plan(Bare, {}) is None
    monkeypatch.setattr(recipes, "_HELPERS", True)
    monkeypatch.setattr(sys, "version_info", (3, 14, 0))
    assert recipes.plan(Bare, {}) is None


def test_a_subclass_is_never_served_a_recipe_made_for_other_base_fields(codes):
    """The key holds the fields a class inherits: a base that changes makes the subclass
    another shape (one store across the versions), and each is the class `dataclasses`
    makes, once its recipe is kept too."""
    child = 'class Child(Base):\n    """A child."""\n\n    c: int = 2\n'
    for base_body in ("a: int", "a: int = 0", "a: int\n    b: str = 'b'", "b: str = 'b'"):
        source = f'class Base:\n    """A base."""\n\n    {base_body}\n'
        for flags in ({"frozen": True, "slots": True}, {"slots": True}):
            made = {}
            for way in ("theirs", "first", "kept"):
                decorator = (dataclasses_made if way == "theirs" else records.dataclass)(**flags)
                namespace = {"__name__": __name__, "field": dataclasses.field}
                exec(compile(source, "<base>", "exec", flags=FUTURE, dont_inherit=True), namespace)
                namespace["Base"] = base = decorator(namespace["Base"])
                exec(compile(child, "<child>", "exec", flags=FUTURE, dont_inherit=True), namespace)
                raw = namespace["Child"]
                worked_out = codes.fresh
                made[way] = (raw, base, decorator(raw))
                if way == "kept":
                    assert codes.fresh == worked_out, base_body  # from the recipe
            (raw_theirs, base_theirs, theirs), (raw_ours, base_ours, ours) = made["theirs"], made["kept"]
            same_class(theirs, ours, {raw_theirs: raw_ours, theirs: ours, base_theirs: base_ours})
            assert outcome(made_repr, ours, 1) == outcome(made_repr, theirs, 1)
            assert outcome(made_repr, ours, 1, "x", 3) == outcome(made_repr, theirs, 1, "x", 3)


def test_a_class_with_its_own_init_is_served_with_init_false(codes):
    """`init=False` and the class's own `__init__`:
    made from the recipe, the class `dataclasses` makes, its `__init__` the class's own."""
    source = (
        'class Own:\n    """Own."""\n\n    a: int\n    b: int = 1\n\n'
        "    def __init__(self, a, b=1):\n        object.__setattr__(self, 'a', a)\n"
        "        object.__setattr__(self, 'b', b)\n"
    )
    options = {"frozen": True, "slots": True, "init": False}
    made = {}
    namespace = {"__name__": __name__}  # one: the class's own __init__ has the same globals
    for way in ("theirs", "first", "kept"):
        exec(compile(source, "<own>", "exec", flags=FUTURE, dont_inherit=True), namespace)
        raw = namespace["Own"]
        assert recipes.plan(raw, options) is not None  # served from a recipe
        decorator = (dataclasses_made if way == "theirs" else records.dataclass)(**options)
        worked_out = codes.fresh
        made[way] = (raw, decorator(raw))
        assert way != "kept" or codes.fresh == worked_out  # from the recipe
    (raw_theirs, theirs), (raw_ours, ours) = made["theirs"], made["kept"]
    same_class(theirs, ours, {raw_theirs: raw_ours, theirs: ours})
    assert repr(ours(5)) == repr(theirs(5)) == "Own(a=5, b=1)"
    assert outcome(made_repr, ours, 5, 6) == outcome(made_repr, theirs, 5, 6)
