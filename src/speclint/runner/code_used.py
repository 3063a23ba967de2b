"""Which of speclint's own files a lint ran (its code and its data): the result cache trusts
a stored result, and a replay its record, only while those files are as they were, statting
them alone instead of the whole package (~520 files) on every run.

What a process ran is known without tracing it, as a superset of what any of its lints ran:
- every module of speclint in `sys.modules` (a module that was never imported ran no code:
  rules are imported when they run, `rules.index`; nothing of speclint looks for a module of
  its own that may be missing), and the `__main__` of `python -m speclint`;
- every file of the package's data folders (`DATA_FOLDERS`: the release tables, read lazily,
  so all of them), and the folders themselves (a file added or removed). A test keeps every
  file of the package that is not a module in one of these folders.

A module the command's kept store served (`speclint.cli.startup.KeptImports`) is known by the
size and mtime_ns of the source its code was compiled from, checked when it was loaded; any
other file by `stat` the first time a process asks (the data before its first lint). Files
are compared by size and mtime_ns, as Python compares a source with its `.pyc` and as the
kept store does. A list with a file changed within two seconds of when it was made (a second
write in the same clock tick keeps the mtime) is not used: nothing is cached then.

A list is kept once per index folder, in `code-<id>` (its id: a hash of its paths and their
stats), and each entry names it; a replay record holds its run's list itself.
"""

from __future__ import annotations

import os
import sys
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

    Files = tuple[list[str], list[list[int]]]
    """(paths, sorted; the [size, mtime_ns] of each)."""

DATA_FOLDERS = ("sglang/data", "sglang/flags/data")
"""The package's folders of files that are not modules (relative, with `/`)."""

PREFIX = "code-"
"""A list's file name in an index folder: PREFIX + its id."""

_MAGIC = b"speclint-code 1\n"

KNOWN: dict[str, Files] = {}
"""Lists made or read (and checked against their id) by this process, by id."""

_signatures: dict[str, list[int]] = {}
"""path -> [size, mtime_ns], taken once a process (the first time it was asked for)."""

_data: list[dict[str, list[int]]] = []
"""The data folders' files and the folders themselves, once taken (`data_files`)."""

_last: list[Any] = []
"""[len(sys.modules) when the last list was made, its (id, files) or None]."""

_sent: set[str] = set()


def forget() -> None:
    """Take everything again (a test's new "process")."""
    KNOWN.clear()
    _signatures.clear()
    _data.clear()
    _last.clear()
    _sent.clear()


def root() -> str:
    import speclint

    return os.path.dirname(os.path.abspath(speclint.__file__))


def data_files() -> dict[str, list[int]]:
    """The data folders and the files in them, by path, taken once a process: `lint_for_cache`
    asks before its first lint, so the stats are never newer than what a lint read."""
    if not _data:
        found: dict[str, list[int]] = {}
        base = root()
        for relative in DATA_FOLDERS:
            folder = os.path.join(base, *relative.split("/"))
            try:
                info = os.stat(folder)
                found[folder] = [info.st_size, info.st_mtime_ns]
                with os.scandir(folder) as entries:
                    for entry in entries:
                        if entry.is_file():
                            info = entry.stat()
                            found[entry.path] = [info.st_size, info.st_mtime_ns]
            except OSError:
                found[folder] = [-1, -1]  # (missing: as it is now)
        _data.append(found)
    return _data[0]


def current() -> tuple[str, Files] | None:
    """(id, files) of what this process has run so far; None when a file could not be
    statted or changed within two seconds (racy: nothing is cached). Made again only when
    `sys.modules` changed size (a process imports, it does not unload)."""
    modules = sys.modules
    if _last and _last[0] == len(modules):
        found: tuple[str, Files] | None = _last[1]
        return found
    files = dict(data_files())
    known = _signatures
    try:
        for name in [name for name in list(modules) if name.startswith("speclint")]:
            attributes = getattr(modules.get(name), "__dict__", None)
            if type(attributes) is not dict or type(path := attributes.get("__file__")) is not str:
                continue
            signature = known.get(path)
            if signature is None:
                signature = known[path] = _served(name, attributes, path) or _stat(path)
            files[path] = signature
        main = getattr(modules.get("__main__"), "__dict__", None)  # (`python -m speclint`)
        path = main.get("__file__") if type(main) is dict else None
        if type(path) is str and path.startswith(root() + os.sep):
            files[path] = known.get(path) or known.setdefault(path, _stat(path))
    except OSError:
        result = None
    else:
        result = _made(files)
    _last[:] = [len(modules), result]
    return result


