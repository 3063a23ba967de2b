"""A record class made from a kept recipe: what `dataclasses.dataclass` makes of a class, built
without generating and compiling its methods' text (`core.records`).

Why: even with its compiled code kept, `dataclasses` writes each method's text, then execs a
function that makes the method, for every class at every start (~60 classes on a shell lint's
path, ~12 ms of a cold run). A method's code depends only on the shape of the class: the
decorator's options, whether `__post_init__` exists, and per field (its bases' first, in
order) its name, whether it has a default or a default factory, and its `init`, `repr`,
`compare` and `hash` flags. That shape is the key of a recipe: the code objects of the
methods `dataclasses` made for it. Everything else (field types, default values, factories,
metadata, the class) is read from the class at each start, as `dataclasses` reads it. A class
of another shape is another key: a recipe cannot go stale.

`build` follows `dataclasses._process_class` of Python 3.11 (verified on 3.11.7,
tests/test_record_recipes.py builds every speclint record both ways and compares them), and
uses its private helpers where they are exact as they are (`_MODULE_IDENTIFIER_RE` as
`_is_type` uses it, `_recursive_repr`, `_add_slots`: a `dataclasses` without one of them
is left to make its classes itself). It serves only plain classes; anything else gives None and the caller uses
`dataclasses` itself: another Python version, options other than `init`, `frozen`, `slots`
and `order`, a field that is a `ClassVar`, `InitVar` or keyword-only, a `KW_ONLY` marker, a
class that defines a method `dataclasses` would make (its own `__init__` with `init=False`
is fine), no docstring (`dataclasses` then
works out a signature), or anything `dataclasses` would reject.
"""

from __future__ import annotations

import abc
import dataclasses
import sys
from types import CellType, CodeType, FunctionType, MemberDescriptorType

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    _dc: Any
_dc = dataclasses
"""Typed loosely: its private helpers are used as they are on 3.11 (`plan` serves no other)."""

_HELPERS = all(
    hasattr(dataclasses, name)
    for name in (
        "_FIELD _HAS_DEFAULT_FACTORY _MODULE_IDENTIFIER_RE _DataclassParams _recursive_repr "
        "_get_slots _dataclass_getstate _dataclass_setstate"
    ).split()
)
"""The private names `build` uses are there (3.11 has them all)."""

_FORMAT = 1
"""Part of every key: a new layout of recipes is a new key."""

_OPTIONS = tuple(
    zip(
        "init repr eq order unsafe_hash frozen match_args kw_only slots weakref_slot".split(),
        (True, True, True, False, False, False, True, False, False, False),
    )
)
"""`dataclasses.dataclass`'s options and their defaults, in its order."""

_FREE = frozenset(("init", "order", "frozen", "slots"))
"""The options a recipe serves at any value; the others only at their default."""

_MADE = (
    "__init__ __repr__ __eq__ __lt__ __le__ __gt__ __ge__ __setattr__ __delattr__ __hash__ "
    "__match_args__ __slots__ __getstate__ __setstate__ __dataclass_fields__ __dataclass_params__"
).split()
"""What `dataclasses` may add: a class that defines one itself is left to `dataclasses`."""

_MATCH_ARGS = "__match_args__"  # (typing says a class's own is read-only)

_ORDER = (("__lt__", "<"), ("__le__", "<="), ("__gt__", ">"), ("__ge__", ">="))


class Plan:
    """What `dataclasses` would read from a class, and the key of its recipe."""

    __slots__ = ("cls", "params", "fields", "own", "key", "post_init")

    def __init__(self, cls: type, params: dict[str, bool], fields: dict[str, Any], own: list[Any]):
        self.cls = cls
        self.params = params
        self.fields = fields
        """name -> a base's Field, or (type, default or Field) for the class's own fields."""
        self.own = own
        self.post_init = _attribute(cls, "__post_init__", self) is not self
        self.key: tuple[Any, ...] = ()


def plan(cls: type, options: dict[str, Any]) -> Plan | None:
    """The plan for making `cls` a dataclass with `options`, or None for `dataclasses` itself."""
    if sys.version_info[:2] != (3, 11) or not _HELPERS:
        return None
    params = dict(_OPTIONS)
    for name, value in options.items():
        if name not in params or type(value) is not bool:
            return None
        params[name] = value
    for name, default in _OPTIONS:
        if name not in _FREE and params[name] is not default:
            return None
    try:
        return _plan(cls, params)
    except Exception:  # dataclasses itself says what is wrong
        return None


