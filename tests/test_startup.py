"""The command's process (`speclint.cli.startup`): speclint's modules imported from a kept
store of their compiled code, checked against their sources as Python checks a `.pyc`."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

from speclint_runs import dataclasses_imports, last_line, run_probe

import speclint.sglang.flags.schema as schema_module
from speclint.cli import process_end
from speclint.cli.startup import KeptImports
from speclint.core import recipes
from speclint.core.kept import Kept

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "fixtures" / "shell" / "eagle_topk1_draft_tokens.sh"
NAME = "speclint.sglang.flags.schema"


def learned(tmp_path: Path, monkeypatch) -> KeptImports:
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    finder = KeptImports(Kept(str(tmp_path), "imports", 1))
    finder.learn(sys.modules)
    finder.store.save()
    return KeptImports(Kept(str(tmp_path), "imports", 1))  # as the next run reads it


def test_a_kept_module_is_the_module_python_imports(tmp_path, monkeypatch):
    finder = learned(tmp_path, monkeypatch)
    spec = finder.find_spec(NAME)
    assert spec is not None and spec.loader is finder and spec.origin == schema_module.__file__
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.__file__ == schema_module.__file__
    assert sorted(vars(module)) == sorted(vars(schema_module))
    assert (
        module.load_schema.__wrapped__.__code__.co_code
        == schema_module.load_schema.__wrapped__.__code__.co_code
    )
    package = finder.find_spec("speclint.sglang.flags")
    assert package is not None and package.submodule_search_locations == [
        str(Path(schema_module.__file__).parent)
    ]


def test_a_changed_source_is_imported_the_usual_way(tmp_path, monkeypatch):
    finder = learned(tmp_path, monkeypatch)
    origin, package, size, mtime, code, cached = finder.store.get(NAME)
    finder.store.put(NAME, (origin, package, size, mtime - 1, code, cached))  # the file was touched since
    assert finder.find_spec(NAME) is None
    finder.store.put(NAME, (origin, package, size + 1, mtime, code, cached))  # or rewritten
    assert finder.find_spec(NAME) is None


def test_a_damaged_store_and_other_names_are_left_to_python(tmp_path, monkeypatch):
    finder = learned(tmp_path, monkeypatch)
    assert finder.find_spec("json") is None and finder.find_spec("speclint_other.x") is None
    store = tmp_path / "__pycache__" / next(p.name for p in (tmp_path / "__pycache__").iterdir())
    store.write_bytes(b"\x00damaged")
    assert KeptImports(Kept(str(tmp_path), "imports", 1)).find_spec(NAME) is None


PROBE = """
import json
served = sorted(n for n, m in sys.modules.items() if isinstance(getattr(getattr(m, "__spec__", None), "loader", None), startup.KeptImports))
import importlib.util
def attributes(m):
    spec = m.__spec__
    parent, _, child = m.__name__.rpartition(".")
    return [
        m.__file__ == spec.origin, m.__cached__ == importlib.util.cache_from_source(m.__file__),
        m.__cached__ == spec.cached, m.__package__ == spec.parent, m.__loader__ is spec.loader,
        getattr(m, "__path__", None) == spec.submodule_search_locations,
        getattr(sys.modules[parent], child) is m, spec._initializing,
    ]
