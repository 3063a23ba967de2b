"""Big batches run in worker processes: input order kept, and a worker that dies (a crash in
a native parser) costs only its file, never a hang; stopping early ends the workers."""

from __future__ import annotations

import os

from speclint.runner import workers
from speclint.settings.options import LintOptions

SCRIPT = "python -m sglang.launch_server --model-path m --tp {n}\n"


def _jobs(tmp_path, count):
    paths = []
    for n in range(count):
        path = tmp_path / f"launch_{n:03d}.sh"
        path.write_text(SCRIPT.format(n=n + 1))
        paths.append(str(path))
    return [(p, LintOptions(), False, None) for p in paths]


def _dies_on_seven(job):
    if job[0].endswith("launch_007.sh"):
        os._exit(139)  # what a segmentation fault in tree-sitter looks like to the parent
    return _real_lint_job(job)


_real_lint_job = workers.lint_job


def test_order_is_kept_across_workers(tmp_path, monkeypatch):
    monkeypatch.setenv("SPECLINT_WORKERS", "2")
    jobs = _jobs(tmp_path, 110)
    results = list(workers.lint_all(jobs))
    assert [r.path for r, _ in results] == [j[0] for j in jobs]


def test_a_dying_worker_costs_only_its_file(tmp_path, monkeypatch):
    monkeypatch.setenv("SPECLINT_WORKERS", "2")
    monkeypatch.setattr(workers, "lint_job", _dies_on_seven)
    jobs = _jobs(tmp_path, 110)
    results = list(workers.lint_all(jobs))
    assert len(results) == 110
    errors = [e for _, e in results if e]
    assert len(errors) == 1 and errors[0].startswith(jobs[7][0] + ": internal error")
    assert all(r is not None for i, (r, _) in enumerate(results) if i != 7)


def _dies_on_ninety(job):
    if job[0].endswith("launch_090.sh"):
        os._exit(139)
    return _real_lint_job(job)


def test_after_a_dying_worker_a_new_pool_lints_the_rest(tmp_path, monkeypatch):
    monkeypatch.setenv("SPECLINT_WORKERS", "2")
    monkeypatch.setattr(workers, "lint_job", _dies_on_ninety)
    jobs = _jobs(tmp_path, 300)
    results = list(workers.lint_all(jobs))
    assert [e for _, e in results if e] == [
        f"{jobs[90][0]}: internal error: the process linting this file died (a crash in a "
        "native parser); please report it with the file"
    ]
    assert [r.path for r, _ in results if r] == [j[0] for i, j in enumerate(jobs) if i != 90]


def test_standard_input_in_a_big_batch_is_read_here_in_order(tmp_path, monkeypatch):
    import io
    import sys

    monkeypatch.setenv("SPECLINT_WORKERS", "2")
    stdin = io.TextIOWrapper(io.BytesIO(b"python -m sglang.launch_server --tp-size x\n"))
    monkeypatch.setattr(sys, "stdin", stdin)
    jobs = _jobs(tmp_path, 110)
    jobs.insert(70, ("-", LintOptions(), False, None))
    results = list(workers.lint_all(jobs))
    assert [r.path for r, _ in results] == [j[0] for j in jobs[:70]] + ["<stdin>"] + [j[0] for j in jobs[71:]]
    assert "FLG005" in [f.code for f in results[70][0].findings]


def _child_processes():
    """This process's children, zombies included (a worker not waited for stays one)."""
    children = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == os.getpid():
                children.append(int(entry))
    return children


def test_stopping_early_ends_the_workers_at_once(tmp_path, monkeypatch):
    import time

    from speclint.runner.checking import stream_paths
    from speclint.settings.files import SettingsFinder
    from speclint.settings.merge import CommandLine

    monkeypatch.setenv("SPECLINT_WORKERS", "2")
    before = set(_child_processes())
    paths = [job[0] for job in _jobs(tmp_path, 2000)]
    stream = stream_paths(paths, CommandLine(), SettingsFinder(None, True))
    first = [next(stream) for _ in range(5)]
    assert [item[0].path for item in first] == paths[:5]
    workers = set(_child_processes()) - before
    assert len(workers) == 2
    start = time.monotonic()
    stream.close()
    assert time.monotonic() - start < 5
    assert not workers & set(_child_processes())  # ended and waited for: not even a zombie left


