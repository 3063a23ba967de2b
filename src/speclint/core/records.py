"""`dataclass` for speclint's own records: the standard library's, made at each start
without generating and compiling the code of their methods.

Why: `dataclasses` writes each class's `__init__`, `__repr__`, `__eq__`, `__hash__` and
`__setattr__` as source text and compiles it, every time the class is made: ~0.8 ms for a
frozen class with slots, half of a cold `speclint FILE` run's time (60 classes on the lint
path). A plain class is made from a recipe kept beside the `.pyc` files (`core.recipes`,
`core.recipe_build`, `core.kept`): the code of the methods `dataclasses` made for a class of
its shape, the rest read from the class as `dataclasses` reads it (a changed class is another
shape, or reads its new defaults and types: nothing can go stale). Any other class goes
through `dataclasses`,
the code of each text it generates kept, keyed by the text itself. The classes are the
standard library's: `fields`, `replace`, `asdict`, pickling and type checkers treat them as
any dataclass. A missing, damaged or foreign store means making them as `dataclasses` does.

`dataclasses` calls `exec(text, globals, namespace)` (3.10-3.13); while one of these
classes is made, the module's `exec` is one that looks the text up first.

A frozen class with slots, however made, then gets an `__init__` that sets its fields through
its slots (`core.slot_init`: a third of the time of the generated one's `object.__setattr__`).
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from dataclasses import dataclass as dataclass
    from types import ModuleType
    from typing import Any
else:

    def dataclass(cls=None, /, **options):
        """`dataclasses.dataclass(cls, **options)`, its generated code compiled once."""

        def wrap(cls):
            return _make(cls, options)

        return wrap if cls is None else wrap(cls)


_CODE = type((lambda: None).__code__)
_STORE_FOLDER = os.path.dirname(os.path.abspath(__file__))
"""Where the stores are (in its `__pycache__`)."""


class _Codes:
    """The compiled texts, kept between runs (`core.kept`), in the store `name`; with `texts`,
    the recipes in `name` and the texts apart, in the store `texts` (a store's whole index is
    read on first use: the texts' index, the texts themselves, was 2.6 M instructions of a
    one-file run that makes every record from its recipe)."""

    def __init__(self, name: str = "records", texts: str | None = None) -> None:
        from speclint.core.kept import Kept

        self.kept = Kept(_STORE_FOLDER, name, 3)  # (3: the texts no more beside the recipes)
        self.texts = self.kept if texts is None else Kept(_STORE_FOLDER, texts, 3)
        self.fresh = 0
        """Texts compiled, recipes worked out by this process (not found kept)."""

    def exec(self, source: Any, globals: Any = None, locals: Any = None) -> None:
        """The builtin `exec`, with a text's compiled form looked up first."""
        if type(source) is str:
            code = self.texts.get(source)
            if type(code) is not _CODE:  # not kept, or not code: never trusted
                code = compile(source, "<string>", "exec", dont_inherit=True)
                self.texts.put(source, code)
                self.fresh += 1
            source = code
        exec(source, globals, locals)


_codes: _Codes | None = None


def _make(cls: type, options: dict[str, Any]) -> type:
    global _codes
    if _codes is None:
        _codes = _Codes("records", "records-texts")
    dataclasses, recipes, recipe_build, slot_init = _MODULES or _modules()
    plan = recipes.plan(cls, options)
    if plan is None:  # not a plain class: dataclasses, its texts' code kept
        made: type = _with_exec(_codes, dataclasses.dataclass, cls, **options)
    else:
        kept = recipe_build.build(plan, _codes.kept.get(plan.key))
        if kept is not None:
            made = kept
        else:
            made = dataclasses.dataclass(cls, **options)
            recipe = recipe_build.recipe_of(made, plan)  # (dataclasses' own methods)
            if recipe is not None:
                _codes.kept.put(plan.key, recipe)
                _codes.fresh += 1
    if options.get("frozen") is True and options.get("slots") is True:
        added = _codes.kept.added
        slot_init.install(made, _codes.kept)  # its fields set through their slots
        _codes.fresh += _codes.kept.added - added  # (its code compiled, not found kept)
    return made


_MODULES: tuple[Any, ...] = ()
"""What `_make` uses, imported once (`from package import module` in a function runs
importlib's `_handle_fromlist` at each call)."""


def _modules() -> tuple[Any, ...]:
    global _MODULES
    import dataclasses

    from speclint.core import recipe_build, recipes, slot_init

    _MODULES = (dataclasses, recipes, recipe_build, slot_init)
    return _MODULES


def import_with_kept_code(name: str) -> ModuleType:
    """`importlib.import_module(name)`, with the code `dataclasses` generates for the classes it
    makes looked up in a store of its own (`records-<top package>`): libcst's ~250 node classes
    are dataclasses, half of its import time (~80 ms of a run that lints a Python file)."""
    import sys

    module = sys.modules.get(name)
    if module is not None:
        return module
    import importlib

    codes = _Codes(f"records-{name.split('.')[0]}")
    try:
        imported: ModuleType = _with_exec(codes, importlib.import_module, name)
        return imported
    finally:
        if codes.fresh:
            codes.kept.save()  # now: this may be a worker process, which saves nothing at exit


def _with_exec(codes: _Codes, call: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """`call(*args, **kwargs)` while `dataclasses` calls `codes.exec` for the builtin `exec`
    (nested calls put back what they found)."""
    import dataclasses

    names = vars(dataclasses)
    before = names.get("exec")
    names["exec"] = codes.exec
    try:
        return call(*args, **kwargs)
    finally:
        if before is None:
            del names["exec"]
        else:
            names["exec"] = before
