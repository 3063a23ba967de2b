"""speclint's own files in the result cache and the replay (`speclint.runner.code_used`): a
stored result or a recorded run is trusted only while every module its lint ran and every
data file are as they were; a module the lint never imported may change without a re-lint."""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import subprocess
import sys
import types
from pathlib import Path

import pytest
from lints_counted import count_lints

import speclint
import speclint.engine
from speclint.runner import cache as cache_module
from speclint.runner import code_used, inputs_check, workers
from speclint.runner import index as index_module
from speclint.runner.results import CheckedFile, LaunchSummary
from speclint.settings.files import Settings
from speclint.settings.merge import CommandLine, options_for

ROOT = Path(__file__).resolve().parent.parent
TOPK1 = (ROOT / "fixtures" / "shell" / "eagle_topk1_draft_tokens.sh").read_text()
OLD = 1_000_000_000 * 1_000_000_000
"""An mtime_ns long past (2001): a file not changed just now."""


def _job(path: Path, cache_dir: Path):
    cli = dataclasses.replace(CommandLine(), select=("ALL",))
    return (str(path), options_for(str(path), cli, Settings()), False, str(cache_dir))


@pytest.fixture
def lint_again(monkeypatch, tmp_path):
    """One `check` of a launch through the cache, each call as a new process would make it
    (nothing remembered of speclint's files): the paths linted for real so far."""
    monkeypatch.setattr(inputs_check, "_RACY_NS", 1)  # a test cannot wait two seconds
    script, folder = tmp_path / "launch.sh", tmp_path / "cache"
    script.write_text(TOPK1)
    linted = count_lints(monkeypatch)

    def run() -> list[str]:
        code_used.forget()
        inputs_check._FINGERPRINT.clear()
        cache_module._dependencies_now.clear()
        ((result, error),) = index_module.ResultCache(str(folder), (CheckedFile, LaunchSummary)).through(
            [_job(script, folder)], workers.lint_all, workers.lint_job
        )
        assert error is None and "SPD001" in {f.code for f in result.findings}
        return linted

    yield run
    code_used.forget()
    inputs_check._FINGERPRINT.clear()


def _module_ran(monkeypatch, source: Path, name: str = "speclint.rules.spd.fake_rule") -> None:
    """A module of speclint imported by the process (as a rule is when it runs)."""
    source.write_text("LIMIT = 16\n")
    os.utime(source, ns=(OLD, OLD))
    module = types.ModuleType(name)
    module.__file__ = str(source)
    monkeypatch.setitem(sys.modules, name, module)


def test_a_changed_module_that_ran_means_a_new_lint(lint_again, monkeypatch, tmp_path):
    """A module the lint ran, rewritten with the same size (an editable install): the mtime
    tells, as it tells Python its `.pyc` is stale."""
    source = tmp_path / "fake_rule.py"
    _module_ran(monkeypatch, source)
    assert lint_again() == [str(tmp_path / "launch.sh")]
    assert len(lint_again()) == 1  # unchanged: from the cache
    source.write_text("LIMIT = 32\n")
    os.utime(source, ns=(OLD, OLD + 1))
    assert len(lint_again()) == 2
    assert len(lint_again()) == 2  # and stored again


def test_each_entry_names_what_ran_up_to_its_own_lint(monkeypatch, tmp_path):
    """A run imports as it meets files: a module first imported by a later file's lint
    never ran for an earlier file, whose stored result it leaves alone."""
    monkeypatch.setattr(inputs_check, "_RACY_NS", 1)
    first, later = tmp_path / "first.py", tmp_path / "later.py"
    _module_ran(monkeypatch, first, "speclint.rules.spd.fake_first")
    folder = tmp_path / "cache"
    for name in ("a.sh", "b.sh"):
        (tmp_path / name).write_text(TOPK1)
    linted: list[str] = []
    real = speclint.engine.lint_text

    def counting(text, path, *args, **kwargs):
        linted.append(Path(path).name)
        if path.endswith("b.sh") and "speclint.rules.spd.fake_later" not in sys.modules:
            _module_ran(monkeypatch, later, "speclint.rules.spd.fake_later")  # imported for b.sh
        return real(text, path, *args, **kwargs)

    monkeypatch.setattr(speclint.engine, "lint_text", counting)

    def run() -> list[str]:
        code_used.forget()
        inputs_check._FINGERPRINT.clear()
        jobs = [_job(tmp_path / name, folder) for name in ("a.sh", "b.sh")]
        answers = index_module.ResultCache(str(folder), (CheckedFile, LaunchSummary)).through(
            jobs, workers.lint_all, workers.lint_job
        )
        assert all(error is None and "SPD001" in {f.code for f in r.findings} for r, error in answers)
        return linted

    try:
        assert run() == ["a.sh", "b.sh"]
        assert run() == ["a.sh", "b.sh"]  # both from the cache
        later.write_text("LIMIT = 99\n")
        os.utime(later, ns=(OLD, OLD + 1))
        assert run() == ["a.sh", "b.sh", "b.sh"]
        first.write_text("LIMIT = 99\n")
        os.utime(first, ns=(OLD, OLD + 1))
        assert run() == ["a.sh", "b.sh", "b.sh", "a.sh", "b.sh"]
    finally:
        code_used.forget()
        inputs_check._FINGERPRINT.clear()