def _plan(cls: type, params: dict[str, bool]) -> Plan | None:
    dc = _dc
    namespace = cls.__dict__
    if cls.__module__ not in sys.modules or not cls.__doc__:
        return None
    for name in _MADE:
        if name in namespace and (name != "__init__" or params["init"]):
            return None  # (with init=False the class's own __init__ is left as it is)
    Field, MISSING, FIELD = dc.Field, dc.MISSING, dc._FIELD
    fields: dict[str, Any] = {}
    any_frozen_base = has_dataclass_bases = False
    base: Any
    for base in cls.__mro__[-1:0:-1]:
        base_fields = _attribute(base, "__dataclass_fields__", None)
        if base_fields is not None:
            has_dataclass_bases = True
            for f in base_fields.values():
                if f._field_type is not FIELD or f.kw_only is not False:
                    return None
                fields[f.name] = f
            if base.__dataclass_params__.frozen:
                any_frozen_base = True
    if has_dataclass_bases and any_frozen_base is not params["frozen"]:
        return None
    annotations = namespace.get("__annotations__", {})
    typing = sys.modules.get("typing")
    special = _special(dc, typing)
    module_globals = sys.modules[cls.__module__].__dict__
    own = []
    for name, annotation in annotations.items():
        if type(annotation) is not str:
            return None
        # `_is_type`'s test for KW_ONLY, ClassVar and InitVar, once for all three: the name
        # the annotation starts with, looked up in the class's module (or a module it names)
        words = _FIRST_WORDS.get(annotation, _ABSENT)
        if words is _ABSENT:
            found = dc._MODULE_IDENTIFIER_RE.match(annotation)
            words = _FIRST_WORDS[annotation] = None if found is None else found.groups()
        if words is not None:
            module_name, word = words
            if module_name is None:
                if special(module_globals.get(word)):
                    return None
            elif module_globals.get(module_name) in (dc, typing):
                return None  # `dataclasses.InitVar`, `typing.ClassVar`...: dataclasses decides
        default = _attribute(cls, name, MISSING)
        if isinstance(default, Field):
            if name not in namespace or default.kw_only not in (MISSING, False):
                return None
            value = default.default
        else:
            if isinstance(default, MemberDescriptorType):
                default = MISSING
            value = default
        if value.__class__.__hash__ is None:  # a mutable default: dataclasses refuses it
            return None
        fields[name] = (annotation, default)
        own.append(name)
    for name, value in namespace.items():
        if isinstance(value, Field) and name not in annotations:
            return None
    made = Plan(cls, params, fields, own)
    shape = []
    seen_default = False
    for name, f in fields.items():
        if type(f) is tuple:
            f = f[1] if isinstance(f[1], Field) else None
        if f is None:  # a plain default, or none
            default = fields[name][1]
            flags: tuple[Any, ...] = (0 if default is MISSING else 1, True, True, True, None)
        else:
            flags = (
                2 if f.default_factory is not MISSING else 0 if f.default is MISSING else 1,
                f.init,
                f.repr,
                f.compare,
                f.hash,
            )
            if any(type(flag) is not bool for flag in flags[1:4]) or flags[4] not in (None, True, False):
                return None
        if flags[1] and params["init"]:  # `__init__` refuses a field without a default after one with one
            if flags[0]:
                seen_default = True
            elif seen_default:
                return None
        shape.append((name, *flags))
    made.key = ("recipe", _FORMAT, tuple(params.values()), made.post_init, tuple(shape))
    return made


_FIRST_WORDS: dict[str, Any] = {}
"""An annotation's text -> `_MODULE_IDENTIFIER_RE`'s groups for it (None: no match): records
repeat the same few annotations (`str`, `int | None`...)."""

_ABSENT: Any = object()

_TYPE_NAMES = frozenset(type.__dict__) | frozenset(object.__dict__)
"""What `getattr` finds on any class whose bases are `object` alone (besides its own names)."""


