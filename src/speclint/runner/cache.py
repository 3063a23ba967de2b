"""A cache of `check` results per file, as ruff's `.ruff_cache`: a re-run over unchanged files
reads stored findings instead of linting again.

An entry is found by a key over everything the result depends on that is known before
linting: the cache format, speclint's own code and data (version, and the size and mtime of
its installed files, so an editable install invalidates too), the file's path and bytes, and
the options that apply to it (rule selection, SGLang version, model-config mapping). The
files a lint read or looked for besides (model `config.json`, safetensors headers, Hugging
Face refs; `speclint.runner.depends`) are stored with the entry and re-checked before it is used.

Entries are JSON, never pickle: a damaged or foreign entry is a miss and is overwritten,
never trusted. A file that could not be read is never cached. Writes are atomic (a
temporary file, then rename), so concurrent workers and interrupted runs leave no half entry.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import json
import os
import tempfile
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from speclint.runner.results import CheckedFile
    from speclint.settings.options import LintOptions

FORMAT = 1
DEFAULT_DIR = ".speclint_cache"
_HASHED_UP_TO = 1024 * 1024
"""Dependencies up to this size are compared by content, bigger ones (safetensors weights,
of which only the header is read) by size and modification time."""


@lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """speclint's version and the size and mtime of every file of the installed package."""
    import speclint

    root = os.path.dirname(os.path.abspath(speclint.__file__))
    digest = hashlib.blake2b(f"{FORMAT}:{speclint.__version__}".encode(), digest_size=16)
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if name.endswith((".pyc", ".pyo")):
                continue
            info = os.stat(os.path.join(folder, name))
            digest.update(f"{os.path.relpath(os.path.join(folder, name), root)}:{info.st_size}:"
                          f"{info.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def entry_key(path: str, data: bytes, options: LintOptions) -> str:
    digest = hashlib.blake2b(digest_size=20)
    # the path as given is what findings print; the absolute one tells files apart
    for part in (code_fingerprint(), path, os.path.abspath(path), repr(options)):
        digest.update(part.encode("utf-8", "surrogatepass") + b"\0")
    digest.update(data)
    return digest.hexdigest()


def fingerprint(path: str) -> str:
    """What a dependency is now: missing, a folder, or a file's content (or size + mtime)."""
    try:
        info = os.stat(path)
    except OSError:
        return "missing"
    if not os.path.isfile(path):
        return "other"
    if info.st_size > _HASHED_UP_TO:
        return f"stat:{info.st_size}:{info.st_mtime_ns}"
    try:
        with open(path, "rb") as handle:
            return "blake2b:" + hashlib.blake2b(handle.read(_HASHED_UP_TO + 1),
                                                digest_size=16).hexdigest()
    except OSError:
        return "unreadable"


# -- results to JSON and back (only these classes; nothing else is ever built from a file) --

@lru_cache(maxsize=1)
def _classes() -> dict[str, type]:
    from speclint.core.findings import Edit, Finding, Note, Severity
    from speclint.core.spans import Span
    from speclint.rules.base import VersionChoice
    from speclint.runner.results import LaunchSummary

    return {cls.__name__: cls for cls in (Edit, Finding, Note, Severity, VersionChoice, Span,
                                          LaunchSummary)}


def _encode(value: object) -> object:
    """JSON-able form: a dataclass is ["d", class, field values in order...], a tuple
    ["t", items...], an enum ["e", class, value], a dict ["m", [key, value]...], a list
    ["l", items...]; strings, numbers, booleans and None stay as they are."""
    if isinstance(value, enum.Enum):  # before int: Severity is an IntEnum
        return ["e", type(value).__name__, value.value]
    if isinstance(value, (str, int, float)) or value is None:  # bool is an int
        return value
    if isinstance(value, tuple):
        return ["t", *map(_encode, value)]
    if isinstance(value, list):
        return ["l", *map(_encode, value)]
    if isinstance(value, dict):
        return ["m", *([_encode(k), _encode(v)] for k, v in value.items())]
    cls: type = type(value)  # type[object] reads as unhashable to mypy
    names = _field_names(cls)
    return ["d", type(value).__name__, *(_encode(getattr(value, name)) for name in names)]


@lru_cache(maxsize=None)
def _field_names(cls: type) -> tuple[str, ...]:
    if dataclasses.is_dataclass(cls):
        return tuple(f.name for f in dataclasses.fields(cls) if f.init)
    if cls.__name__ == "LaunchSummary":
        slots: tuple[str, ...] = getattr(cls, "__slots__")
        return tuple(slots)
    raise TypeError(f"cannot cache a {cls.__name__}")


def _decode(value: object, classes: dict[str, type]) -> Any:
    if not isinstance(value, list):
        return value
    tag, items = value[0], value[1:]
    if tag == "d":
        cls = classes[items[0]]  # KeyError for any other class: the entry is not trusted
        names = _field_names(cls)
        if len(items) - 1 != len(names):
            raise ValueError("stored fields do not match")
        return cls(*[_decode(item, classes) if isinstance(item, list) else item
                     for item in items[1:]])
    if tag == "l":
        return [_decode(item, classes) if isinstance(item, list) else item for item in items]
    if tag == "t":
        return tuple([_decode(item, classes) if isinstance(item, list) else item
                      for item in items])
    if tag == "m":
        return {_decode(k, classes): _decode(v, classes) for k, v in items}
    if tag == "e":
        return classes[items[0]](items[1])
    raise ValueError(f"unknown tag {tag!r}")


def encode_result(result: CheckedFile) -> dict[str, object]:
    return {"path": result.path, "findings": _encode(result.findings),
            "contexts": _encode(result.contexts), "lines": _encode(result.lines),
            "launch_not_found": result.launch_not_found}


def decode_result(stored: dict[str, Any]) -> CheckedFile:
    from speclint.runner.results import CheckedFile

    classes = _classes()
    return CheckedFile(stored["path"], _decode(stored["findings"], classes),
                       _decode(stored["contexts"], classes), None,
                       lines=_decode(stored["lines"], classes),
                       launch_not_found=bool(stored["launch_not_found"]))


class ResultCache:
    """One cache folder (`--cache-dir`, default `.speclint_cache` in the working directory)."""

    def __init__(self, directory: str) -> None:
        self.directory = directory
        self.entries = os.path.join(directory, f"v{FORMAT}")

    def _entry_path(self, key: str) -> str:
        return os.path.join(self.entries, key[:2], key + ".json")

    def get(self, key: str) -> CheckedFile | None:
        """The stored result, or None: missing, damaged, foreign, or a dependency changed."""
        try:
            with open(self._entry_path(key), "rb") as handle:
                entry = json.loads(handle.read())
            if not isinstance(entry, dict) or entry.get("format") != FORMAT or entry.get("key") != key:
                return None
            for path, seen in entry["depends"]:
                if fingerprint(path) != seen:
                    return None
            return decode_result(entry["result"])
        except Exception:  # a damaged or foreign entry is a miss, whatever is wrong with it
            return None

    def put(self, key: str, result: CheckedFile, depends: set[str]) -> None:
        """Store a result; a failure to write only costs the next run a lint."""
        try:
            entry = {"format": FORMAT, "key": key,
                     "depends": [[path, fingerprint(path)] for path in sorted(depends)],
                     "result": encode_result(result)}
            folder = os.path.dirname(self._entry_path(key))
            os.makedirs(folder, exist_ok=True)
            self._mark_folder()
            fd, temporary = tempfile.mkstemp(dir=folder, prefix=".tmp-")
            with os.fdopen(fd, "wb") as handle:  # dumps: the C encoder, dump streams in Python
                handle.write(json.dumps(entry, separators=(",", ":")).encode("utf-8"))
            os.replace(temporary, self._entry_path(key))
        except (OSError, TypeError, ValueError):
            pass

    def _mark_folder(self) -> None:
        """As ruff does: the cache folder ignores itself in git and says it is a cache."""
        ignore = os.path.join(self.directory, ".gitignore")
        if not os.path.exists(ignore):
            with open(ignore, "w", encoding="utf-8") as handle:
                handle.write("# Automatically created by speclint.\n*\n")
            with open(os.path.join(self.directory, "CACHEDIR.TAG"), "w", encoding="utf-8") as handle:
                handle.write("Signature: 8a477f597d28d172789f06886806bc55\n"
                             "# This file is a cache directory tag created by speclint.\n")


def cached_check(path: str, options: LintOptions, cache: ResultCache,
                 lint: Callable[[str, str, LintOptions], CheckedFile]) -> CheckedFile | None:
    """`lint(text, path, options)` through the cache; None when the file cannot be read (the
    caller lints it the usual way, which reports why)."""
    from speclint.runner import depends
    from speclint.frontends.reading import read_bytes

    data, error, _size = read_bytes(path)
    if error is not None or data is None:
        return None
    key = entry_key(path, data, options)
    found = cache.get(key)
    if found is not None:
        return found
    with depends.recording() as noted:
        result = lint(data.decode("utf-8-sig", errors="replace"), path, options)
    if result.error is None:
        cache.put(key, result, noted)
    return result
