"""How a batch and its results cross a forked worker's pipe: pickle, with the records a
reply is mostly made of (a file's result, its findings, their spans, notes and edits, a
launch's release) reduced to their class and field values, rebuilt by calling the class.

Pickle's own reduction of a dataclass with slots runs `dataclasses`' `__getstate__` and
`__setstate__`, each calling `dataclasses.fields` in Python for every object, on both sides
of the pipe: about a third of a reply's pickling. A class is reduced here only when calling
it with its fields' values rebuilds it (every field set by `__init__`, no `__post_init__`);
any other object is pickled as pickle does.
"""

from __future__ import annotations

import pickle

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    Reducer = Callable[[Any], tuple[type, tuple[Any, ...]]]

_table: dict[type, Callable[[Any], Any]] | None = None


def dumps(value: object) -> bytes:
    """`pickle.dumps(value)`, the records of `_records` reduced to their fields' values."""
    import io

    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = dispatch_table()
    pickler.dump(value)
    return buffer.getvalue()


loads = pickle.loads


def dispatch_table() -> dict[type, Callable[[Any], Any]]:
    global _table
    if _table is None:
        import copyreg

        table: dict[type, Callable[[Any], Any]] = {}
        table.update(copyreg.dispatch_table)
        for cls in _records():
            reducer = field_reducer(cls)
            if reducer is not None:
                table[cls] = reducer
        _table = table
    return _table


def _records() -> list[type]:
    """The classes of a `check` reply (and of a request's options)."""
    from speclint.core.edits import Edit
    from speclint.core.findings import Finding
    from speclint.core.notes import Note
    from speclint.core.spans import Span
    from speclint.rules.context import VersionChoice
    from speclint.runner.results import CheckedFile, LaunchSummary
    from speclint.settings.options import LintOptions

    return [CheckedFile, LaunchSummary, Finding, Span, Note, Edit, VersionChoice, LintOptions]


def field_reducer(cls: type) -> Reducer | None:
    """(cls, its fields' values) for an object of `cls`, when `cls(*values)` rebuilds it: a
    dataclass without `__post_init__` whose `__init__` takes every field, in order, or a
    class with `__slots__` (no `__dict__`) whose `__init__` takes the slots in order (a
    LaunchSummary); None for any other class."""
    import dataclasses
    from operator import attrgetter

    if dataclasses.is_dataclass(cls):
        if hasattr(cls, "__post_init__"):
            return None
        names = tuple(f.name for f in dataclasses.fields(cls))
    else:
        slots = getattr(cls, "__slots__", ())
        names = (slots,) if isinstance(slots, str) else tuple(slots)
        if "__dict__" in names:
            return None
    # (the parameters from the code object: `inspect.signature` would import `inspect`,
    # which the command defers, `cli.startup`)
    code = getattr(getattr(cls, "__init__", None), "__code__", None)
    if code is None or code.co_kwonlyargcount or code.co_varnames[1 : code.co_argcount] != names:
        return None  # (an InitVar, a field `__init__` does not take, an `__init__` of its own)
    if len(names) < 2:
        return None  # (attrgetter of one name gives the value, not a tuple)
    get = attrgetter(*names)

    def reduce(value: Any) -> tuple[type, tuple[Any, ...]]:
        return cls, get(value)

    return reduce
