"""The result cache's index: one SQLite file per cache folder (`v2/index.sqlite`) with an entry
per (file, settings), looked up by key as files come and written in batches, so a run reads
one file rather than one per linted file and its memory stays flat over any number of files.

SQLite, not a JSON file read whole: 10,000 entries would be ~20 MB held in memory for the
whole run. Two runs at once are serialised by SQLite's locking; one that cannot write within
a few seconds drops its new entries (the next run lints those files again). A file that is not
a SQLite database, or one written by another speclint (its `code` differs), is emptied, never
trusted. Entries not used for 30 days are dropped at the end of a run.
"""

from __future__ import annotations

import os
import time

from speclint.core import json_read, json_write
from speclint.runner.cache import (
    FORMAT,
    Checker,
    _quiet,
    _same_content,
    code_fingerprint,
    options_key,
    stat_of,
)
from speclint.runner.result_codec import decode_result

TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3
    from collections.abc import Callable, Generator, Iterable, Iterator
    from typing import Any

    from speclint.runner.cache import Answer, Entry

_KEEP_DAYS = 30
_BATCH = 256
"""Entries written per transaction."""
_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS meta(name TEXT PRIMARY KEY, value TEXT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS entries(key TEXT PRIMARY KEY, entry TEXT NOT NULL, "
    "seen INTEGER NOT NULL);"
)


class ResultCache:
    """One cache folder (`--cache-dir`, default `.speclint_cache` in the working directory)."""

    def __init__(self, directory: str, built: tuple[Any, type], recorder: Any = None) -> None:
        self.directory = directory
        self.built = built
        """(result class, per-launch summary class): what stored results are built as."""
        self.recorder = recorder
        """A `speclint.runner.replay.Recorder` told the entry of every file answered or linted."""
        self.path = os.path.join(directory, f"v{FORMAT}", "index.sqlite")
        self.db: sqlite3.Connection | None = None
        self.unusable = False
        self.pending: dict[str, Entry] = {}
        """Entries to write (new ones, and used ones whose stat or day changed)."""
        self.checker = Checker()
        self.today = int(time.time() // 86400)

    def _open(self) -> sqlite3.Connection | None:
        if self.db is None and not self.unusable:
            import sqlite3

            for attempt in range(2):
                try:
                    self.db = self._connect()
                    break
                except (sqlite3.Error, OSError):
                    self._close()
                    if attempt == 0:  # damaged or foreign: start a new one
                        try:
                            os.unlink(self.path)
                        except OSError:
                            pass
            else:
                self.unusable = True  # no cache this run
        return self.db

    def _connect(self) -> sqlite3.Connection:
        import sqlite3

        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        self._mark_folder()
        db = sqlite3.connect(self.path, timeout=5, isolation_level=None)
        self.db = db
        # a cache: no fsync per transaction (a file damaged by a crash is emptied, as any
        # index that cannot be read; ruff's cache does not sync either)
        db.execute("PRAGMA synchronous=OFF")
        db.executescript(_SCHEMA)
        db.execute("SELECT key, entry, seen FROM entries LIMIT 0")  # another shape: raises
        db.execute("SELECT name, value FROM meta LIMIT 0")
        rows = db.execute("SELECT value FROM meta WHERE name = 'code'").fetchall()
        if not rows or rows[0][0] != code_fingerprint():  # another speclint's: not trusted
            db.execute("BEGIN IMMEDIATE")
            db.execute("DELETE FROM entries")
            db.execute("INSERT OR REPLACE INTO meta VALUES ('code', ?)", (code_fingerprint(),))
            db.execute("COMMIT")
        return db

    def _close(self) -> None:
        if self.db is not None:
            try:
                self.db.close()
            except Exception:
                pass
            self.db = None

    def lookup(self, path: str, options: object) -> dict[str, Any] | None:
        """The stored result (still encoded) if the file and all it depends on are unchanged."""
        db = self._open()
        if db is None:
            return None
        key = options_key(path, options)
        try:
            # fetchall: the statement ends here and holds no lock while the run goes on
            rows = db.execute("SELECT entry FROM entries WHERE key = ?", (key,)).fetchall()
            if not rows:
                return None
            entry = json_read.loads(rows[0][0])
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
            stored = entry["result"]
            if not isinstance(stored, dict):
                return None
        except Exception:
            return None
        if changed or entry.get("seen") != self.today:
            self.store(key, entry)  # quiet from now on / used today
        if self.recorder is not None:
            self.recorder.file(path, entry)
        return stored

    def store(self, key: str, entry: Entry) -> None:
        entry["seen"] = self.today
        self.pending[key] = entry
        if len(self.pending) >= _BATCH:
            self._flush()

    def _flush(self) -> None:
        """Write the pending entries in one transaction; a failure drops them (they are
        linted again next time)."""
        import sqlite3

        rows = [(key, json_write.dumps(entry), entry["seen"]) for key, entry in self.pending.items()]
        self.pending.clear()
        db = self._open()
        if db is None or not rows:
            return
        try:
            db.execute("BEGIN IMMEDIATE")
            db.executemany("INSERT OR REPLACE INTO entries VALUES (?, ?, ?)", rows)
            db.execute("COMMIT")
        except (sqlite3.Error, TypeError, ValueError):
            try:
                db.execute("ROLLBACK")
            except sqlite3.Error:
                pass

    def decode(self, stored: dict[str, Any]) -> Any:
        """The result of a stored one; None when it cannot be built (not trusted)."""
        try:
            return decode_result(stored, self.built)
        except Exception:
            return None

    def save(self) -> None:
        """Write what is pending, drop entries unused for _KEEP_DAYS, close."""
        import sqlite3

        if self.db is None and not self.pending:
            return
        self._flush()
        if self.db is not None:
            try:
                self.db.execute("DELETE FROM entries WHERE seen < ?", (self.today - _KEEP_DAYS,))
            except sqlite3.Error:
                pass
        self._close()

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
