"""The modules the command's kept store serves (`speclint.cli.startup._Module`): they answer
`from M import name` without building AttributeErrors, and behave as Python's own modules
otherwise: a missing name is still missing, a module's own `__getattr__` (PEP 562) still
serves what it makes, and the standard modules switched for the run are switched back."""

from __future__ import annotations

import marshal
import sys
import types

import pytest

from speclint.cli import startup
from speclint.cli.startup import KeptImports
from speclint.core.kept import Kept

PLAIN = "VALUE = 1\n"
LAZY = "VALUE = 1\n\ndef __getattr__(name):\n    if name == 'MADE':\n        return 2\n    raise AttributeError(name)\n"
LATE = "VALUE = 1\nglobals()['__getattr__'] = lambda name: 3 if name == 'MADE' else None\n"


@pytest.fixture
def served(tmp_path):
    """`served(source)`: the module `speclint.probe_served` with that source, as the store's
    finder loads it (and forgotten after the test)."""
    name = "speclint.probe_served"

    def serve(source: str) -> types.ModuleType:
        path = tmp_path / "probe_served.py"
        path.write_text(source)
        info = path.stat()
        store = Kept(str(tmp_path), "imports", 1)
        code = compile(source, str(path), "exec")
        store.put(name, (str(path), False, info.st_size, info.st_mtime_ns, marshal.dumps(code), None))
        module = KeptImports(store).load(name, __import__)
        assert module is not None and sys.modules[name] is module
        return module

    yield serve
    import speclint

    sys.modules.pop(name, None)
    vars(speclint).pop("probe_served", None)


def test_a_served_module_answers_as_a_module(served):
    module = served(PLAIN)
    assert type(module) is startup._Module and isinstance(module, types.ModuleType)
    from speclint.probe_served import VALUE  # type: ignore[import-not-found]

    assert VALUE == 1
    assert not hasattr(module, "__path__") and not hasattr(module, "MISSING")
    with pytest.raises(ImportError, match="cannot import name 'MISSING'"):
        from speclint.probe_served import MISSING  # type: ignore[import-not-found]  # noqa: F401
    assert module.__name__ == "speclint.probe_served" and module.__file__.endswith("probe_served.py")


@pytest.mark.parametrize("source", [LAZY, LATE], ids=["defined", "set-when-run"])
def test_a_module_with_its_own_getattr_still_serves_what_it_makes(served, source):
    module = served(source)
    assert type(module) is types.ModuleType
    from speclint.probe_served import MADE  # type: ignore[import-not-found]

    assert MADE == (2 if source == LAZY else 3)


def _no_store() -> Kept:
    raise OSError("no store here: Python's own importer")


def test_the_standard_modules_switched_for_a_run_are_switched_back(monkeypatch):
    import __future__

    from speclint.core import collector

    monkeypatch.setattr(collector, "pause", lambda: None)  # (the test process's collector)
    monkeypatch.setattr(startup, "_UNDO", [])
    monkeypatch.setattr(startup, "_store", _no_store)
    monkeypatch.setattr(sys, "meta_path", list(sys.meta_path))
    before = {name: type(sys.modules[name]) for name in startup._ANSWERING if name in sys.modules}
    assert before.get("__future__") is types.ModuleType
    startup.begin([])
    try:
        assert type(__future__) is startup._Module
        assert __future__.annotations.compiler_flag  # (what compile() reads of it)
    finally:
        startup.end()
    assert {name: type(sys.modules[name]) for name in before} == before
