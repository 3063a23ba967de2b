"""A cache of `check` results per file, as ruff's `.ruff_cache`: a re-run over unchanged files
reads stored findings instead of linting again.

One index per cache folder (`speclint.runner.index`) holds an entry per (file, settings). An entry is found by a key over what is known before
linting: speclint's version and where it is installed, the Python running it, the environment a
lint reads (the Hugging Face cache location, an installed sglang), the file's path and the
options that apply to it (rule selection, SGLang version, model-config mapping). The entry holds
the file's content hash, the files a lint read or looked for besides (model `config.json`,
safetensors headers, Hugging Face refs, requirements pins; `speclint.runner.depends`), each with
its content hash, and names the list of speclint's own files (modules and data) its lint ran,
with their size and mtime (`speclint.runner.code_used`: an editable install invalidates too):
only those are statted, not the whole package.

Whether a file is unchanged is decided as git and ruff do, by `stat` first: the same size,
mtime, ctime, inode and device as when the entry was written means the same content, without
reading it. Unlike ruff (which trusts mtime alone), a stat taken within two seconds of the
file's last change is "racy" (a second write in the same clock tick keeps the mtime), so such
files are compared by content hash until they have been quiet for two seconds. ctime cannot be
set from user space, so `touch -d` or a copy that keeps mtimes is seen as a change.

Results are stored as JSON, never pickle, and only the classes `speclint.runner.result_codec`
lists are built from them: a damaged or foreign entry is a miss, never trusted. A file that could not be read
is never cached.
"""

from __future__ import annotations

import os
import time

from speclint.runner import inputs_check
from speclint.runner.inputs_check import (
    _quiet,
    _stat_matches,
    _stats_hash,
    blake2b,
    code_fingerprint,
    content_hash,
    fingerprint,
    stat_of,
)

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing is not imported at run time: a replayed run skips it
    from collections.abc import Callable
    from typing import Any

    Entry = dict[str, Any]
    """An index entry: stat, taken, hash, depends, code, seen, result (JSON)."""
    Answer = tuple[Any, ...]
    """(result, error), or (result, error, (key, entry)) of a file linted for the cache."""


def options_key(path: str, options: object) -> str:
    """The key of one (file, settings): the same for every run that lints it the same way."""
    digest = blake2b(digest_size=20)
    # the path as given is what findings print; the absolute one tells files apart
    for part in (code_fingerprint(), path, os.path.abspath(path), _options_text(options)):
        digest.update(part.encode("utf-8", "surrogatepass") + b"\0")
    return digest.hexdigest()


_options_texts: dict[object, str] = {}


def _options_text(options: object) -> str:
    """repr(options), worked out once per distinct options value (most files share one)."""
    try:
        text = _options_texts.get(options)
    except TypeError:  # unhashable: no memo
        return repr(options)
    if text is None:
        if len(_options_texts) > 1024:
            _options_texts.clear()
        text = _options_texts[options] = repr(options)
    return text


# -- linting a missed file (in a worker process) --


def lint_for_cache(
    path: str, options: object, lint: Callable[[str, str, Any], Any]
) -> tuple[Any, Entry | None]:
    """(result, index entry) of `lint(text, path, options)`, recording the files it read;
    (None, None) when the file cannot be read (the caller lints it the usual way, which
    reports why, and nothing is cached)."""
    import stat

    from speclint.frontends.reading import MAX_FILE_BYTES, decode_source
    from speclint.runner import code_used, depends
    from speclint.runner.result_codec import encode_result

    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None, None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_FILE_BYTES:
            return None, None
        taken = time.time_ns()
        with open(fd, "rb", closefd=False) as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError:
        return None, None
    finally:
        os.close(fd)
    if len(data) > MAX_FILE_BYTES:
        return None, None
    code_used.data_files()  # (their stats taken before a lint first reads them)
    with depends.recording() as noted:
        result = lint(decode_source(data), path, options)
    if result.error is not None:
        return result, None
    ran = code_used.current(inputs_check._RACY_NS)  # (read when run: tests shorten it)
    if ran is None:  # speclint's own files changing: nothing is cached
        return result, None
    entry = {
        "stat": stat_of(info),
        "taken": taken,
        "hash": content_hash(data),
        "depends": [[dep, *_dependency_now(dep)] for dep in sorted(noted)],
        "code": ran,
        "result": encode_result(result),
    }
    links = code_used.to_send()
    if links:  # (the links themselves, once a process: `ResultCache.store`)
        entry["code_files"] = links
    return result, entry


_dependencies_now: dict[str, tuple[Any, ...]] = {}


def _dependency_now(path: str) -> tuple[Any, ...]:
    """(stat signature, fingerprint, when taken) of a dependency; a batch of launches reads
    the same few model configs, so a fingerprint is reused while its stat is unchanged."""
    from speclint.runner.depends import GLOB

    found = _dependencies_now.get(path)
    if path.startswith(GLOB):  # listed again when the folder's mtime changed, as the pin
        try:  # reader itself does (`speclint.sglang.flags.versions`)
            stamp = os.stat(path[len(GLOB) :].split("\0")[0]).st_mtime_ns
        except OSError:
            stamp = None
        if found is not None and found[3] == stamp:
            return found[:3]
        found = _dependencies_now[path] = (*fingerprint(path, stamp), time.time_ns(), stamp)
        return found[:3]
    if found is not None and found[0] is not None and _stat_matches(path, found[0], found[2]):
        return found
    if len(_dependencies_now) > 4096:
        _dependencies_now.clear()
    taken = time.time_ns()
    found = _dependencies_now[path] = (*fingerprint(path), taken)
    return found


def record_inputs(inputs: dict[str, tuple[Any, ...]]) -> dict[str, Any]:
    """A run's inputs (path -> (stat signature, fingerprint, when taken)) as a record holds
    them, by how a replay checks each (`inputs_unchanged`): "quiet", the paths whose stat
    alone tells, and "stats", one hash of their stat signatures in that order; "missing",
    the paths that were not there; "other", flat (path, signature, fingerprint, when taken),
    checked as `Checker` does."""
    quiet: list[str] = []
    signatures: list[tuple[int, ...]] = []
    missing: list[str] = []
    other: list[Any] = []
    for path, (signature, seen, taken) in sorted(inputs.items()):
        if signature is None and seen == "missing":
            missing.append(path)
        elif signature is not None and _quiet(signature, taken):
            quiet.append(path)
            signatures.append(tuple(signature))
        else:
            other += (path, signature, seen, taken)
    return {"quiet": quiet, "stats": _stats_hash(signatures), "missing": missing, "other": other}


def entry_for(
    path: str, options: object, lint: Callable[[str, str, Any], Any]
) -> tuple[Any, tuple[str, Entry | None]]:
    """For a worker: (result, (key, entry)) of one file linted for the cache."""
    result, entry = lint_for_cache(path, options, lint)
    return result, (options_key(path, options), entry)


def _same_content(path: str, info: os.stat_result, stored_hash: str) -> bool:
    import stat

    if not stat.S_ISREG(info.st_mode):
        return False
    try:
        with open(path, "rb") as handle:
            return content_hash(handle.read()) == stored_hash
    except OSError:
        return False
