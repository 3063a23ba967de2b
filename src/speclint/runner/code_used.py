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

A process's list grows as it imports, as a chain: each link holds the files first seen since
the one before it (the first: the data and the modules imported by then) and names it, its id
a hash of both, so a link stands for every file up to it. An entry names the link that was the
last when its file was linted: a run over many files imports its rules and front-ends as it
meets them, and each link costs only what it adds. Links are kept once per index folder, in
`code-<id>`, and each is checked once a run; a replay record holds its run's files themselves.
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
    Link = tuple[str, list[str], list[list[int]]]
    """(the id of the link before it, "" for the first; the files it adds)."""

DATA_FOLDERS = ("sglang/data", "sglang/flags/data")
"""The package's folders of files that are not modules (relative, with `/`)."""

PREFIX = "code-"
"""A link's file name in an index folder: PREFIX + its id."""

_MAGIC = b"speclint-code 2\n"

KNOWN: dict[str, Link] = {}
"""Links made or read (and checked against their id) by this process, by id."""

_data: list[dict[str, list[int]]] = []
"""The data folders' files and the folders themselves, once taken (`data_files`)."""

_seen: set[str] = set()
"""The names of `sys.modules` looked at."""
_listed: set[str] = set()
"""The paths in this process's chain."""
_state: list[Any] = []
"""[(len(sys.modules), its last name) when last looked, the last link's id or None (racy)]."""
_unsent: list[str] = []
"""Links made here that no entry carried yet."""


def forget() -> None:
    """Take everything again (a test's new "process")."""
    for kept in (KNOWN, _data, _seen, _listed, _state, _unsent):
        kept.clear()


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
            except OSError:  # (an install without it: nothing it stores is trusted again)
                found[folder] = [-1, -1]
        _data.append(found)
    return _data[0]


def current(racy_ns: int) -> str | None:
    """The id of the last link of what this process has run so far; None once a file could
    not be statted or had changed within `racy_ns` (two seconds: `cache._RACY_NS`) of being
    listed (racy: nothing is cached from then on). `sys.modules` is looked at again only when its size or its last
    name changed (an import adds at its end)."""
    modules = sys.modules
    mark = (len(modules), next(reversed(modules), None))
    if _state and _state[0] == mark:
        found: str | None = _state[1]
        return found
    try:
        new = modules.keys() - _seen
        if any(name.startswith("speclint") for name in _seen - modules.keys()):
            # a module of speclint let go (a long-lived process, a test): a new chain, of
            # what is imported now
            for kept in (_seen, _listed, _state):
                kept.clear()
            new = set(modules)
    except RuntimeError:  # (another thread importing meanwhile: not cached this time)
        return None
    _seen.update(new)
    head: str | None = _state[1] if _state else ""
    added: dict[str, list[int]] = {} if _state else dict(data_files())
    if head is not None:
        try:
            for name in new:
                if name.startswith("speclint") or name == "__main__":
                    _add(name, modules.get(name), added)
        except OSError:
            head = None
    if head is not None and (added or not _state):
        head = _link(head, added, racy_ns)
    _state[:] = [mark, head]
    return head


def _add(name: str, module: object, added: dict[str, list[int]]) -> None:
    """The source file of a module of speclint (or of `python -m speclint`'s `__main__`)."""
    attributes = getattr(module, "__dict__", None)
    if type(attributes) is not dict or type(path := attributes.get("__file__")) is not str:
        return
    if path in _listed or (name == "__main__" and not path.startswith(root() + os.sep)):
        return
    added[path] = _served(name, attributes, path) or _stat(path)


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


def _link(parent: str, added: dict[str, list[int]], racy_ns: int) -> str | None:
    """A new last link after `parent` with the files `added`; None when one is racy."""
    if max([signature[1] for signature in added.values()], default=0) + racy_ns >= time.time_ns():
        return None
    paths = sorted(added)
    link = (parent, paths, [added[path] for path in paths])
    code = link_id(link)
    KNOWN[code] = link
    _listed.update(paths)
    _unsent.append(code)
    return code


