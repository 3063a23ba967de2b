"""The command's bundles (`speclint.cli.startup`): the modules the last run of a kind imported,
kept as one value and unmarshalled at once, each module still checked against its source."""

from __future__ import annotations

import marshal
import os
import sys
from pathlib import Path

import pytest
from speclint_runs import last_line, run_probe

from speclint.cli import kept_writes, startup
from speclint.cli.startup import KeptImports
from speclint.core.kept import Kept

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "fixtures" / "shell" / "eagle_topk1_draft_tokens.sh"
SHAPE = (".sh", True)
NAMES = [f"speclint.probe_bundled_{index}" for index in range(startup._SLACK + 1)]


@pytest.fixture(autouse=True)
def _forget_probes():
    yield
    import speclint

    for name in NAMES:
        sys.modules.pop(name, None)
        vars(speclint).pop(name.rpartition(".")[2], None)


def _write(path: Path, value: int) -> tuple[object, ...]:
    """(source, is a package, size, mtime_ns, code, cached) of a module setting VALUE."""
    source = f"VALUE = {value}\n"
    path.write_text(source)
    info = path.stat()
    return (str(path), False, info.st_size, info.st_mtime_ns, compile(source, str(path), "exec"), None)


def _store(tmp_path: Path, value: int, bundled: int | None = None) -> Kept:
    """A store with each probe module's own entry (VALUE = `value`) and, when `bundled`, a
    bundle of SHAPE with the same sources compiled to set VALUE = `bundled` instead."""
    store = Kept(str(tmp_path), "imports", 1)
    bundle = {}
    for index, name in enumerate(NAMES):
        path = tmp_path / f"probe_{index}.py"
        if bundled is not None:
            bundle[name] = _write(path, bundled)
        entry = _write(path, value)
        stamp = bundle[name][3] if bundled is not None else entry[3]
        os.utime(path, ns=(stamp, stamp))  # (the bundle's stamp: both entries look fresh)
        store.put(name, (*entry[:3], stamp, marshal.dumps(entry[4]), None))
    if bundled is not None:
        store.put(("bundle", SHAPE), bundle)
    return store


def test_a_bundle_serves_the_modules_of_its_shape(tmp_path):
    store = _store(tmp_path, value=1, bundled=2)
    assert KeptImports(store, SHAPE).load(NAMES[0], __import__).VALUE == 2
    sys.modules.pop(NAMES[0])
    assert KeptImports(store, (".md", True)).load(NAMES[0], __import__).VALUE == 1  # its own entry
    sys.modules.pop(NAMES[0])
    assert KeptImports(store).load(NAMES[0], __import__).VALUE == 1  # no shape: no bundle


def test_a_changed_module_is_not_served_from_its_bundle_and_the_bundle_is_written_again(tmp_path):
    store = _store(tmp_path, value=1, bundled=2)
    (tmp_path / "probe_0.py").write_text("VALUE = 333\n")  # changed since both were kept
    finder = KeptImports(store, SHAPE)
    assert finder.load(NAMES[0], __import__) is None  # Python's importer then
    for name in NAMES[1:]:
        assert finder.load(name, __import__).VALUE == 2
    added = store.added
    finder.keep_bundle()
    assert store.added > added
    assert sorted(store.get(("bundle", SHAPE))) == NAMES[1:]


@pytest.mark.parametrize(
    "damaged",
    [b"junk", {NAMES[0]: ("path", False, 1, 2, b"not code", None)}, {NAMES[0]: (1, 2)}, [1, 2]],
)
def test_a_damaged_bundle_is_left_aside(tmp_path, damaged):
    store = _store(tmp_path, value=1)
    store.put(("bundle", SHAPE), damaged)
    assert KeptImports(store, SHAPE).load(NAMES[0], __import__).VALUE == 1


def test_a_bundle_is_written_again_only_when_a_run_imported_other_modules(tmp_path):
    store = _store(tmp_path, value=1, bundled=2)
    finder = KeptImports(store, SHAPE)
    for name in NAMES[:2]:
        finder.load(name, __import__)
    added = store.added
    finder.keep_bundle()  # 2 of 6 modules: a difference of 4, below _SLACK
    assert store.added == added
    finder.load(NAMES[2], __import__)
    finder.served.pop(NAMES[2])
    finder.served["speclint.probe_other"] = finder.served[NAMES[0]]  # one the bundle lacks
    finder.keep_bundle()  # a difference of 5
    assert store.added > added
    assert sorted(store.get(("bundle", SHAPE))) == sorted([*NAMES[:2], "speclint.probe_other"])


def test_the_shape_of_a_command_line():
    assert startup._shape(["--no-cache", "serve.sh", "--select", "DRF"]) == (".sh", True)
    assert startup._shape(["check", "a.md", "b.MD", "c.py", "docs"]) == (".md", ".py", False)
    assert startup._shape(["--output-format", "concise", "x.sh"]) == startup._shape(["x.sh"])


PROBE = """
finder = next(f for f in sys.meta_path if isinstance(f, startup.KeptImports))
print(sorted(finder._bundle or ()), file=sys.stderr)
"""


def test_the_command_keeps_a_bundle_and_imports_from_it(tmp_path):
    runs = [run_probe(PROBE, FIXTURE, store=tmp_path) for _ in range(3)]
    bundled = [last_line(run) for run in runs]
    assert bundled[0] == "[]" and "'speclint.engine'" in bundled[1] and bundled[2] == bundled[1]
    assert "SPD001" in runs[0].stdout and runs[0].stdout == runs[1].stdout == runs[2].stdout
    store = Kept(str(tmp_path), "imports", 1)
    assert "speclint.rules.spd" in store.get(("bundle", (".sh", True)))


def test_only_the_bundles_of_the_shapes_last_written_are_kept(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    store = _store(tmp_path, value=1)
    entry = _write(tmp_path / "probe_0.py", 1)
    shapes = [(f".s{index}", True) for index in range(kept_writes.BUNDLES + 2)]
    for shape in [*shapes, shapes[1]]:  # the second one again: the last written
        finder = KeptImports(store, shape)
        finder.served = {NAMES[0]: entry}
        finder.keep_bundle()
    store.save()
    again = Kept(str(tmp_path), "imports", 1)  # as the next run reads it
    kept = [shape for shape in shapes if again.get(("bundle", shape)) is not None]
    assert kept == [shapes[1], *shapes[-3:]]
    assert again.get(("bundles",)) == [shapes[1], shapes[-1], shapes[-2], shapes[-3]]
    assert again.get(NAMES[1]) is not None  # other values stay
