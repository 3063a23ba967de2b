"""The `speclint` command's own process: what it does before and after a run so that a run
on one file costs little more than Python's start (a pre-commit hook or an editor pays it on
every save).

- Python's garbage collector is paused until the first file is linted, then what the start
  made is frozen (`core.collector`): it would walk those objects ~27 times for nothing.
- `inspect` is imported on first use: `dataclasses` imports it (with ast, dis and tokenize)
  for one call that speclint's classes never make (a signature for a class without a
  docstring; tests/test_records.py keeps every record documented).
- speclint's modules are imported from one kept store (`core.kept`): Python's importer looks
  each of the ~150 modules of a lint up in its package folder, checks four paths and reads a
  `.pyc` file per module; the store holds their compiled code in one file, each checked by
  its source file's size and time as Python checks a `.pyc`. A module whose source changed,
  or that the store does not hold, is imported as usual; the store learns it when the run
  ends. Nothing of this happens when speclint is imported as a library (the plugin, the
  language server's own process, tests).
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from importlib.abc import Loader as _Loader
    from importlib.machinery import ModuleSpec
    from types import ModuleType

    from speclint.core.kept import Kept
else:
    _Loader = object  # importlib.abc costs imports the command does not need

_PREFIX = "speclint."
_FORMAT = 1


def begin() -> None:
    """Before anything else of speclint is imported by the command."""
    from speclint.core import collector

    collector.pause()
    _defer_inspect()
    try:
        sys.meta_path.insert(0, KeptImports(_store()))
    except Exception:  # no store: Python's own importer, as always
        pass


def end() -> None:
    """After the run: what it imported the usual way is kept for the next run."""
    if not (sys.dont_write_bytecode or sys.pycache_prefix):  # as Python writes .pyc files
        for finder in sys.meta_path:
            if isinstance(finder, KeptImports):
                finder.learn(sys.modules)
    kept = sys.modules.get("speclint.core.kept")
    if kept is not None:
        kept.save_all()


def leave(code: object) -> None:
    """End the process now with `sys.exit(code)`'s status when Python's own exit would only
    free memory (~3 ms of a one-file run, spent tearing down modules). Returns, for Python to
    exit as usual, when anything is registered to run at exit (`atexit`: coverage,
    multiprocessing, logging), another thread runs, `code` is a message to print, Python
    was asked to stay (`-i`), or the output cannot be flushed (a reader that left the pipe)."""
    if code is None:
        code = 0
    if not isinstance(code, int):
        return
    import atexit

    counted = getattr(atexit, "_ncallbacks", None)
    threading = sys.modules.get("threading")
    if counted is None or counted() or sys.flags.inspect:
        return
    if threading is not None and threading.active_count() > 1:
        return
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except Exception:
        return
    os._exit(int(code))


def _store() -> Kept:
    from speclint.core.kept import Kept

    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    # code compiled under -O differs (asserts): one store per optimization level, as .pyc files
    return Kept(package, "imports", (_FORMAT, sys.flags.optimize))


class KeptImports(_Loader):
    """A meta path finder and loader for speclint's modules held by a kept store:
    name -> (source path, is a package, source size, source mtime_ns, marshalled code)."""

    def __init__(self, store: Kept) -> None:
        self.store = store

    def find_spec(self, name: str, path: object = None, target: object = None) -> ModuleSpec | None:
        if not name.startswith(_PREFIX):
            return None
        entry = self.store.get(name)
        if type(entry) is not tuple or len(entry) != 5:
            return None
        origin, package, size, mtime, _ = entry
        try:
            info = os.stat(origin)
        except (OSError, TypeError, ValueError):
            return None
        if info.st_size != size or info.st_mtime_ns != mtime:
            return None  # the source changed: Python's importer (and its .pyc check)
        from importlib.machinery import ModuleSpec

        spec = ModuleSpec(name, self, origin=origin, is_package=bool(package))
        if package:
            spec.submodule_search_locations = [os.path.dirname(origin)]
        spec.has_location = True
        return spec

    def create_module(self, spec: ModuleSpec) -> None:
        return None  # the default module

    def exec_module(self, module: ModuleType) -> None:
        import marshal

        code = marshal.loads(self.store.get(module.__name__)[4])
        exec(code, vars(module))

    def learn(self, modules: dict[str, ModuleType]) -> None:
        """Keep the compiled code of speclint's modules imported the usual way."""
        for name, module in list(modules.items()):
            if not name.startswith(_PREFIX):
                continue
            spec = getattr(module, "__spec__", None)
            if spec is None or spec.loader is self or not isinstance(spec.origin, str):
                continue
            if not spec.origin.endswith(".py") or not hasattr(spec.loader, "get_code"):
                continue
            try:
                before = os.stat(spec.origin)
                kept = self.store.get(name)
                if (
                    type(kept) is tuple
                    and len(kept) == 5
                    and kept[:4]
                    == (spec.origin, spec.submodule_search_locations is not None)
                    + (before.st_size, before.st_mtime_ns)
                ):
                    continue  # imported before the finder was in place (the command's own modules)
                code = spec.loader.get_code(name)
                after = os.stat(spec.origin)
            except Exception:
                continue
            if code is None or (before.st_size, before.st_mtime_ns) != (after.st_size, after.st_mtime_ns):
                continue
            import marshal

            package = spec.submodule_search_locations is not None
            self.store.put(
                name, (spec.origin, package, after.st_size, after.st_mtime_ns, marshal.dumps(code))
            )


def _defer_inspect() -> None:
    """`inspect` as a stand-in that imports the real module on first use of any attribute,
    so anything that does use it gets the real one."""
    if "inspect" in sys.modules:
        return
    import types

    stand_in = types.ModuleType("inspect", "The standard library's inspect, imported on first use.")

    def __getattr__(name: str) -> object:
        if sys.modules.get("inspect") is stand_in:
            del sys.modules["inspect"]
        import inspect

        return getattr(inspect, name)

    vars(stand_in)["__getattr__"] = __getattr__
    sys.modules["inspect"] = stand_in