def _served(name: str, attributes: dict[str, Any], path: str) -> list[int] | None:
    """[size, mtime_ns] of the source a kept store's code of `name` was compiled from
    (checked against the file when the module was loaded), or None."""
    served = getattr(attributes.get("__loader__"), "served", None)
    entry = served.get(name) if type(served) is dict else None
    if type(entry) is tuple and len(entry) > 3 and entry[0] == path:
        return [entry[2], entry[3]]
    return None


def _stat(path: str) -> list[int]:
    info = os.stat(path)
    return [info.st_size, info.st_mtime_ns]


def _made(files: dict[str, list[int]]) -> tuple[str, Files] | None:
    from speclint.runner.cache import _RACY_NS

    if max([signature[1] for signature in files.values()], default=0) + _RACY_NS >= time.time_ns():
        return None
    paths = sorted(files)
    made = (paths, [files[path] for path in paths])
    code = list_id(made)
    KNOWN[code] = made
    return code, made


def list_id(files: Files) -> str:
    import marshal

    from speclint.runner.cache import blake2b

    return blake2b(marshal.dumps(files, 2), digest_size=16).hexdigest()


def to_send(code: str) -> bool:
    """Whether an entry with the list `code` made in this process is the first to carry it
    (once a process: a worker's list reaches the process that writes the index with it)."""
    if code in _sent:
        return False
    _sent.add(code)
    return True


def unchanged(files: Files) -> bool:
    """Whether every file of a list has the size and mtime_ns it had."""
    paths, signatures = files
    stat = os.stat
    try:
        return [[i.st_size, i.st_mtime_ns] for i in map(stat, paths)] == signatures
    except (OSError, TypeError, ValueError):
        return False


def read(folder: str, code: str) -> Files | None:
    """The list `code` kept in an index folder; None when missing, damaged or not the list its
    name says (never trusted)."""
    found = KNOWN.get(code)
    if found is not None:
        return found
    try:
        with open(os.path.join(folder, PREFIX + code), "rb") as handle:
            data = handle.read()
        if not data.startswith(_MAGIC):
            return None
        from speclint.core import json_read

        paths, signatures = json_read.loads(data[len(_MAGIC) :])
        if type(paths) is not list or type(signatures) is not list or len(paths) != len(signatures):
            return None
        files = (paths, signatures)
        if list_id(files) != code:  # (also refuses what marshal cannot write)
            return None
    except Exception:
        return None
    KNOWN[code] = files
    return files


def write(folder: str, code: str) -> None:
    """Keep the list `code` (made or received by this process) in an index folder, once; one
    kept there for a day or more is marked as used (its mtime: the index drops what is
    unused for 30 days)."""
    files = KNOWN.get(code)
    path = os.path.join(folder, PREFIX + code)
    try:
        if time.time() - os.stat(path).st_mtime > 86400:  # used: not pruned (`ResultCache.save`)
            os.utime(path)
        return
    except OSError:
        pass
    if files is None:
        return
    from speclint.core.json_write import dumps
    from speclint.core.kept import write_atomically

    try:
        write_atomically(path, _MAGIC + dumps([files[0], files[1]]).encode("utf-8", "surrogatepass"))
    except (OSError, TypeError, ValueError):
        pass


def merged(codes: Iterable[str]) -> Files | None:
    """One list of the files of the lists `codes` (known to this process); None when one is
    unknown or two say different things of a file."""
    files: dict[str, list[int]] = {}
    for code in codes:
        found = KNOWN.get(code)
        if found is None:
            return None
        for path, signature in zip(*found):
            if files.setdefault(path, signature) != signature:
                return None
    paths = sorted(files)
    return paths, [files[path] for path in paths]


def stats_hash(signatures: list[list[int]]) -> int:
    """One number for a list's stats: Python's hash of integers, which no hash seed changes (a
    record is read only by the Python that wrote it: `cache.code_fingerprint`)."""
    return hash(tuple(map(tuple, signatures)))


def files_unchanged(paths: object, stats: object) -> bool:
    """For a replay: whether the files of a record's list have the stats `stats_hash` gave."""
    if type(paths) is not list or type(stats) is not int:
        return False
    stat = os.stat
    try:
        now = [(i.st_size, i.st_mtime_ns) for i in map(stat, paths)]
    except (OSError, TypeError, ValueError):
        return False
    return hash(tuple(now)) == stats