every = dict((n, attributes(m)) for n, m in sys.modules.items() if n.startswith("speclint."))
print(json.dumps([served, every]), file=sys.stderr)
"""


def test_the_command_learns_its_modules_then_imports_them_from_the_store(tmp_path):
    runs = [run_probe(PROBE, FIXTURE, store=tmp_path) for _ in range(2)]
    (first, as_python), (second, as_kept) = (json.loads(last_line(run)) for run in runs)
    assert first == [] and "speclint.engine" in second and "speclint.rules.spd" in second
    # each module served from the store has what Python's importer gave it: its file, cached
    # path, package, loader, path, its name in its parent package, done loading
    assert {name: as_kept[name] for name in second} == {name: as_python[name] for name in second}
    assert as_kept["speclint.engine"] == [True, True, True, True, True, True, True, False]
    assert runs[0].stdout == runs[1].stdout and "SPD001" in runs[0].stdout


def test_a_run_that_learns_nothing_new_writes_nothing(tmp_path, monkeypatch):
    """Modules imported before the finder was in place (the command's own) are kept once, not
    written again by every run."""
    finder = learned(tmp_path, monkeypatch)
    finder.learn(sys.modules)
    assert finder.store.added == 0


def test_code_compiled_under_another_optimization_level_is_not_used():
    """`python -O` drops asserts: as with `.pyc` files, each level reads a store of its own."""
    sources = [
        subprocess.run(
            [
                sys.executable,
                *flags,
                "-c",
                "from speclint.cli import startup; print(startup._store().source)",
            ],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=60,
            check=True,
        ).stdout
        for flags in ([], ["-O"])
    ]
    assert sources[0] and sources[0] != sources[1]


def test_the_collector_is_paused_only_until_the_first_file_is_linted():
    """The command's start pauses Python's collector (`core.collector`); once a file is linted
    what exists is frozen and collection runs again, so a long run's garbage is collected
    (and workers forked after the first file collect too). A host that turned collection off
    keeps it off."""
    import gc

    from speclint.core import collector
    from speclint.engine import lint_path

    frozen = gc.get_freeze_count()
    collector.pause()
    try:
        assert not gc.isenabled()
        first = lint_path(str(FIXTURE))
        assert gc.isenabled() and gc.get_freeze_count() > frozen
        assert lint_path(str(FIXTURE)).findings == first.findings and gc.isenabled()
        gc.disable()
        collector.pause()
        lint_path(str(FIXTURE))
        assert not gc.isenabled()
    finally:
        gc.unfreeze()
        gc.enable()


class _Exited(Exception):
    pass


def _leave_exits(monkeypatch, code) -> int | None:
    """The status `process_end.leave(code)` ends the process with, or None when it returns."""

    def exit_now(status):
        raise _Exited(status)

    monkeypatch.setattr(process_end.os, "_exit", exit_now)
    try:
        process_end.leave(code)
    except _Exited as exited:
        return exited.args[0]
    return None


def test_leave_ends_the_process_with_the_exit_status_when_nothing_is_left_to_do(monkeypatch):
    import atexit

    monkeypatch.setattr(atexit, "_ncallbacks", lambda: 0)
    assert [_leave_exits(monkeypatch, code) for code in (None, 0, 1, 2, True)] == [0, 0, 1, 2, 1]


def test_leave_returns_when_python_must_exit_the_usual_way(monkeypatch):
    import atexit
    import threading

    monkeypatch.setattr(atexit, "_ncallbacks", lambda: 0)
    assert _leave_exits(monkeypatch, "a message to print") is None
    monkeypatch.setattr(atexit, "_ncallbacks", lambda: 1)  # coverage, multiprocessing, logging
    assert _leave_exits(monkeypatch, 0) is None
    monkeypatch.setattr(atexit, "_ncallbacks", lambda: 0)
    monkeypatch.setattr(threading, "active_count", lambda: 2)
    assert _leave_exits(monkeypatch, 0) is None
    monkeypatch.setattr(threading, "active_count", lambda: 1)

    class Broken:
        def flush(self):
            raise BrokenPipeError

    monkeypatch.setattr(process_end.sys, "stdout", Broken())
    assert _leave_exits(monkeypatch, 1) is None


def test_the_command_exits_with_its_status_and_all_its_output(tmp_path):
    """`python -m speclint` ends its process itself (process_end.leave): nothing of the report is
    lost, and the status is the run's."""
    script = tmp_path / "serve.sh"
    script.write_text("python -m sglang.launch_server --model-path m --tp-size x\n" * 300)
    done = subprocess.run(
        [sys.executable, "-m", "speclint", "--no-cache", str(script)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1
    assert done.stdout.count("FLG005") == 300 and "Found 300 findings" in done.stdout


def _entry(path: Path, source: str) -> tuple[object, ...]:
    import marshal

    path.write_text(source)
    info = path.stat()
    code = marshal.dumps(compile(source, str(path), "exec"))
    return (str(path), False, info.st_size, info.st_mtime_ns, code, None)


def test_a_kept_module_that_raises_is_not_left_imported_and_one_that_runs_is(tmp_path):
    finder = KeptImports(Kept(str(tmp_path), "imports", 1))
    finder.store.put(
        "speclint.probe_raises", _entry(tmp_path / "raises.py", "raise ValueError('at import')\n")
    )
    finder.store.put("speclint.probe_runs", _entry(tmp_path / "runs.py", "VALUE = 42\n"))
    try:
        try:
            finder.load("speclint.probe_raises", __import__)
        except ValueError as error:
            assert str(error) == "at import"
        else:
            raise AssertionError("the module's error was not raised")
        assert "speclint.probe_raises" not in sys.modules  # as Python's importer leaves it
        module = finder.load("speclint.probe_runs", __import__)
        assert module is sys.modules["speclint.probe_runs"] and module.VALUE == 42
        import speclint

        assert speclint.probe_runs is module and module.__spec__.loader is finder
        finder.store.put("speclint.probe_changed", _entry(tmp_path / "changed.py", "VALUE = 1\n"))
        (tmp_path / "changed.py").write_text("VALUE = 22\n")  # changed since it was kept
        assert finder.load("speclint.probe_changed", __import__) is None  # Python's importer then
    finally:
        sys.modules.pop("speclint.probe_runs", None)
        import speclint

        vars(speclint).pop("probe_runs", None)


UNUSED = """
real = [name for name in {names!r} if "__file__" in vars(sys.modules.get(name, sys))]
print(real, sys.modules["copy"].deepcopy([1]) == [1], file=sys.stderr)
"""


def test_a_shell_lint_imports_no_standard_module_it_does_not_use():
    """A clean shell launch imports neither `copy` (nor weakref, which it brings) and `inspect`,
    which `dataclasses` imports (stand-ins until first used, and then the real modules), nor
    bisect, contextvars, fnmatch: each costs a cold run about a percent."""
    names = ["copy", "weakref", "inspect", "bisect", "contextvars", "fnmatch"]
    if not recipes.served():  # (`dataclasses` makes every class: what it imports is needed)
        names = [name for name in names if name not in dataclasses_imports()]
    done = run_probe(UNUSED.format(names=names), FIXTURE)
    assert last_line(done) == "[] True", done.stderr