def test_a_module_let_go_is_not_named_by_later_entries(monkeypatch, tmp_path):
    """A process that let a module of speclint go (a long-lived one) names, for the files it
    lints after, only what is imported then: a deleted module's file does not make them
    linted again forever."""
    monkeypatch.setattr(inputs_check, "_RACY_NS", 1)
    gone = tmp_path / "gone.py"
    _module_ran(monkeypatch, gone, "speclint.rules.spd.fake_gone")
    folder = tmp_path / "cache"
    for name in ("a.sh", "b.sh"):
        (tmp_path / name).write_text(TOPK1)
    linted = count_lints(monkeypatch, lambda path: Path(path).name)

    def run(name: str) -> None:
        inputs_check._FINGERPRINT.clear()
        list(
            index_module.ResultCache(str(folder), (CheckedFile, LaunchSummary)).through(
                [_job(tmp_path / name, folder)], workers.lint_all, workers.lint_job
            )
        )

    code_used.forget()
    try:
        run("a.sh")
        del sys.modules["speclint.rules.spd.fake_gone"]
        gone.unlink()
        run("b.sh")  # the same process, after
        code_used.forget()  # a new process
        run("a.sh")
        run("b.sh")
        assert linted == ["a.sh", "b.sh", "a.sh"]  # a.sh ran the module that is gone
    finally:
        code_used.forget()
        inputs_check._FINGERPRINT.clear()


def _fake_package(root: Path) -> None:
    """A package tree as speclint's own: a module, a data folder of each kind."""
    for folder in code_used.DATA_FOLDERS:
        (root / folder).mkdir(parents=True)
        (root / folder / "table.json").write_text("{}")
    (root / "__init__.py").write_text("")
    (root / "unused.py").write_text("X = 1\n")
    for path in root.rglob("*"):
        os.utime(path, ns=(OLD, OLD))


def test_a_module_no_lint_imported_may_change(lint_again, monkeypatch, tmp_path):
    """A module of the package that this process never imported ran no code: changing it
    keeps what is stored."""
    package = tmp_path / "pkg"
    _fake_package(package)
    monkeypatch.setattr(speclint, "__file__", str(package / "__init__.py"))
    lint_again()
    (package / "unused.py").write_text("X = 2\n")
    assert "speclint.unused" not in sys.modules
    assert len(lint_again()) == 1


@pytest.mark.parametrize("change", ["rewritten", "added", "removed"])
def test_a_changed_data_file_means_a_new_lint(lint_again, monkeypatch, tmp_path, change):
    """Every data file counts (the release tables are read lazily), and a file added to or
    removed from a data folder."""
    package = tmp_path / "pkg"
    _fake_package(package)
    monkeypatch.setattr(speclint, "__file__", str(package / "__init__.py"))
    lint_again()
    assert len(lint_again()) == 1
    table = package / "sglang" / "flags" / "data" / "table.json"
    if change == "rewritten":
        table.write_text("[]")  # (the same size)
        os.utime(table, ns=(OLD, OLD + 1))
    elif change == "added":
        (table.parent / "other.json").write_text("{}")
    else:
        table.unlink()
    assert len(lint_again()) == 2


def test_a_module_changed_just_now_is_never_cached(lint_again, monkeypatch, tmp_path):
    """Within two seconds of a change, a second write in the same clock tick keeps the
    mtime: nothing is stored while a module that ran is that fresh."""
    source = tmp_path / "fake_rule.py"
    _module_ran(monkeypatch, source)
    monkeypatch.setattr(inputs_check, "_RACY_NS", 10**18)  # everything changed "just now"
    lint_again()
    assert len(lint_again()) == 2


