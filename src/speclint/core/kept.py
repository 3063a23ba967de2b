"""Values worked out from speclint's own files, kept between runs beside its `.pyc` files.

A cold `speclint FILE` pays for every piece of work that is the same on every run: compiling
the methods `dataclasses` generates (`core.records`), decoding a release's flag table from
JSON (`sglang.flags.schema`). A `Kept` store holds such values, marshalled, in
`<package>/__pycache__/<name>.<python>.kept`, and is written when Python writes `.pyc`
files (not under `PYTHONDONTWRITEBYTECODE` or a `pycache_prefix`), atomically, never failing
a run. Each store is tied to a `source` (what its values were worked out from: a format,
the Python version, a data file's size and time): a store written for another source, or one
that is missing, damaged or of another shape, is empty. The command (`speclint.__main__`)
writes what a run added when it ends (`save_all`), with what its workers added (a worker
forked for a big batch never writes a store: it sends its additions back, `added`, `take`).

A store is an index and the values' bytes after it: a run reads the index, then only the
values it asks for. The stores grow with use (every module of every command, every
release's flag table: ~10 MB together), and a one-file run needs a few hundred KB of them;
reading and decoding them whole was a fifth of a cold run.
"""

from __future__ import annotations

import marshal  # (built in: nothing to load)
import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

_MAX_VALUES = 4096
"""Past this many values (old keys of many versions), only those this process used are written."""

_MAGIC = b"speclnt2"
"""A store's first bytes: its layout (an older store, or any other file, is empty)."""

_HEAD = len(_MAGIC) + 8
"""The magic and the index's length; then the index (marshalled: source, {key: (offset,
length)}); then the values' bytes, each offset counted from the end of the index."""

_FIRST_READ = 1 << 16


