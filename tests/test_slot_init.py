"""`core.slot_init`: every frozen record with slots sets its fields through its slots' own
setters, and makes the objects the `__init__` `dataclasses` writes makes.

The records are found by importing every module of the package (none listed by hand); each
is compared with the class the standard library's `dataclasses` makes of its own source.
"""

from __future__ import annotations
import __future__

import ast
import copy
import dataclasses
import importlib
import inspect
import pickle
import pkgutil
import sys
import types
import typing
from pathlib import Path

import pytest

import speclint
from speclint.core import records, slot_init
from speclint.core.edits import Edit
from speclint.core.notes import Note
from speclint.core.spans import Span
from speclint.core.words import Word
from speclint.frontends.shell.pieces import Piece
from speclint.frontends.shell.variables import VarValue
from speclint.sglang.checkpoints.drafter import DrafterKind
from speclint.sglang.flags.launch_config import Setting

FUTURE = __future__.annotations.compiler_flag
MISSING = dataclasses.MISSING
SLOT_INIT = "__slot_init__.<locals>.__init__"
DATACLASSES_INIT = "__create_fn__.<locals>.__init__"


def made_by(init: typing.Any) -> str | None:
    """The qualified name of `init`'s code: `core.slot_init`'s or `dataclasses`'. Python 3.10's
    code has none: there a field set through `object.__setattr__` (dataclasses' name for it)
    tells dataclasses' code, one set through a slot's setter (`_set_<field>`) tells ours."""
    code = init.__code__
    qualname: str | None = getattr(code, "co_qualname", None)
    if qualname is not None:
        return qualname
    if "__dataclass_builtins_object__" in code.co_freevars:
        return DATACLASSES_INIT
    return SLOT_INIT if any(name.startswith("_set_") for name in code.co_freevars) else None


def frozen_slotted_records() -> list[type]:
    """Every frozen record class with slots that a module of speclint defines."""
    found = []
    for module_info in pkgutil.walk_packages(speclint.__path__, "speclint."):
        module = importlib.import_module(module_info.name)
        for value in vars(module).values():
            if isinstance(value, type) and value.__module__ == module.__name__:
                params = value.__dict__.get("__dataclass_params__")
                if params is not None and params.frozen and "__slots__" in value.__dict__:
                    found.append(value)
    return found


RECORDS = frozen_slotted_records()


def test_every_frozen_slotted_record_is_found():
    """The walk sees each one the source declares (and the most made ones among them)."""
    source = Path(speclint.__file__).parent
    declared = sum(
        1
        for path in source.rglob("*.py")
        for line in path.read_text().splitlines()
        if line.startswith("@dataclass(") and "frozen=True" in line and "slots=True" in line
    )
    assert len(RECORDS) == declared > 30
    assert {Note, Edit, DrafterKind} <= set(RECORDS)
    # value records: frozen for the type checker only (core.spans)
    assert not {Span, Word, Piece, VarValue, Setting} & set(RECORDS)


def dataclasses_twin(cls: type) -> type:
    """The class `dataclasses.dataclass` makes of `cls`'s own source (its `__init__` the one
    dataclasses writes), in a copy of its module's namespace."""
    module = sys.modules[cls.__module__]
    tree = ast.parse(Path(module.__file__).read_text())
    (node,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls.__name__]
    (decorator,) = node.decorator_list
    options = {k.arg: ast.literal_eval(k.value) for k in decorator.keywords}
    bare = ast.ClassDef(**{**vars(node), "decorator_list": []})
    code = compile(ast.Module(body=[bare], type_ignores=[]), module.__file__, "exec", flags=FUTURE)
    namespace = dict(vars(module))
    exec(code, namespace)
    return dataclasses.dataclass(**options)(namespace[cls.__name__])


def outcome(call, *args, **kwargs) -> tuple[str, object]:
    try:
        return "value", call(*args, **kwargs)
    except Exception as error:  # what a user would see, the same either way
        return type(error).__name__, str(error)


def sample(f: dataclasses.Field) -> object:
    """A value for field `f`, of its type where that is a plain one."""
    kind = str(f.type).split("[")[0]
    return {"tuple": (), "dict": {}, "bool": True, "int": 7, "float": 0.5}.get(kind, f"<{f.name}>")


def calls(cls: type) -> list[tuple[tuple[object, ...], dict[str, object]]]:
    """Arguments to make `cls` with: the required fields only, every field positionally, and
    every field by keyword."""
    fields = [f for f in dataclasses.fields(cls) if f.init]
    required = [f for f in fields if f.default is MISSING and f.default_factory is MISSING]
    return [
        (tuple(sample(f) for f in required), {}),
        (tuple(sample(f) for f in fields), {}),
        ((), {f.name: f"<{f.name}>" for f in fields}),
    ]