@pytest.mark.parametrize("damage", ["garbage", "another list", "missing"])
def test_a_damaged_or_foreign_list_is_not_trusted(lint_again, monkeypatch, tmp_path, damage):
    """The list of files an entry names is checked against its name (a hash of it): a list
    that is not the one named, or none, means a new lint."""
    source = tmp_path / "fake_rule.py"
    _module_ran(monkeypatch, source)
    lint_again()
    (listed,) = (tmp_path / "cache").glob(f"v*/index-*/{code_used.PREFIX}*")
    if damage == "garbage":
        listed.write_bytes(b"\x00\xff" * 50)
    elif damage == "another list":  # the file that ran left out, under the same name
        parent, paths, stats = code_used.KNOWN[listed.name[len(code_used.PREFIX) :]]
        kept = [n for n, path in enumerate(paths) if path != str(source)]
        text = json.dumps([parent, [paths[n] for n in kept], [stats[n] for n in kept]])
        listed.write_bytes(b"speclint-code 2\n" + text.encode())
    else:
        listed.unlink()
    assert len(lint_again()) == 2


def test_every_file_that_is_not_a_module_is_in_a_data_folder():
    """What `code_used` counts as data: a new folder of data must be added there."""
    package = Path(speclint.__file__).parent
    outside = [
        str(path.relative_to(package))
        for path in package.rglob("*")
        if path.is_file()
        and "__pycache__" not in path.parts
        and path.suffix != ".py"
        and path.parent.relative_to(package).as_posix() not in code_used.DATA_FOLDERS
    ]
    assert outside == []
    for folder in code_used.DATA_FOLDERS:  # (no folder within: its files would not count)
        assert not [p for p in (package / folder).iterdir() if p.is_dir() and p.name != "__pycache__"]


# -- the command, in its own processes, on a copy of the package --

_PROBE = (
    "import sys\nfrom speclint.runner import inputs_check\nfrom speclint.__main__ import main\n"
    "inputs_check._RACY_NS = 1\nsys.argv = ['speclint', 'launch.sh']\ntry:\n    main()\n"
    "except SystemExit as stop:\n    code = stop.code\n"
    "print('linted' if 'speclint.engine' in sys.modules else 'replayed', code, file=sys.stderr)\n"
    "print(' '.join(sorted(m for m in sys.modules if m.startswith('speclint.'))), file=sys.stderr)\n"
)


def _speclint(tmp_path: Path) -> tuple[str, str, set[str]]:
    """`speclint launch.sh` in a new process on the package copied to tmp_path/site: (what
    it printed, "linted"/"replayed" and its exit code, the modules it imported)."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("SPECLINT_", "PYTHON"))}
    environment["PYTHONPATH"] = str(tmp_path / "site")
    done = subprocess.run(
        [sys.executable, "-c", _PROBE],
        cwd=tmp_path / "work",
        capture_output=True,
        text=True,
        timeout=120,
        env=environment,
        check=False,
    )
    how, modules = done.stderr.strip().splitlines()[-2:]
    return done.stdout, how, set(modules.split())


def test_the_command_lints_again_when_a_module_that_ran_changed_only(tmp_path):
    """A rule's module edited (same size, as an editable install is edited): the run is not
    replayed, the file's stored result not used, and the new message printed; a module the
    run never imported edited: still replayed."""
    shutil.copytree(
        Path(speclint.__file__).parent,
        tmp_path / "site" / "speclint",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    (tmp_path / "work").mkdir()
    (tmp_path / "work" / "launch.sh").write_text(TOPK1)
    for path in (tmp_path / "site").rglob("*"):
        os.utime(path, ns=(OLD, OLD))
    first, how, modules = _speclint(tmp_path)
    assert how == "linted 1" and "SPD001" in first and "is ignored: with" in first
    assert _speclint(tmp_path)[:2] == (first, "replayed 1")

    unused = "speclint.lsp.server"
    assert unused not in modules
    server = tmp_path / "site" / "speclint" / "lsp" / "server.py"
    server.write_text(server.read_text() + "\n# edited\n")
    assert _speclint(tmp_path)[:2] == (first, "replayed 1")

    rule = tmp_path / "site" / "speclint" / "rules" / "spd" / "topk_one_overrides_draft_tokens.py"
    assert "speclint.rules.spd.topk_one_overrides_draft_tokens" in modules
    text = rule.read_text()
    rule.write_text(text.replace("is ignored: with ", "is IGNORED: with "))
    os.utime(rule, ns=(OLD, OLD + 1_000_000_000))
    assert rule.stat().st_size == len(text.encode())
    again, how, _ = _speclint(tmp_path)
    assert how == "linted 1" and "is IGNORED: with" in again and again != first
    assert _speclint(tmp_path)[:2] == (again, "replayed 1")
