"""Values worked out from speclint's own files, kept between runs beside its `.pyc` files.

A cold `speclint FILE` pays for every piece of work that is the same on every run: compiling
the methods `dataclasses` generates (`core.records`), decoding a release's flag table from
JSON (`sglang.flags.schema`). A `Kept` store holds such values, marshalled, in
`<package>/__pycache__/<name>.<python>.kept`, and is written when Python writes `.pyc`
files (not under `PYTHONDONTWRITEBYTECODE` or a `pycache_prefix`), atomically, never failing
a run. Each store is tied to a `source` (what its values were worked out from: a format,
the Python version, a data file's size and time): a store written for another source, or one
that is missing, damaged or of another shape, is empty. The command (`speclint.__main__`)
writes what a run added when it ends (`save_all`).
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_MAX_VALUES = 4096
"""Past this many values (old keys of many versions), only those this process used are written."""


class Kept:
    """One store: a dict of marshal-able values, read on first use."""

    def __init__(self, folder: str, name: str, source: Any) -> None:
        tag = sys.implementation.cache_tag or "python"
        self.path = os.path.join(folder, "__pycache__", f"{name}.{tag}.kept")
        self.source = (name, sys.version, source)
        self.values: dict[Any, Any] | None = None
        self.used: set[Any] = set()
        self.added = 0
        _STORES.append(self)

    def _read(self) -> dict[Any, Any]:
        try:
            import marshal

            with open(self.path, "rb") as handle:
                source, values = marshal.loads(handle.read())
            if source == self.source and type(values) is dict:
                return values
        except Exception:  # missing, damaged, foreign: worked out again
            pass
        return {}

    def get(self, key: Any) -> Any:
        if self.values is None:
            self.values = self._read()
        value = self.values.get(key)
        if value is not None:
            self.used.add(key)
        return value

    def put(self, key: Any, value: Any) -> None:
        if self.values is None:
            self.values = self._read()
        self.values[key] = value
        self.used.add(key)
        self.added += 1

    def save(self) -> None:
        if not self.added or self.values is None or sys.dont_write_bytecode or sys.pycache_prefix:
            return
        import marshal

        values = self.values
        if len(values) > _MAX_VALUES:
            values = {key: value for key, value in values.items() if key in self.used}
        try:
            os.makedirs(os.path.dirname(self.path), exist_ok=True)
            write_atomically(self.path, marshal.dumps((self.source, values)))
        except (OSError, ValueError):
            return
        self.added = 0


_STORES: list[Kept] = []


def save_all() -> None:
    """Write what this process added to every store (the command calls this when it ends)."""
    for store in _STORES:
        store.save()


def write_atomically(path: str, data: bytes) -> None:
    """`data` to `path` through a new file in its folder renamed over it: a reader sees the
    old file or the new one, never half of one. The temporary name comes from the process
    and the clock, opened exclusively (tempfile's random names cost the imports of random,
    which seeds itself from the OS, on every run that writes)."""
    import time

    folder = os.path.dirname(path) or "."
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    for attempt in range(100):
        temporary = os.path.join(folder, f".tmp-{os.getpid()}-{time.monotonic_ns()}-{attempt}")
        try:
            fd = os.open(temporary, flags, 0o644)
            break
        except FileExistsError:
            continue
    else:
        raise FileExistsError(f"no temporary file name free in {folder}")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise
