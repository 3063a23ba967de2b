"""What a replayed run (`runner.replay`) and the result cache check of their inputs: whether
files are as a record or an index entry says (by stat, then by content), and the fingerprint
of speclint and the Python running it that their keys hold. Small, and read from its .pyc by
every replay: what writes records and entries, and lints for the cache, is in `runner.cache`.
"""

from __future__ import annotations

import os

try:  # what `hashlib.blake2b` is (hashlib blocks OpenSSL's for BLAKE2), without importing
    # OpenSSL's `_hashlib` (~2.5 ms: a tenth of a replayed run)
    from _blake2 import blake2b as blake2b
except ImportError:  # a Python built without it
    from hashlib import blake2b as blake2b

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

FORMAT = 2
DEFAULT_DIR = ".speclint_cache"
_RACY_NS = 2_000_000_000
"""A stat is trusted only for files unchanged for this long before it was taken."""
_HASHED_UP_TO = 1024 * 1024
"""Dependencies up to this size are compared by content, bigger ones (safetensors weights,
of which only the header is read) by stat alone."""
ENV_READ = ("HF_HUB_CACHE", "HF_HOME", "HOME")
"""Environment variables a lint reads (where the Hugging Face cache is)."""


_FINGERPRINT: list[str] = []
"""`code_fingerprint()`, once worked out (functools is not imported: a replayed run skips it)."""


def code_fingerprint() -> str:
    """speclint's version and where it is installed, the Python running it, the environment
    a lint reads and any installed sglang. speclint's own files are not in it: each entry
    (and each replay record) holds the list of those its lint ran (`runner.code_used`),
    checked by stat when it is used."""
    if not _FINGERPRINT:
        _FINGERPRINT.append(_code_fingerprint())
    return _FINGERPRINT[0]


_LISTS = "code-lists"
"""(in the fingerprint) Entries name the list of speclint's files their lint ran: an index
of a speclint that hashed all of its files into the key is another index."""


def _code_fingerprint() -> str:
    import sys

    import speclint

    root = os.path.dirname(os.path.abspath(speclint.__file__))
    digest = blake2b(
        f"{FORMAT}:{_LISTS}:{speclint.__version__}:{sys.version}\0{root}\0".encode("utf-8", "surrogatepass"),
        digest_size=16,
    )
    for name in ENV_READ:
        digest.update(f"{name}={os.environ.get(name)}\n".encode("utf-8", "surrogatepass"))
    digest.update(repr(_installed_sglang()).encode())
    return digest.hexdigest()


def _installed_sglang() -> list[str]:
    """The sglang `.dist-info` folders on sys.path (the release a launch may be checked
    against when nothing else says which)."""
    import sys

    found = []
    for folder in sys.path:
        try:
            names = os.listdir(folder or ".")
        except OSError:
            continue
        # one search in C through the folder's ~200 names (the standard library's, those of
        # site-packages) first: a comparison per name in Python was 0.6 M instructions a run
        if "\0sglang-" not in "\0".join(("", *names)):
            continue
        found += [name for name in names if name.startswith("sglang-") and name.endswith(".dist-info")]
    return sorted(found)


def stat_of(info: os.stat_result) -> list[int]:
    return [info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino, info.st_dev]


def _quiet(signature: list[int], taken_ns: int) -> bool:
    """The file had not changed for _RACY_NS when its signature was taken (not racy)."""
    return max(signature[1], signature[2]) + _RACY_NS < taken_ns


def content_hash(data: bytes) -> str:
    return blake2b(data, digest_size=16).hexdigest()


def fingerprint(path: str, stamp: int | None = None) -> tuple[list[int] | None, str]:
    """(stat signature, what the dependency is now): missing, a folder, a file's content hash
    (or "big": its stat alone), or for a `depends.note_glob` listing the names it matches
    (with `stamp`, the folder's mtime_ns: the lint's own listing under that stamp)."""
    from speclint.runner.depends import GLOB, matching_names

    if path.startswith(GLOB):
        # no stat signature: folders such as /tmp change all the time, so the names are
        # listed on every check (a few folders a run)
        folder, pattern = path[len(GLOB) :].split("\0")
        return None, "names:" + "/".join(matching_names(folder, pattern, stamp))
    try:
        info = os.stat(path)
    except OSError:
        return None, "missing"
    signature = stat_of(info)
    import stat

    if stat.S_ISDIR(info.st_mode):  # what is in it (a walk lints what it lists)
        try:
            names = sorted(os.listdir(path))
        except OSError:
            return signature, "unreadable"
        return signature, "dir:" + content_hash("\0".join(names).encode("utf-8", "surrogatepass"))
    if not stat.S_ISREG(info.st_mode):
        return signature, "other"
    if info.st_size > _HASHED_UP_TO:
        return signature, "big"
    try:
        with open(path, "rb") as handle:
            return signature, content_hash(handle.read(_HASHED_UP_TO + 1))
    except OSError:
        return signature, "unreadable"


def _stats_hash(signatures: list[Any]) -> int:
    """One number for many stat signatures: Python's hash of integers, which no hash seed
    changes (a record is read only by the Python that wrote it: `code_fingerprint`)."""
    return hash((len(signatures), tuple(signatures)))


def inputs_unchanged(quiet: list[Any], stats: object, missing: list[Any], other: list[Any]) -> bool:
    """Whether every input `record_inputs` wrote is as it was: a replay checks ~1,300 of
    them for 1,000 files. The quiet ones (most) in one comprehension, a `os.stat` each and
    one hash for all (any file touched, even with the same content, means a real run);
    `os.access` for what was missing (no exception raised per path); the rest as `Checker`
    checks an index entry's dependencies."""
    stat = os.stat
    try:
        now = [(i.st_size, i.st_mtime_ns, i.st_ctime_ns, i.st_ino, i.st_dev) for i in map(stat, quiet)]
    except (OSError, TypeError, ValueError):
        return False
    if type(stats) is not int or _stats_hash(now) != stats:
        return False
    exists, there = os.access, os.F_OK
    for path in missing:
        if exists(path, there) and fingerprint(path)[1] != "missing":
            return False
    checker = Checker()
    steps = iter(other)
    return all(checker.unchanged(*input) for input in zip(steps, steps, steps, steps))


class Checker:
    """Whether dependencies are unchanged since an entry or record was written, each worked
    out once per run (a batch depends on the same few model configs and folders)."""

    def __init__(self) -> None:
        self.known: dict[str, bool] = {}

    def unchanged(self, path: str, signature: list[int] | None, seen: str, taken: int) -> bool:
        known = self.known.get(path)
        if known is None:
            if signature is not None and _stat_matches(path, signature, taken):
                known = True
            else:
                now_signature, now = fingerprint(path)
                known = now == seen and (seen != "big" or now_signature == signature)
            self.known[path] = known
        return known


def _stat_matches(path: str, signature: list[int], taken: int) -> bool:
    try:
        now = stat_of(os.stat(path))
    except OSError:
        return False
    return now == signature and _quiet(signature, taken)


def files_unchanged(paths: object, stats: object) -> bool:
    """For a replay: whether the files of a record's list of speclint's files
    (`runner.code_used`) have the stats `code_used.stats_hash` gave."""
    if type(paths) is not list or type(stats) is not int:
        return False
    stat = os.stat
    try:
        now = [(i.st_size, i.st_mtime_ns) for i in map(stat, paths)]
    except (OSError, TypeError, ValueError):
        return False
    return hash(tuple(now)) == stats