def same_objects(cls: type, twin: type) -> None:
    """`cls` and its dataclasses twin make the same objects from the same arguments, and the
    objects behave the same."""
    for args, kwargs in calls(cls):
        same_object(cls, twin, args, kwargs)


def same_object(cls: type, twin: type, args: tuple[object, ...], kwargs: dict[str, object]) -> None:
    names = [f.name for f in dataclasses.fields(cls)]
    made, expected = outcome(cls, *args, **kwargs), outcome(twin, *args, **kwargs)
    assert made[0] == expected[0] and (made[0] == "value" or made == expected), (args, kwargs)
    if made[0] != "value":
        return
    a, b = made[1], expected[1]
    assert type(a) is cls and not hasattr(a, "__dict__")
    for name in names:
        mine, theirs = outcome(getattr, a, name), outcome(getattr, b, name)
        assert mine[0] == theirs[0] and type(mine[1]) is type(theirs[1]) and mine[1] == theirs[1], name
    for value in (*args, *kwargs.values()):  # the objects given, not copies
        assert any(getattr(a, name, None) is value for name in names)
    assert outcome(repr, a) == outcome(repr, b)
    assert outcome(lambda: a == cls(*args, **kwargs)) == outcome(lambda: b == twin(*args, **kwargs))
    assert outcome(hash, a) == outcome(hash, b)
    if all(hasattr(a, name) for name in names):  # (a field neither given nor defaulted: unset)
        assert repr(a) == repr(b) and a == cls(*args, **kwargs)
        assert outcome(hash, a)[0] != "value" or hash(a) == hash(cls(*args, **kwargs))
        assert pickle.loads(pickle.dumps(a)) == a == copy.copy(a) == copy.deepcopy(a)
    for name in names:
        assert outcome(setattr, a, name, None)[0] == "FrozenInstanceError", name
        assert outcome(delattr, a, name)[0] == "FrozenInstanceError", name
    if names:
        change = {names[0]: getattr(a, names[0], None)}
        assert outcome(lambda: repr(dataclasses.replace(a, **change))) == outcome(
            lambda: repr(dataclasses.replace(b, **change))
        )


def sets_through_slots(cls: type) -> None:
    """`cls.__init__` is `core.slot_init`'s: every field set through a slot of the class (or
    of a base), the final class's own."""
    init = cls.__init__
    # (None: Python 3.10 and no field to set, where the two bodies are the same code)
    assert made_by(init) == SLOT_INIT or made_by(init) is None and not init.__code__.co_freevars
    shape = tuple(
        (f.name, f.init, 2 if f.default_factory is not MISSING else 0 if f.default is MISSING else 1)
        for f in dataclasses.fields(cls)
    )
    post_init = "__post_init__" in init.__code__.co_names
    compiled = slot_init._compile(init.__code__.co_varnames[0], post_init, shape)
    assert init.__code__ == compiled, "kept code of another body: bump slot_init._FORMAT"
    setters = {
        name[5:]: cell.cell_contents
        for name, cell in zip(init.__code__.co_freevars, init.__closure__ or ())
        if name.startswith("_set_")
    }
    for f in dataclasses.fields(cls):
        setter = setters.get(f.name)
        if setter is None:  # a field dataclasses' __init__ does not set: no init, no default
            assert not f.init and f.default is MISSING and f.default_factory is MISSING
            continue
        descriptor = setter.__self__
        assert isinstance(descriptor, types.MemberDescriptorType) and descriptor.__name__ == f.name
        assert descriptor.__objclass__ in cls.__mro__ and getattr(cls, f.name) is descriptor


def same_signature(cls: type, twin: type) -> None:
    assert inspect.signature(cls.__init__) == inspect.signature(twin.__init__)
    assert inspect.signature(cls) == inspect.signature(twin)
    for name in (
        "__defaults__",
        "__kwdefaults__",
        "__annotations__",
        "__qualname__",
        "__name__",
        "__module__",
        "__doc__",
    ):
        assert getattr(cls.__init__, name) == getattr(twin.__init__, name), name


@pytest.mark.parametrize("cls", RECORDS, ids=lambda cls: f"{cls.__module__}.{cls.__qualname__}")
def test_every_frozen_slotted_record_sets_its_slots_and_makes_what_dataclasses_makes(cls):
    twin = dataclasses_twin(cls)
    assert made_by(twin.__init__) == DATACLASSES_INIT
    sets_through_slots(cls)
    same_signature(cls, twin)
    same_objects(cls, twin)
    assert list(vars(cls)) == list(vars(twin))  # `__init__` in its place


@pytest.fixture
def codes(monkeypatch, tmp_path):
    """A fresh store, as a new process starts with it."""
    made = records._Codes()
    made.kept.path = str(tmp_path / "records.kept")
    monkeypatch.setattr(records, "_codes", made)
    return made