def test_workers_end_when_the_batch_is_done(tmp_path, monkeypatch):
    monkeypatch.setenv("SPECLINT_WORKERS", "2")
    before = set(_child_processes())
    results = list(workers.lint_all(_jobs(tmp_path, 110)))
    assert len(results) == 110
    assert set(_child_processes()) == before


MIXED = {
    ".sh": "python -m sglang.launch_server --model-path m --tp {n} --tp-size 2\n",
    ".py": 'import subprocess\nsubprocess.run(["python", "-m", "sglang.launch_server", "--model-path", "m", "--tp", "{n}", "--bogus"])\n',
    ".md": "# Serve\n\n```bash\npython -m sglang.launch_server --model-path m --tp {n} --speculative-num-steps x\n```\n",
    ".yaml": "services:\n  s:\n    command: python -m sglang.launch_server --model-path m --tp {n} --tp-size 3\n",
}


def _mixed_jobs(tmp_path, count):
    """Files of every kind, interleaved, each with findings that name its own number."""
    suffixes = list(MIXED)
    jobs = []
    for n in range(count):
        suffix = suffixes[(n * 7 // 5) % len(suffixes)]
        path = tmp_path / f"launch_{n:03d}{suffix}"
        path.write_text(MIXED[suffix].format(n=n + 1))
        jobs.append((str(path), LintOptions(), False, None))
    return jobs


def _seen(results):
    return [
        (r.path, [(f.code, f.span.line, f.span.column, f.message) for f in r.findings]) if r else e
        for r, e in results
    ]


def test_a_mixed_batch_in_workers_is_what_one_process_finds(tmp_path, monkeypatch):
    """Each worker reads the kinds it is given (`runner.pool`): same findings, same order."""
    jobs = _mixed_jobs(tmp_path, 160)
    monkeypatch.setenv("SPECLINT_WORKERS", "1")
    alone = _seen(workers.lint_all(jobs))
    monkeypatch.setenv("SPECLINT_WORKERS", "2")
    together = _seen(workers.lint_all(jobs))
    assert together == alone
    assert {path.rsplit(".", 1)[1] for path, found in alone if found} == {"sh", "py", "md", "yaml"}


def _dies_on_a_python_file(job):
    if job[0].endswith("launch_101.py"):
        os._exit(139)
    return _real_lint_job(job)


def test_a_worker_dying_on_one_kind_costs_only_its_file(tmp_path, monkeypatch):
    monkeypatch.setenv("SPECLINT_WORKERS", "2")
    jobs = _mixed_jobs(tmp_path, 160)
    assert jobs[101][0].endswith(".py")
    monkeypatch.setattr(workers, "lint_job", _dies_on_a_python_file)
    results = list(workers.lint_all(jobs))
    assert [e for _, e in results if e] == [
        f"{jobs[101][0]}: internal error: the process linting this file died (a crash in a "
        "native parser); please report it with the file"
    ]
    assert [r.path for r, _ in results if r] == [j[0] for i, j in enumerate(jobs) if i != 101]


def test_where_workers_are_not_forked_executors_keep_order_and_isolate_a_crash(tmp_path, monkeypatch):
    """(macOS, Windows: `runner.executors`.) Here the platform's default start method still
    forks, which lets the dying `lint_job` reach the workers."""
    from speclint.runner import pool

    monkeypatch.setenv("SPECLINT_WORKERS", "2")
    monkeypatch.setattr(pool, "forks", lambda: False)
    jobs = _mixed_jobs(tmp_path, 160)
    assert _seen(workers.lint_all(jobs)) == _seen(map(workers.lint_job, jobs))
    monkeypatch.setattr(workers, "lint_job", _dies_on_a_python_file)
    results = list(workers.lint_all(jobs))
    assert [e for _, e in results if e] == [
        f"{jobs[101][0]}: internal error: the process linting this file died (a crash in a "
        "native parser); please report it with the file"
    ]
    assert [r.path for r, _ in results if r] == [j[0] for i, j in enumerate(jobs) if i != 101]
