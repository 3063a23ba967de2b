"""The `__init__` of a frozen record with slots: each field set through its slot's own setter.

Why: the `__init__` that `dataclasses` writes for a frozen class sets each field with
`object.__setattr__(self, name, value)` (it must get past the class's own `__setattr__`,
which refuses), and those checks cost ~0.3 µs a field: a Span took 1.6 µs to make, and a
batch makes tens of thousands of Spans and Words. A slot's member descriptor sets the same
slot directly (`descriptor.__set__(self, value)` is what `object.__setattr__` ends up
calling for a slot), in a third of the time.

`core.records` gives every frozen class with slots this `__init__` in place of the one
`dataclasses` made, once the class is final (with `slots=True`, `dataclasses` makes a new
class, and the descriptors are the new class's). It is that function but for its body: the
same parameters, defaults, annotations and names, and a body that does what that one's does,
field by field in order (the value given, a default factory's value, the default of a field
not in `__init__`), then `__post_init__()` where that one calls it, with the values that one
uses (default factories, the "use the factory" marker) taken from its own closure. A field
without a slot in the class or its bases is set with `object.__setattr__`, as before.

Left to `dataclasses`' own `__init__`: a class whose `__init__` `dataclasses` did not write
(the class's own), keyword-only fields or `InitVar`s (its parameters are then not its
fields), a field named like a name the body uses (`_set_x`, `_dflt_x`), and an `__init__` of
another form than Python 3.10-3.13's `dataclasses` writes (checked by hand on each; the
tests run on 3.11).
"""

from __future__ import annotations

import dataclasses
from types import CellType, CodeType, FunctionType, MemberDescriptorType

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from speclint.core.kept import Kept

_FORMAT = 1
"""Part of every key: a change to the body `_compile` writes must change it (a kept body of
the old form would be served; tests/test_slot_init.py compares the kept code with `_compile`'s)."""

_OUTER = "__slot_init__"
"""The function whose code holds the faster `__init__`'s (its closure is made here)."""

_VARIABLE_ARGUMENTS = 0x04 | 0x08  # CO_VARARGS | CO_VARKEYWORDS

_ABSENT = object()


def install(cls: type, kept: Kept | None) -> bool:
    """Give the frozen class `cls` with slots (as `dataclasses` made it, final) the faster
    `__init__`, its code kept in `kept`; False, the class untouched, where it does not apply."""
    init = cls.__dict__.get("__init__")
    if type(init) is not FunctionType or not _made_by_dataclasses(init.__code__):
        return False
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or params.frozen is not True:
        return False  # (not frozen: dataclasses' `self.x = x` goes through the class's __setattr__)
    code = init.__code__
    names = code.co_varnames[: code.co_argcount]
    MISSING = dataclasses.MISSING
    shape = tuple(
        [
            (
                f.name,
                bool(f.init),
                2 if f.default_factory is not MISSING else 0 if f.default is MISSING else 1,
            )
            for f in dataclasses.fields(cls)
        ]
    )
    if code.co_kwonlyargcount or code.co_flags & _VARIABLE_ARGUMENTS:
        return False
    if names[1:] != tuple([name for name, init_given, _ in shape if init_given]):
        return False  # InitVars among the parameters
    post_init = "__post_init__" in code.co_names
    key = ("slot-init", _FORMAT, names[0], post_init, shape)
    made = kept.get(key) if kept is not None else None
    if type(made) is not CodeType or made.co_name != "__init__":  # not kept, or not code
        made = _compile(names[0], post_init, shape)
        if made is None:
            return False
        if kept is not None:
            kept.put(key, made)
    theirs = dict(zip(code.co_freevars, init.__closure__ or ()))
    cells = []
    own = cls.__dict__
    for name in made.co_freevars:
        if name.startswith("_set_"):
            slot = own.get(name[5:])  # (the class's own slot, mostly: `_setter` finds it first)
            cells.append(
                CellType(slot.__set__ if type(slot) is MemberDescriptorType else _setter(cls, name[5:]))
            )
        else:  # the value dataclasses' own __init__ uses (3.12 names it `__dataclass_dflt_x__`)
            cell = theirs.get(name) or theirs.get(f"__dataclass{name}__")
            if cell is None:
                return False
            cells.append(cell)
    faster = FunctionType(made, init.__globals__, "__init__", init.__defaults__, tuple(cells) or None)
    faster.__kwdefaults__ = init.__kwdefaults__
    faster.__annotations__ = init.__annotations__
    faster.__qualname__ = init.__qualname__
    type.__setattr__(cls, "__init__", faster)  # (it keeps its place in the class's namespace)
    return True


def _made_by_dataclasses(code: CodeType) -> bool:
    """The code of an `__init__` `dataclasses` wrote (3.10 has no qualified names of code)."""
    qualname: str | None = getattr(code, "co_qualname", None)
    if qualname is None:
        return code.co_name == "__init__" and code.co_filename == "<string>"
    return qualname == "__create_fn__.<locals>.__init__"


def _compile(self_name: str, post_init: bool, shape: tuple[tuple[str, bool, int], ...]) -> CodeType | None:
    """The code of the faster `__init__` for fields of `shape` (name, in `__init__`, default:
    0 none, 1 a value, 2 a factory), each set as `dataclasses._field_init` sets it."""
    lines = []
    free = {"_HAS_DEFAULT_FACTORY"}
    for name, init_given, kind in shape:
        if kind == 2 and init_given:
            value = f"_dflt_{name}() if {name} is _HAS_DEFAULT_FACTORY else {name}"
        elif kind == 2:
            value = f"_dflt_{name}()"
        elif init_given:
            value = name
        elif kind == 1:
            value = f"_dflt_{name}"  # with slots, the default is not left on the class
        else:
            continue
        lines.append(f"  _set_{name}({self_name}, {value})")
        free.update((f"_set_{name}", f"_dflt_{name}"))
    if free & {self_name, *(name for name, _, _ in shape)}:
        return None  # a field named like a value the body uses
    if post_init:
        lines.append(f"  {self_name}.__post_init__()")
    parameters = ", ".join([self_name, *(name for name, init_given, _ in shape if init_given)])
    text = "\n".join(
        [
            f"def {_OUTER}({', '.join(sorted(free))}):",
            f" def __init__({parameters}):",
            *(lines or ["  pass"]),
            " return __init__",
        ]
    )
    outer = compile(text, "<string>", "exec", dont_inherit=True)
    for constant in outer.co_consts:
        if type(constant) is CodeType:
            for inner in constant.co_consts:
                if type(inner) is CodeType:
                    return inner
    return None


def _setter(cls: type, name: str) -> Callable[[Any, Any], None]:
    """What `object.__setattr__(self, name, value)` does for an instance of `cls`, called as
    `setter(self, value)`: the slot's member descriptor, where the class's lookup finds one."""
    for klass in cls.__mro__:  # (the class's own slot, mostly: the first)
        found = klass.__dict__.get(name, _ABSENT)
        if found is not _ABSENT:
            if type(found) is MemberDescriptorType:
                setter: Callable[[Any, Any], None] = found.__set__
                return setter
            break
    set_attribute = object.__setattr__

    def set_field(self: Any, value: Any) -> None:
        set_attribute(self, name, value)

    return set_field