SHAPES = {
    "post init": (
        "a: int\n    b: int = 1\n    seen: tuple = field(init=False, default=())\n"
        "    def __post_init__(self):\n        object.__setattr__(self, 'seen', (self.a, self.b))\n"
    ),
    "factories": "a: list = field(default_factory=list)\n    b: dict = field(init=False, default_factory=dict)",
    "not in init": "a: int\n    b: int = field(init=False, default=5)\n    c: int = field(init=False)",
    "a field called self": "self: int\n    a: int = 1",
    "no fields": "",
    "a ClassVar (left to dataclasses, then given the faster __init__)": "a: int\n    b: ClassVar[int] = 3",
}


@pytest.fixture
def make_both(monkeypatch):
    """`make_both(body, bases, names)`: the class `records.dataclass` makes of `body`, and the
    one `dataclasses` makes, in a module of their own (where pickling finds the first)."""
    module = types.ModuleType("slot_init_shapes")  # where dataclasses looks names up
    monkeypatch.setitem(sys.modules, "slot_init_shapes", module)
    namespace = vars(module)
    namespace.update(field=dataclasses.field, ClassVar=typing.ClassVar, InitVar=dataclasses.InitVar)
    namespace.update(KW_ONLY=dataclasses.KW_ONLY)

    def make(body: str, bases: str = "", names: dict[str, object] | None = None) -> tuple[type, type]:
        namespace.update(names or {})
        made = []
        for decorator in (dataclasses.dataclass, records.dataclass):
            source = f'class Shape{bases}:\n    """A shape."""\n\n    {body or "pass"}\n'
            exec(compile(source, "<shape>", "exec", flags=FUTURE, dont_inherit=True), namespace)
            made.append(decorator(frozen=True, slots=True)(namespace["Shape"]))
        namespace["Shape"] = made[1]
        return made[1], made[0]

    return make


@pytest.mark.parametrize("body", SHAPES.values(), ids=SHAPES.keys())
def test_each_shape_first_made_and_from_the_kept_code_is_what_dataclasses_makes(body, codes, make_both):
    for attempt in ("first", "kept"):
        fresh = codes.fresh
        ours, theirs = make_both(body)
        assert attempt == "first" or codes.fresh == fresh  # nothing compiled again
        sets_through_slots(ours)
        same_signature(ours, theirs)
        same_objects(ours, theirs)


def test_the_post_init_is_called_once_after_the_fields_are_set(codes, make_both):
    body = "a: int\n    b: list = field(default_factory=list)\n    def __post_init__(self):\n        CALLS.append((self.a, self.b))\n"
    calls: list[object] = []
    ours, theirs = make_both(body, names={"CALLS": calls})
    ours(1)
    first = list(calls)
    calls.clear()
    theirs(1)
    assert first == calls == [(1, [])]


@pytest.mark.parametrize(
    ("body", "bases"),
    [
        ("c: int = 2", "(Base)"),  # the base's fields are the base's slots
        ("c: int = 2", "(Plain)"),  # the base's fields are not slots: object.__setattr__
    ],
    ids=["slotted base", "base without slots"],
)
def test_a_subclass_sets_its_bases_fields_as_dataclasses_does(body, bases, codes, make_both):

    @dataclasses.dataclass(frozen=True, slots=True)
    class Base:
        a: int
        b: str = "b"

    @dataclasses.dataclass(frozen=True)
    class Plain:
        a: int
        b: str = "b"

    ours, theirs = make_both(body, bases, {"Base": Base, "Plain": Plain})
    assert made_by(ours.__init__) == SLOT_INIT
    made, expected = ours(1, "x", 3), theirs(1, "x", 3)
    assert repr(made) == repr(expected) and (made.a, made.b, made.c) == (1, "x", 3)
    assert getattr(made, "__dict__", None) == getattr(expected, "__dict__", None)
    assert outcome(ours, 1, "x", 3, 4) == outcome(theirs, 1, "x", 3, 4)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.a = 2


@pytest.mark.parametrize(
    "body",
    [
        "a: int\n    b: InitVar[int] = 0\n    def __post_init__(self, b):\n        pass",
        "a: int\n    _: KW_ONLY\n    b: int = 1",
        "a: int\n    _set_a: int = 0",
        "a: int = 0\n    def __init__(self, a=0):\n        object.__setattr__(self, 'a', a)",
    ],
    ids=["InitVar", "keyword-only", "a field named like a setter", "its own __init__"],
)
def test_other_shapes_keep_the_init_dataclasses_writes(body, codes, make_both):
    ours, theirs = make_both(body)
    assert ours.__init__.__code__ == theirs.__init__.__code__
    same_signature(ours, theirs)
    assert repr(outcome(ours, 1)) == repr(outcome(theirs, 1))