def _attribute(cls: type, name: str, missing: Any) -> Any:
    """`getattr(cls, name, missing)`, without the AttributeError Python 3.11 makes (its
    message included) for each name a class lacks: most fields have no default."""
    if type(cls) is type and len(cls.__mro__) == 2:  # (the class, object)
        if name not in cls.__dict__ and name not in _TYPE_NAMES:
            return missing
    elif type(cls) is type:
        for klass in cls.__mro__:
            if name in klass.__dict__:
                break
        else:
            if name not in type.__dict__:  # (`object` is in the class's own __mro__)
                return missing
    return getattr(cls, name, missing)


def _special(dc: Any, typing: Any) -> Any:
    """A test for what `_is_type` finds special: KW_ONLY, InitVar, ClassVar (when `typing` is
    imported: before, nothing is a ClassVar), or a generic alias (perhaps of ClassVar)."""
    kw_only, initvar = dc.KW_ONLY, dc.InitVar
    classvar = typing.ClassVar if typing else initvar
    alias = typing._GenericAlias if typing else initvar

    def special(value: object) -> bool:
        if value is None:
            return False
        kind = type(value)
        return value is kw_only or value is initvar or kind is initvar or value is classvar or kind is alias

    return special


def recipe_of(made: type, key_plan: Plan) -> tuple[tuple[str, CodeType], ...] | None:
    """The code of the methods `dataclasses` made for a class of `key_plan`'s shape."""
    recipe = []
    for name in _methods(key_plan.params):
        function = made.__dict__.get(name)
        if name == "__repr__":
            function = getattr(function, "__wrapped__", None)
        code = getattr(function, "__code__", None)
        if code is None or code.co_qualname != f"__create_fn__.<locals>.{name}":
            return None
        recipe.append((name, code))
    return tuple(recipe)


def _methods(params: dict[str, bool]) -> list[str]:
    names = ["__init__", "__repr__", "__eq__"] if params["init"] else ["__repr__", "__eq__"]
    if params["order"]:
        names += [name for name, _ in _ORDER]
    if params["frozen"]:
        names += ["__setattr__", "__delattr__", "__hash__"]
    return names


