"""`dataclass` for speclint's own records: the standard library's, with the code it generates
compiled once and kept beside speclint's `.pyc` files.

Why: `dataclasses` writes each class's `__init__`, `__repr__`, `__eq__`, `__hash__` and
`__setattr__` as source text and compiles it, every time the class is made: ~0.8 ms for a
frozen class with slots, half of a cold `speclint FILE` run's time (60 classes on the lint
path). The text depends only on the class's definition, so its compiled form is kept, keyed
by the text itself (a changed class is a new key: nothing can go stale), in
`core/__pycache__/records.<python>.codes`, next to the `.pyc` files and written when they are
(not under `PYTHONDONTWRITEBYTECODE`). The classes are the standard library's: `fields`,
`replace`, `asdict` and type checkers treat them as any dataclass. A missing, damaged or
foreign file means compiling as `dataclasses` does.

`dataclasses` calls `exec(text, globals, namespace)` (3.10-3.13); while one of these
classes is made, the module's `exec` is one that looks the text up first.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dataclasses import dataclass as dataclass
    from types import CodeType
    from typing import Any
else:

    def dataclass(cls=None, /, **options):
        """`dataclasses.dataclass(cls, **options)`, its generated code compiled once."""

        def wrap(cls):
            return _make(cls, options)

        return wrap if cls is None else wrap(cls)


_FORMAT = ("speclint-records", 1, sys.version)
_MAX_CODES = 4096
"""Past this many kept texts (many speclint versions over one install), only those this
process used are written back."""


class _Codes:
    """The compiled texts: those read from the file, and those compiled by this process."""

    def __init__(self) -> None:
        self.loaded = False
        self.codes: dict[str, CodeType] = {}
        self.used: set[str] = set()
        self.fresh = 0
        """Texts compiled by this process (not found in the file)."""

    def load(self) -> None:
        self.loaded = True
        try:
            import marshal

            with open(_path(), "rb") as handle:
                stored = marshal.loads(handle.read())
            header, codes = stored
            if header != _FORMAT or not isinstance(codes, dict):
                return
            from types import CodeType

            if all(type(key) is str and type(code) is CodeType for key, code in codes.items()):
                self.codes = codes
        except Exception:  # no file, or one that cannot be trusted: compile as dataclasses does
            self.codes = {}

    def exec(self, source: Any, globals: Any = None, locals: Any = None) -> None:
        """The builtin `exec`, with a text's compiled form looked up first."""
        if type(source) is str:
            code = self.codes.get(source)
            if code is None:
                code = compile(source, "<string>", "exec", dont_inherit=True)
                self.codes[source] = code
                self.fresh += 1
            self.used.add(source)
            source = code
        exec(source, globals, locals)


_codes = _Codes()


def _make(cls: type, options: dict[str, Any]) -> type:
    import dataclasses

    if not _codes.loaded:
        _codes.load()
    names = vars(dataclasses)
    before = names.get("exec")
    names["exec"] = _codes.exec
    try:
        made: type = dataclasses.dataclass(cls, **options)
    finally:
        if before is None:
            del names["exec"]
        else:
            names["exec"] = before
    return made


def _path() -> str:
    import os

    tag = sys.implementation.cache_tag or "python"
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "__pycache__", f"records.{tag}.codes")


def save() -> None:
    """Write what this process compiled, as Python writes `.pyc` files: when allowed, atomically,
    and never failing the run."""
    if not _codes.fresh or sys.dont_write_bytecode or sys.pycache_prefix:
        return
    import marshal
    import os
    import tempfile

    codes = _codes.codes
    if len(codes) > _MAX_CODES:
        codes = {text: code for text, code in codes.items() if text in _codes.used}
    path = _path()
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".records-")
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(marshal.dumps((_FORMAT, codes)))
            os.replace(temporary, path)
        except BaseException:
            os.unlink(temporary)
            raise
    except (OSError, ValueError):
        return
    _codes.fresh = 0
