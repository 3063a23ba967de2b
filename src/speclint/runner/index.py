"""The result cache's index: one folder per cache folder and speclint
(`v2/index-<code>/`, `<code>` from `speclint.runner.cache.code_fingerprint`) with an entry
file per (file, settings), named by its key, and a file per link of the chains of speclint's
own files that entries name (`code-<id>`, `speclint.runner.code_used`): a run reads only the
entries of the files it lints and the links they name, and its memory stays flat over any
number of files.

Files, not a database: a run over one file just edited (a pre-commit hook) reads one missing
entry and writes one, where loading SQLite (its library, `sqlite3.dbapi2`, `datetime`) cost
~10 M instructions of a ~190 M run. Each entry is written to a new file renamed over the
old one, so two runs at once each see a whole entry, the last one written wins. An entry
starts with a line naming its format, the speclint that wrote it and its key, then its JSON
(read by `core.json_read`, only the classes `result_codec` lists built from it): any other
first line, a file that is not such JSON, or an entry of the wrong shape is a miss, never
trusted, and is written over. The first run of another speclint (its folder new) removes the
folders of others and an index of the SQLite format before it. Entries not used for 30 days
are dropped, looked for at most once a day (`.pruned`'s mtime says when last).
"""

from __future__ import annotations

import os
import time

from speclint.core import json_read, json_write
from speclint.runner import code_used
from speclint.runner.cache import _same_content, options_key
from speclint.runner.inputs_check import FORMAT, Checker, _quiet, code_fingerprint, stat_of
from speclint.runner.result_codec import decode_result

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Generator, Iterable, Iterator
    from typing import Any

    from speclint.runner.cache import Answer, Entry

_KEEP_DAYS = 30
_BATCH = 256
"""Entries kept in memory before they are written."""
_MAGIC = b"speclint-entry %d " % FORMAT
_PRUNED = ".pruned"
_DAY_S = 86400