def build(made: Plan, recipe: Any) -> type | None:
    """The class made a dataclass as `dataclasses` makes it, its methods from `recipe`'s code
    (as `recipe_of` gives it); None, the class untouched, when the recipe does not fit."""
    dc = _dc
    names = _methods(made.params)
    if type(recipe) is not tuple or len(recipe) != len(names):
        return None
    codes = {}
    for name, entry in zip(names, recipe):
        if type(entry) is not tuple or len(entry) != 2 or entry[0] != name:
            return None
        if type(entry[1]) is not CodeType or entry[1].co_name != name:
            return None
        codes[name] = entry[1]
    cls: Any = made.cls
    params = made.params
    frozen, slots = params["frozen"], params["slots"]
    MISSING, Field = dc.MISSING, dc.Field
    globals = sys.modules[cls.__module__].__dict__

    # The fields as `_get_field` makes them (a Field given in the class is completed).
    fields = dict(made.fields)
    for name in made.own:
        annotation, default = fields[name]
        # (`dataclasses.field(default=default)`, without the call that checks its arguments)
        f = (
            default
            if isinstance(default, Field)
            else Field(default, MISSING, True, True, None, True, None, MISSING)
        )
        f.name = name
        f.type = annotation
        f._field_type = dc._FIELD
        if f.kw_only is MISSING:
            f.kw_only = False
        fields[name] = f
    field_list = list(fields.values())
    init_fields = [f for f in field_list if f.init]

    # The values `_init_fn` and `_field_init` give the function that makes `__init__`: only
    # those its code's free names ask for are looked up (`_type_x` of every field is not one).
    shared = {"MISSING": MISSING, "_HAS_DEFAULT_FACTORY": dc._HAS_DEFAULT_FACTORY}
    shared["__dataclass_builtins_object__"] = object

    def init_value(free: str) -> Any:
        if free in shared:
            return shared[free]
        if free.startswith("_type_"):
            return fields[free[6:]].type
        if free.startswith("_dflt_"):
            f = fields[free[6:]]
            if f.default_factory is not MISSING:
                return f.default_factory
            if f.default is not MISSING and (f.init or slots):
                return f.default
        raise KeyError(free)

    defaults = []
    for f in init_fields:
        if f.default is not MISSING:
            defaults.append(f.default)
        elif f.default_factory is not MISSING:
            defaults.append(dc._HAS_DEFAULT_FACTORY)
    annotations: dict[str, Any] = {f.name: f.type for f in init_fields}
    annotations["return"] = None
    frozen_values = {"cls": cls, "FrozenInstanceError": dc.FrozenInstanceError}

    def function(name: str, values: Callable[[str], Any], defaults: tuple[Any, ...] | None = None) -> Any:
        """What `_create_fn` returns: the inner function, each free name bound to `values(name)`."""
        code = codes[name]
        closure = tuple(CellType(values(free)) for free in code.co_freevars)
        return FunctionType(code, globals, None, defaults, closure or None)

    try:
        methods = []
        if params["init"]:
            init = function("__init__", init_value, tuple(defaults) or None)
            init.__annotations__ = annotations
            methods.append(("__init__", init))
        no_values: dict[str, Any] = {}
        none = no_values.__getitem__
        methods.append(("__repr__", dc._recursive_repr(function("__repr__", none))))
        methods.append(("__eq__", function("__eq__", none)))
        if params["order"]:
            methods += [(name, function(name, none)) for name, _ in _ORDER]
        if frozen:
            frozen_value = frozen_values.__getitem__
            methods += [(name, function(name, frozen_value)) for name in ("__setattr__", "__delattr__")]
            methods.append(("__hash__", function("__hash__", none)))
    except (KeyError, TypeError, ValueError):  # kept for another shape: not used
        return None

    dataclass_params = dc._DataclassParams(params["init"], True, True, params["order"], False, frozen)
    if slots:
        return _slotted(made, fields, methods, dataclass_params)

    # From here on what `_process_class` does, in its order.
    cls.__dataclass_params__ = dataclass_params
    for name in made.own:
        f = fields[name]
        if isinstance(made.fields[name][1], dc.Field):  # the class's attribute (`_plan`)
            if f.default is MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, f.default)
    cls.__dataclass_fields__ = fields
    qualname = cls.__qualname__
    for name, method in methods:  # `__hash__` last, as `_hash_add` sets it
        method.__qualname__ = f"{qualname}.{name}"
        setattr(cls, name, method)
    if not frozen:
        cls.__hash__ = None  # `_hash_set_none`: eq without frozen
    setattr(cls, _MATCH_ARGS, tuple(f.name for f in init_fields))
    abc.update_abstractmethods(cls)
    made_class: type = cls
    return made_class


def _slotted(made: Plan, fields: dict[str, Any], methods: list[tuple[str, Any]], params: Any) -> type:
    """What `_process_class` and then `_add_slots` make of `made.cls` with slots, the new
    class's namespace written as `_add_slots` copies it from the class `_process_class` changed,
    without changing that class (each attribute set on a class updates its slots: ~40% of
    making a record). The class itself stays what the frozen `__setattr__` compares with."""
    dc = _dc
    cls: Any = made.cls
    namespace = dict(cls.__dict__)
    namespace["__dataclass_params__"] = params
    for name in made.own:
        if isinstance(made.fields[name][1], dc.Field):  # the class's attribute (`_plan`)
            default = fields[name].default
            if default is dc.MISSING:
                del namespace[name]
            else:
                namespace[name] = default
    namespace["__dataclass_fields__"] = fields
    qualname = cls.__qualname__
    for name, method in methods:
        method.__qualname__ = f"{qualname}.{name}"
        namespace[name] = method
    if not params.frozen:
        namespace["__hash__"] = None
    names = tuple(fields)
    namespace[_MATCH_ARGS] = tuple(name for name in names if fields[name].init)
    inherited = {name for base in cls.__mro__[1:-1] for name in dc._get_slots(base)}
    namespace["__slots__"] = tuple(name for name in names if name not in inherited)
    for name in names:
        namespace.pop(name, None)
    namespace.pop("__dict__", None)
    namespace.pop("__weakref__", None)
    made_class: Any = type(cls)(cls.__name__, cls.__bases__, namespace)
    made_class.__qualname__ = qualname
    if params.frozen:
        made_class.__getstate__ = dc._dataclass_getstate
        made_class.__setstate__ = dc._dataclass_setstate
    abc.update_abstractmethods(made_class)
    result: type = made_class
    return result
