"""What a forked worker adds to the stores kept between runs (`core.kept`: a release's flag
table read from JSON, a module imported the usual way) comes back to the process that
forked it, which writes the stores when the run ends: a run made only of parallel batches
learns what its workers worked out, instead of working it out again on every run."""

from __future__ import annotations

import sys

from speclint.core import kept
from speclint.runner.forked import ForkedWorker


def _store(folder, monkeypatch):
    monkeypatch.setattr(sys, "dont_write_bytecode", False)  # (stores are written as .pyc files are)
    monkeypatch.setattr(kept, "_STORES", [])
    store = kept.Kept(str(folder), "learning", 1)
    store.put("here", "put before the fork")
    return store


def test_what_a_worker_put_in_a_store_is_written_by_the_process_that_forked_it(tmp_path, monkeypatch):
    store = _store(tmp_path, monkeypatch)

    def lint_batch(jobs):
        for job in jobs:
            store.put(("table", job), job * 2)
        store.put("here", "put by the worker")
        return [job + 1 for job in jobs]

    worker = ForkedWorker(frozenset(), lint_batch)
    assert worker.submit([1, 2], None).result() == [2, 3]
    worker.end(wait=True)
    kept.save_all()
    again = kept.Kept(str(tmp_path), "learning", 1)
    assert [again.get(("table", 1)), again.get(("table", 2))] == [2, 4]
    assert again.get("here") == "put before the fork"  # (what this process holds is kept)


def test_a_worker_ended_early_adds_nothing(tmp_path, monkeypatch):
    store = _store(tmp_path, monkeypatch)

    def lint_batch(jobs):
        store.put("worker", 1)
        return jobs

    worker = ForkedWorker(frozenset(), lint_batch)
    assert worker.submit([1], None).result() == [1]
    worker.end(wait=False)  # (Ctrl-C, a caller that stopped early)
    assert store.get("worker") is None


def test_a_damaged_message_adds_nothing(tmp_path, monkeypatch):
    store = _store(tmp_path, monkeypatch)
    kept.take(b"not marshalled")
    kept.take(b"")
    assert store.keys() == ["here"]