class ResultCache:
    """One cache folder (`--cache-dir`, default `.speclint_cache` in the working directory)."""

    def __init__(self, directory: str, built: tuple[Any, type], recorder: Any = None) -> None:
        self.directory = directory
        self.built = built
        """(result class, per-launch summary class): what stored results are built as."""
        self.recorder = recorder
        """A `speclint.runner.replay_record.Recorder` told the entry of every file answered or linted."""
        self.path = os.path.join(directory, f"v{FORMAT}", "index-" + code_fingerprint())
        self.ready = False
        """The folder is known to be there (made, marked, others' folders removed)."""
        self.unusable = False
        self.pending: dict[str, Entry] = {}
        """Entries to write (new ones, and used ones whose stat or day changed)."""
        self.checker = Checker()
        self.today = int(time.time() // _DAY_S)
        self.code_known: dict[str, bool] = {}
        """Links of speclint's files checked this run: unchanged or not (`code_used`)."""
        self.lists: set[str] = set()
        """The links of the entries stored this run (written once a run, touched once a day)."""
        self.written: set[str] = set()

    def _head(self, key: str) -> bytes:
        """An entry's first line: its format, the speclint that wrote it, its key."""
        return b"%s%s %s\n" % (_MAGIC, code_fingerprint().encode(), key.encode())

    def lookup(self, path: str, options: object) -> dict[str, Any] | None:
        """The stored result (still encoded) if the file and all it depends on are unchanged."""
        if self.unusable:
            return None
        key = options_key(path, options)
        try:
            with open(os.path.join(self.path, key), "rb") as handle:
                data = handle.read()
            head = self._head(key)
            if not data.startswith(head):  # another format, speclint or key: not trusted
                return None
            entry = json_read.loads(data[len(head) :])
            info = os.stat(path)
            signature = stat_of(info)
            changed = False
            if signature != entry["stat"] or not _quiet(signature, entry["taken"]):
                if not _same_content(path, info, entry["hash"]):
                    return None
                entry["stat"], entry["taken"], changed = signature, time.time_ns(), True
            for dep, dep_signature, seen, taken in entry["depends"]:
                if not self.checker.unchanged(dep, dep_signature, seen, taken):
                    return None
            if not self._code_unchanged(entry["code"]):
                return None
            stored = entry["result"]
            if not isinstance(stored, dict):
                return None
        except Exception:
            return None
        if changed or entry.get("seen") != self.today:
            self.store(key, entry)  # quiet from now on / used today (its list too)
        if self.recorder is not None:
            self.recorder.file(path, entry)
        return stored

    def _code_unchanged(self, code: object) -> bool:
        """Whether speclint's files that an entry's lint ran (the chain of links it names)
        are unchanged: each link checked once a run."""
        return code_used.chain_unchanged(self.path, code, self.code_known)

    def store(self, key: str, entry: Entry) -> None:
        for code, parent, paths, stats in entry.pop("code_files", ()):  # made in a worker, or here
            code_used.KNOWN.setdefault(code, (parent, paths, stats))
            self.lists.add(code)
        self.lists.add(entry["code"])
        entry["seen"] = self.today
        self.pending[key] = entry
        if len(self.pending) >= _BATCH:
            self._flush()

    def _flush(self) -> None:
        """Write the pending entries; one that cannot be written is dropped (linted again
        next time)."""
        from speclint.core.kept import write_atomically

        pending = list(self.pending.items())
        self.pending.clear()
        if not pending or not self._ready():
            return
        for code in self.lists:  # (before the entries that name them)
            code_used.write(self.path, code, self.written)
        for key, entry in pending:
            try:
                data = json_write.dumps(entry).encode("utf-8", "surrogatepass")
                write_atomically(os.path.join(self.path, key), self._head(key) + data)
            except (OSError, TypeError, ValueError):
                pass

    def _ready(self) -> bool:
        """Make the index folder once a run: a new one marks the cache folder as ruff does
        and removes the indexes of other speclints (not trusted; kept from growing)."""
        if not self.ready and not self.unusable:
            try:
                os.makedirs(os.path.dirname(self.path), exist_ok=True)
                try:
                    os.mkdir(self.path)
                except FileExistsError:
                    pass
                else:
                    self._mark_folder()
                    self._remove_others()
                self.ready = True
            except OSError:
                self.unusable = True  # no cache this run
        return self.ready

    def _remove_others(self) -> None:
        import shutil

        parent, mine = os.path.split(self.path)
        for name in os.listdir(parent):
            other = os.path.join(parent, name)
            if name.startswith("index-") and name != mine:
                shutil.rmtree(other, ignore_errors=True)
            elif name.startswith("index.sqlite"):  # the SQLite format's index and journal
                try:
                    os.unlink(other)
                except OSError:
                    pass

    def decode(self, stored: dict[str, Any]) -> Any:
        """The result of a stored one; None when it cannot be built (not trusted)."""
        try:
            return decode_result(stored, self.built)
        except Exception:
            return None

    def save(self) -> None:
        """Write what is pending; once a day, drop the entries unused for _KEEP_DAYS."""
        self._flush()
        if not self.ready:
            return
        stamp = os.path.join(self.path, _PRUNED)
        try:
            if os.stat(stamp).st_mtime // _DAY_S >= self.today:
                return
        except OSError:
            pass
        try:
            with open(stamp, "wb"):
                pass
            oldest = (self.today - _KEEP_DAYS) * _DAY_S
            with os.scandir(self.path) as entries:
                for entry in entries:
                    if entry.name != _PRUNED and entry.stat().st_mtime < oldest:
                        os.unlink(entry.path)
        except OSError:
            pass

    def _mark_folder(self) -> None:
        """As ruff does: the cache folder ignores itself in git and says it is a cache."""
        ignore = os.path.join(self.directory, ".gitignore")
        if not os.path.exists(ignore):
            with open(ignore, "w", encoding="utf-8") as handle:
                handle.write("# Automatically created by speclint.\n*\n")
            with open(os.path.join(self.directory, "CACHEDIR.TAG"), "w", encoding="utf-8") as handle:
                handle.write(
                    "Signature: 8a477f597d28d172789f06886806bc55\n"
                    "# This file is a cache directory tag created by speclint.\n"
                )

    def through(
        self,
        jobs: Iterable[tuple[Any, ...]],
        lint_all: Callable[[Iterator[tuple[Any, ...]]], Iterable[Answer]],
        lint_one: Callable[[tuple[Any, ...]], Answer],
    ) -> Generator[Answer, None, None]:
        """`lint_all(jobs)`'s (result, error) pairs in input order, with every job whose entry
        is still good answered from the index instead (a job is (path, options, ...)); the
        entries of the files linted are stored. A stored result that cannot be built is not
        trusted: `lint_one(job)` lints that file here."""
        from collections import deque

        waiting: deque[tuple[tuple[Any, ...], dict[str, Any] | None]] = deque()

        def missed() -> Iterator[tuple[Any, ...]]:
            for job in jobs:
                stored = self.lookup(job[0], job[1]) if job[0] != "-" else None
                waiting.append((job, stored))
                if stored is None:
                    yield job

        def ready() -> Iterator[Answer]:
            while waiting and waiting[0][1] is not None:
                job, stored = waiting.popleft()
                result = self.decode(stored) if stored is not None else None
                if result is None and self.recorder is not None:
                    self.recorder.complete = False
                yield self._kept(lint_one(job)) if result is None else (result, None)

        try:
            for answer in lint_all(missed()):
                yield from ready()
                waiting.popleft()
                yield self._kept(answer)
            yield from ready()
        finally:
            self.save()

    def _kept(self, answer: Answer) -> Answer:
        """(result, error) of a lint; its index entry, when it has one, is stored."""
        if len(answer) == 3:
            result, error, (key, entry) = answer
            if entry is not None:
                self.store(key, entry)
                if self.recorder is not None:
                    self.recorder.file(result.path, entry)
                return result, error
        if self.recorder is not None:  # a file not cached: the run is not recorded
            self.recorder.complete = False
        return answer[:2]