def link_id(link: Link) -> str:
    import marshal

    try:  # (as `runner.cache` does: not OpenSSL's `_hashlib`)
        from _blake2 import blake2b
    except ImportError:
        from hashlib import blake2b
    return blake2b(marshal.dumps(link, 2), digest_size=16).hexdigest()


def to_send() -> list[list[Any]]:
    """The links made here that no entry carried yet, as [id, parent, paths, stats] (each
    once a process: a worker's reach the process that writes the index with its entries)."""
    links = [[code, *KNOWN[code]] for code in _unsent]
    _unsent.clear()
    return links


_MAX_LINKS = 100_000
"""A chain longer than this is not trusted (a process imports a few hundred modules)."""


def unchanged(link: Link) -> bool:
    """Whether every file a link adds has the size and mtime_ns it had."""
    stat = os.stat
    try:
        return [[i.st_size, i.st_mtime_ns] for i in map(stat, link[1])] == link[2]
    except (OSError, TypeError, ValueError):
        return False


def chain_unchanged(folder: str, code: object, known: dict[str, bool]) -> bool:
    """Whether every file of the chain up to the link `code` is unchanged, each link read
    from an index folder and checked once a run (`known`: the answers so far)."""
    links: list[tuple[str, Link]] = []
    answer = True
    while code != "":
        if type(code) is not str or len(links) > _MAX_LINKS:
            answer = False
            break
        if code in known:
            answer = known[code]
            break
        link = read(folder, code)
        if link is None:
            answer = False
            break
        links.append((code, link))
        code = link[0]
    for code, link in reversed(links):
        answer = answer and unchanged(link)
        known[code] = answer
    return answer


def read(folder: str, code: str) -> Link | None:
    """The link `code` kept in an index folder; None when missing, damaged or not the link
    its name says (never trusted)."""
    found = KNOWN.get(code)
    if found is not None:
        return found
    try:
        with open(os.path.join(folder, PREFIX + code), "rb") as handle:
            data = handle.read()
        if not data.startswith(_MAGIC):
            return None
        from speclint.core import json_read

        parent, paths, signatures = json_read.loads(data[len(_MAGIC) :])
        if type(parent) is not str or type(paths) is not list or type(signatures) is not list:
            return None
        link = (parent, paths, signatures)
        if len(paths) != len(signatures) or link_id(link) != code:  # (refuses what marshal cannot write)
            return None
    except Exception:
        return None
    KNOWN[code] = link
    return link


def write(folder: str, code: str, done: set[str]) -> None:
    """Keep the link `code` and those before it (made, received or read by this process) in
    an index folder, each once a run (`done`); one kept there for a day or more is marked as
    used (its mtime: the index drops what is unused for 30 days)."""
    from speclint.core.json_write import dumps
    from speclint.core.kept import write_atomically

    while code and code not in done:
        done.add(code)
        link = KNOWN.get(code)
        if link is None:
            return
        path = os.path.join(folder, PREFIX + code)
        try:
            if time.time() - os.stat(path).st_mtime > 86400:  # (`ResultCache.save` prunes)
                os.utime(path)
        except OSError:
            try:
                write_atomically(path, _MAGIC + dumps(list(link)).encode("utf-8", "surrogatepass"))
            except (OSError, TypeError, ValueError):
                return
        code = link[0]


def merged(codes: Iterable[str]) -> Files | None:
    """The files of the chains up to the links `codes` (known to this process), as one list;
    None when a link is unknown or two say different things of a file."""
    files: dict[str, list[int]] = {}
    done: set[str] = set()
    for code in codes:
        while code and code not in done:
            done.add(code)
            link = KNOWN.get(code)
            if link is None:
                return None
            for path, signature in zip(link[1], link[2]):
                if files.setdefault(path, signature) != signature:
                    return None
            code = link[0]
    paths = sorted(files)
    return paths, [files[path] for path in paths]


def stats_hash(signatures: list[list[int]]) -> int:
    """One number for a list's stats: Python's hash of integers, which no hash seed changes (a
    record is read only by the Python that wrote it: `cache.code_fingerprint`)."""
    return hash(tuple(map(tuple, signatures)))
