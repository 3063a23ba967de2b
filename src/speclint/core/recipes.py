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

`recipe_build.build` follows `dataclasses._process_class` of Python 3.11 (verified on 3.11.7,
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

import dataclasses
import sys
from types import MemberDescriptorType


def served() -> bool:
    """Pythons whose `dataclasses` the recipes follow: 3.11 from 3.11.7, where they were verified
    (3.11.2's `_add_slots` adds `__getstate__`/`__setstate__` and orders the class's names
    otherwise: there `dataclasses` makes every class itself)."""
    return sys.version_info[:2] == (3, 11) and tuple(sys.version_info[:3]) >= (3, 11, 7)


TYPE_CHECKING = False
if TYPE_CHECKING:
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

_MADE_NAMES = frozenset(_MADE)


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
    if not served() or not _HELPERS:
        return None
    given = tuple(options.items())
    params = _PARAMS.get(given, _ABSENT)
    if params is _ABSENT:
        params = _PARAMS[given] = _params(options)
    if params is None:
        return None
    try:
        return _plan(cls, params)
    except Exception:  # dataclasses itself says what is wrong
        return None


def _params(options: dict[str, Any]) -> dict[str, bool] | None:
    """Every option of `dataclasses.dataclass` with its value, None for options a recipe does
    not serve."""
    params = dict(_OPTIONS)
    for name, value in options.items():
        if name not in params or type(value) is not bool:
            return None
        params[name] = value
    for name, default in _OPTIONS:
        if name not in _FREE and params[name] is not default:
            return None
    return params


_PARAMS: dict[tuple[Any, ...], Any] = {}
"""The decorator's options as given -> `_params` of them (shared, read only): records repeat
the same few (`frozen=True, slots=True`)."""


def _plan(cls: type, params: dict[str, bool]) -> Plan | None:
    dc = _dc
    namespace = cls.__dict__
    if cls.__module__ not in sys.modules or not cls.__doc__:
        return None
    if not _MADE_NAMES.isdisjoint(namespace):
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
    special = _SPECIAL.get(typing) or _SPECIAL.setdefault(typing, _special(dc, typing))
    module_globals = sys.modules[cls.__module__].__dict__
    plain_class = type(cls) is type and len(cls.__mro__) == 2  # (the class, object): `_attribute`
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
                found = module_globals.get(word)  # (a builtin's name is not there: None)
                if found is not None and special(found):
                    return None
            elif module_globals.get(module_name) in (dc, typing):
                return None  # `dataclasses.InitVar`, `typing.ClassVar`...: dataclasses decides
        if plain_class and name not in _TYPE_NAMES:  # (what `_attribute` finds, read directly)
            default = namespace.get(name, MISSING)  # no default (most fields)
            if default is MISSING or type(default) in _PLAIN_DEFAULTS:
                fields[name] = (annotation, default)  # (no `__get__`, hashable: as below)
                own.append(name)
                continue
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
    gives_init = params["init"]
    for name, f in fields.items():
        if type(f) is tuple:
            f = f[1] if isinstance(f[1], Field) else None
        if f is None:  # a plain default, or none (most fields: their whole shape here)
            if fields[name][1] is MISSING:
                if seen_default and gives_init:
                    return None  # (as below)
                shape.append((name, 0, True, True, True, None))
            else:
                seen_default = True
                shape.append((name, 1, True, True, True, None))
            continue
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

_PLAIN_DEFAULTS = frozenset((type(None), bool, int, float, str, bytes, tuple, frozenset))
"""Defaults read as they are (no `__get__`, their class hashable): a record's `None`, `False`,
`0`, `""`, `()`."""

_SPECIAL: dict[Any, Any] = {}
"""`typing` (or None before it is imported) -> `_special`'s test."""

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
