"""A record class built from a kept recipe (`core.recipes` reads the class and keys its recipe):
the methods `dataclasses` made for a class of that shape, as functions of this class, and the
class finished as `dataclasses._process_class` (and `_add_slots`) of Python 3.11 finish it.
`recipe_of` takes a recipe from a class `dataclasses` made; `build` makes a class from one.
"""

from __future__ import annotations

import abc
import dataclasses
import sys
from types import CellType, CodeType, FunctionType

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from speclint.core.recipes import Plan

    _dc: Any
_dc = dataclasses
"""Typed loosely: its private helpers are used as they are on 3.11 (`recipes.plan` serves no other)."""

_MATCH_ARGS = "__match_args__"  # (typing says a class's own is read-only)

_ORDER = (("__lt__", "<"), ("__le__", "<="), ("__gt__", ">"), ("__ge__", ">="))


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
    try:
        codes = dict(recipe)  # ((name, code), ...): anything else raises
    except (TypeError, ValueError):
        return None
    if list(codes) != names or [code.co_name for code in codes.values() if type(code) is CodeType] != names:
        return None  # (a name twice, out of order, or not code of that name)
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
        free_names = code.co_freevars
        if not free_names:
            return FunctionType(code, globals, None, defaults)
        return FunctionType(
            code, globals, None, defaults, tuple([CellType(values(free)) for free in free_names])
        )

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
    setattr(cls, _MATCH_ARGS, tuple([f.name for f in init_fields]))
    _update_abstractmethods(cls)
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
    namespace[_MATCH_ARGS] = tuple([name for name in names if fields[name].init])
    bases = cls.__mro__[1:-1]
    if bases:
        inherited = {name for base in bases for name in dc._get_slots(base)}
        namespace["__slots__"] = tuple([name for name in names if name not in inherited])
    else:
        namespace["__slots__"] = names
    for name in names:
        namespace.pop(name, None)
    namespace.pop("__dict__", None)
    namespace.pop("__weakref__", None)
    made_class: Any = type(cls)(cls.__name__, cls.__bases__, namespace)
    made_class.__qualname__ = qualname
    if params.frozen:
        made_class.__getstate__ = dc._dataclass_getstate
        made_class.__setstate__ = dc._dataclass_setstate
    _update_abstractmethods(made_class)
    result: type = made_class
    return result


def _update_abstractmethods(cls: type) -> None:
    """`abc.update_abstractmethods(cls)`, which does nothing for a class without
    `__abstractmethods__`: one whose metaclass is `type` has it only in its own namespace
    (`type`'s getter reads no other), and asking costs an AttributeError's message."""
    if type(cls) is not type or "__abstractmethods__" in cls.__dict__:
        abc.update_abstractmethods(cls)