class Kept:
    """One store: a dict of marshal-able values, its index read on first use and each value
    read when it is first asked for."""

    def __init__(self, folder: str, name: str, source: Any) -> None:
        tag = sys.implementation.cache_tag or "python"
        self.path = os.path.join(folder, "__pycache__", f"{name}.{tag}.kept")
        self.source = (name, sys.version, source)
        self._index: dict[Any, tuple[int, int]] | None = None
        self._start = 0  # where the values' bytes begin
        self._handle: int | bytes | None = None  # an open file (pread), or its bytes
        self._values: dict[Any, Any] = {}  # values read or put this run
        self._put: set[Any] = set()
        self.used: set[Any] = set()
        self.added = 0
        _STORES.append(self)

    def _open(self) -> dict[Any, tuple[int, int]]:
        """The index of the store at `path` (empty when missing, foreign or damaged)."""
        self._index = {}
        try:
            handle = os.open(self.path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
        except (OSError, ValueError):
            return self._index
        try:
            first = os.read(handle, _FIRST_READ)
            if first[: len(_MAGIC)] != _MAGIC or len(first) < _HEAD:
                raise ValueError("another layout")
            length = int.from_bytes(first[len(_MAGIC) : _HEAD], "little")
            if _HEAD + length > len(first):
                first += _read_at(handle, _HEAD + length - len(first), len(first))
            source, index = marshal.loads(first[_HEAD : _HEAD + length])
            if source != self.source or type(index) is not dict:
                raise ValueError("another source")
        except Exception:  # missing, damaged, foreign: worked out again
            os.close(handle)
            return self._index
        if _HAS_PREAD:
            self._handle = handle
        else:  # (Windows) the whole file, read once
            try:
                os.lseek(handle, 0, os.SEEK_SET)
                self._handle = _read_all(handle)
            except OSError:
                return self._index
            finally:
                os.close(handle)
        self._start = _HEAD + length
        self._index = index
        return index

    def _load(self, key: Any) -> Any:
        """The value kept for `key`, read from the file; None when it has none (or a damaged one)."""
        index = self._index if self._index is not None else self._open()
        where = index.get(key)
        if where is None:
            return None
        try:
            offset, length = where
            blob = self._blob(offset, length)
            if len(blob) != length:
                raise ValueError("cut short")
            value = marshal.loads(blob)
        except Exception:
            del index[key]  # not copied into the next store
            return None
        self._values[key] = value
        return value

    def _blob(self, offset: int, length: int) -> bytes:
        handle = self._handle
        start = self._start + offset
        if type(handle) is bytes:
            return handle[start : start + length]
        if type(handle) is int:
            return _read_at(handle, length, start)
        return b""

    def get(self, key: Any) -> Any:
        value = self._values.get(key)
        if value is None:
            value = self._load(key)
        if value is not None:
            self.used.add(key)
        return value

    def keys(self) -> list[Any]:
        """Every key the store holds (kept or put this run)."""
        index = self._index if self._index is not None else self._open()
        return list(dict.fromkeys([*index, *self._values]))

    def put(self, key: Any, value: Any) -> None:
        if self._index is None:
            self._open()
        self._values[key] = value
        self._put.add(key)
        self.used.add(key)
        self.added += 1

    def drop(self, key: Any) -> None:
        """Leave `key`'s value out of the store when it is next written."""
        index = self._index if self._index is not None else self._open()
        held = index.pop(key, None) is not None
        if self._values.pop(key, None) is not None or held:
            self._put.discard(key)
            self.used.discard(key)
            self.added += 1

    def save(self) -> None:
        if not self.added or self._index is None or sys.dont_write_bytecode or sys.pycache_prefix:
            return
        keys = self.keys()
        if len(keys) > _MAX_VALUES:
            keys = [key for key in keys if key in self.used]
        index: dict[Any, tuple[int, int]] = {}
        blobs: list[bytes] = []
        offset = 0
        try:
            for key in keys:
                if key in self._put:
                    blob = marshal.dumps(self._values[key])
                else:
                    where = self._index.get(key)
                    if where is None:
                        continue
                    blob = self._blob(*where)
                    if len(blob) != where[1]:
                        continue
                index[key] = (offset, len(blob))
                blobs.append(blob)
                offset += len(blob)
            header = marshal.dumps((self.source, index))
            data = b"".join([_MAGIC, len(header).to_bytes(8, "little"), header, *blobs])
            os.makedirs(os.path.dirname(self.path), exist_ok=True)
            write_atomically(self.path, data)
        except (OSError, ValueError):
            return
        self.added = 0


_STORES: list[Kept] = []

_HAS_PREAD = hasattr(os, "pread")


def _read_at(handle: int, length: int, offset: int) -> bytes:
    """`length` bytes at `offset` (fewer at the file's end)."""
    if _HAS_PREAD:
        return os.pread(handle, length, offset)
    os.lseek(handle, offset, os.SEEK_SET)
    return os.read(handle, length)


def _read_all(handle: int) -> bytes:
    parts: list[bytes] = []
    while True:
        part = os.read(handle, 1 << 20)
        if not part:
            return b"".join(parts)
        parts.append(part)


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


LEARNERS: list[Callable[[], None]] = []
"""What puts into a store, before it is written, what the process learned while it ran (the
command's modules imported the usual way: `cli.startup`)."""


def added() -> bytes:
    """What this process put in its stores, marshalled ([(store path, {key: value})]): a
    worker forked for a big batch never writes a store (`runner.forked`); the process it
    was forked from keeps what it sends (`take`). Empty when stores are not written."""
    if sys.dont_write_bytecode or sys.pycache_prefix:
        return b""
    for learn in LEARNERS:
        try:
            learn()
        except Exception:  # never failing a run
            pass
    entries = [(store.path, {key: store._values[key] for key in store._put}) for store in _STORES]
    return marshal.dumps([entry for entry in entries if entry[1]])


def take(blob: bytes) -> None:
    """Puts in this process's stores the keys a process forked from it `added` that they do
    not hold yet (written by `save_all` when the run ends); a store this process has not
    opened, or a damaged message, adds nothing."""
    try:
        entries = marshal.loads(blob) if blob else []
        stores = {store.path: store for store in _STORES}
        for path, values in entries:
            store = stores.get(path)
            if store is None:
                continue
            index = store._index if store._index is not None else store._open()
            for key, value in values.items():
                if key not in index and key not in store._values:
                    store.put(key, value)
    except Exception:  # (damaged: nothing more is kept)
        return
