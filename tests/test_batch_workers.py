"""Big batches run in worker processes: input order kept, and a worker that dies (a crash in
a native parser) costs only its file, never a hang."""

from __future__ import annotations

import os

from speclint import checking
from speclint.lint import LintOptions

SCRIPT = "python -m sglang.launch_server --model-path m --tp {n}\n"


def _jobs(tmp_path, count):
    paths = []
    for n in range(count):
        path = tmp_path / f"launch_{n:03d}.sh"
        path.write_text(SCRIPT.format(n=n + 1))
        paths.append(str(path))
    return [(p, LintOptions(), False) for p in paths]


def _dies_on_seven(job):
    if job[0].endswith("launch_007.sh"):
        os._exit(139)  # what a segmentation fault in tree-sitter looks like to the parent
    return _real_lint_job(job)


_real_lint_job = checking.lint_job


def test_order_is_kept_across_workers(tmp_path, monkeypatch):
    monkeypatch.setenv("SPECLINT_WORKERS", "2")
    jobs = _jobs(tmp_path, 110)
    results = list(checking._lint_all(jobs))
    assert [r.path for r, _ in results] == [j[0] for j in jobs]


def test_a_dying_worker_costs_only_its_file(tmp_path, monkeypatch):
    monkeypatch.setenv("SPECLINT_WORKERS", "2")
    monkeypatch.setattr(checking, "lint_job", _dies_on_seven)
    jobs = _jobs(tmp_path, 110)
    results = list(checking._lint_all(jobs))
    assert len(results) == 110
    errors = [e for _, e in results if e]
    assert len(errors) == 1 and errors[0].startswith(jobs[7][0] + ": internal error")
    assert all(r is not None for i, (r, _) in enumerate(results) if i != 7)
