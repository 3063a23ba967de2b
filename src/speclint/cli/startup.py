"""The `speclint` command's own process: what it does before and after a run so that a run
on one file costs little more than Python's start (a pre-commit hook or an editor pays it on
every save).

- Python's garbage collector is paused until the first file is linted, then what the start
  made is frozen (`core.collector`): it would walk those objects ~27 times for nothing.
- `inspect` and `copy` are imported on first use: `dataclasses` imports `inspect` (ast, dis,
  tokenize) for a signature of a class without a docstring (tests/test_records.py keeps every
  record documented), `copy` (weakref, a search of every path for Jython's
  `org.python.core`: ~5% of a one-file run) for `asdict`, `astuple`, `deepcopy`: never called.
- speclint's modules are imported from one kept store (`core.kept`), not looked up in their
  folders (four paths each) and read from a `.pyc` file each: their compiled code in one
  file, each checked by its source's size and time as Python checks a `.pyc`. A module whose
  source changed, or that the store lacks, is imported as usual and learnt at the run's end
  (written by `cli.kept_writes`, imported only when there is something to write).
  While one thread runs, one is loaded without importlib's machinery (module locks, the meta
  path, `module_from_spec`: ~5% of a one-file run), as a `_Module`, with the attributes
  importlib gives it. None of this happens when speclint is imported as a library (the
  plugin, the language server's own process, tests).
- The modules the last run of the same kind (`_shape`: the kinds of file named, the cache
  on or off) imported are kept as one value (a bundle), unmarshalled at once: the names and
  constants they share are read once (-7.4 M instructions of a cold shell lint). Each is
  still checked by its source's size and time (else its own entry or Python's importer); a
  bundle `_SLACK` modules or more off what the run imported is written again at its end.
"""

from __future__ import annotations

import os
import sys
from marshal import loads as _loads

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from importlib.abc import Loader as _Loader
    from importlib.machinery import ModuleSpec
    from types import ModuleType
    from typing import Any

    from speclint.core.kept import Kept

    _ModuleBase = ModuleType
else:
    _Loader = object  # importlib.abc costs imports the command does not need
    _ModuleBase = type(sys)

_PREFIX = "speclint."
_FORMAT = 2


def begin(argv: Sequence[str] = ()) -> None:
    """Before anything else of speclint is imported by the command (`argv`: its arguments)."""
    from speclint.core import collector

    collector.pause()
    for name in _DEFERRED:
        _defer(name)
    try:
        finder = KeptImports(_store(), _shape(argv))
        sys.meta_path.insert(0, finder)
        _hasten(finder)
        from speclint.core import kept

        kept.LEARNERS.append(lambda: finder.learn(sys.modules))  # (a worker's, `kept.added`)
    except Exception:  # no store: Python's own importer, as always
        pass
    for name, module in list(sys.modules.items()):  # (those imported the usual way so far)
        if name.startswith(_PREFIX) or name in _ANSWERING or name == "speclint":
            _answer_quickly(module)
    if sys.version_info[:2] == (3, 11):  # (`core.patterns` serves no other)
        from speclint.core import patterns

        _defer("re", compile=patterns.compile)


def end() -> None:
    """After the run: what it imported the usual way is kept for the next run."""
    while _UNDO:
        _UNDO.pop()()
    if not (sys.dont_write_bytecode or sys.pycache_prefix):  # as Python writes .pyc files
        for finder in sys.meta_path:
            if isinstance(finder, KeptImports):
                finder.learn(sys.modules)
                finder.keep_bundle()
    kept = sys.modules.get("speclint.core.kept")
    if kept is not None:
        kept.save_all()


_UNDO: list[Callable[[], None]] = []
"""What `end` puts back."""


def _hasten(finder: KeptImports) -> None:
    """Python's import of a module that is not imported yet goes to
    `importlib._bootstrap._find_and_load` (looked up by name on each import): while one thread
    runs, speclint's kept modules are loaded there by `finder.load` directly."""
    names = vars(sys.modules["_frozen_importlib"])  # importlib._bootstrap's
    original = names.get("_find_and_load")
    if not callable(original):  # (private: another Python may not have it) the finder alone
        return

    def find_and_load(name: str, import_: Callable[[str], object]) -> object:
        if name not in sys.modules and name.startswith(_PREFIX):
            threading = sys.modules.get("threading")
            if threading is None or threading.active_count() == 1:  # (module locks matter)
                module = finder.load(name, import_)
                if module is not None:
                    return module
        return original(name, import_)

    names["_find_and_load"] = find_and_load
    _UNDO.append(lambda: names.__setitem__("_find_and_load", original))


def _store() -> Kept:
    from speclint.core.kept import Kept

    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    # code compiled under -O differs (asserts): one store per optimization level, as .pyc files
    return Kept(package, "imports", (_FORMAT, sys.flags.optimize))


_SLACK = 5  # a bundle is written again when the modules a run imported differ by this many


def _shape(argv: Sequence[str]) -> tuple[object, ...]:
    """The key of a command line's bundle: the kinds of file it names (up to four suffixes; an
    option's value or a folder names none) and whether the cache is on."""
    kinds = {os.path.splitext(arg)[1].lower() for arg in argv if not arg.startswith("-")}
    return (*sorted(kinds - {""})[:4], "--no-cache" in argv)


class KeptImports(_Loader):
    """A meta path finder and loader for speclint's modules held by a kept store:
    name -> (source path, is a package, source size, source mtime_ns, marshalled code, the
    path Python gives `__cached__`); with a `shape`, also ("bundle", shape) -> {name: the
    same, its code unmarshalled} of the modules the last run of that shape imported."""

    def __init__(self, store: Kept, shape: tuple[object, ...] | None = None) -> None:
        self.store = store
        self.shape = shape
        self._bundle: dict[str, tuple[Any, ...]] | None = None if shape is not None else {}
        self._stale = False  # a module of the bundle had changed
        self.served: dict[str, tuple[Any, ...]] = {}
        """The entries (their code unmarshalled) of the modules this finder served or learned."""
        self._early = [name for name in sys.modules if name.startswith(_PREFIX)]
        """Imported before the finder (the command's own modules): never from a bundle."""

    def _bundled(self) -> dict[str, tuple[Any, ...]]:
        self._bundle = {}
        value = self.store.get(("bundle", self.shape))
        if type(value) is dict:
            self._bundle = {
                name: entry
                for name, entry in value.items()
                if type(entry) is tuple and len(entry) == 6 and type(entry[4]) is _CodeType
            }
        return self._bundle

    def keep_bundle(self) -> None:
        """Put the modules this run imported in its shape's bundle, unless it holds about them."""
        served = dict(self.served)
        for name in self._early:
            served.pop(name, None)
        if self.shape is None or not served:
            return
        bundle = self._bundle if self._bundle is not None else self._bundled()
        if not self._stale and bundle and len(bundle.keys() ^ served.keys()) < _SLACK:
            return
        from speclint.cli.kept_writes import keep_bundle

        keep_bundle(self.store, self.shape, served)

    def find_spec(self, name: str, path: object = None, target: object = None) -> ModuleSpec | None:
        entry = self._fresh(name)
        return None if entry is None else self._spec(name, entry)

    def _fresh(self, name: str) -> tuple[Any, ...] | None:
        """The kept entry of `name` if its source is the one it was compiled from."""
        if not name.startswith(_PREFIX):
            return None
        bundle = self._bundle if self._bundle is not None else self._bundled()
        entry = bundle.get(name)
        if entry is not None:
            if _unchanged(entry):
                return entry
            self._stale = True
        entry = self.store.get(name)
        if type(entry) is not tuple or len(entry) != 6 or not _unchanged(entry):
            return None  # (the source changed: Python's importer, and its .pyc check)
        return entry

    def _spec(self, name: str, entry: tuple[Any, ...]) -> ModuleSpec:
        ModuleSpec = _module_spec()
        origin, package, cached = entry[0], entry[1], entry[5]
        spec = ModuleSpec(name, self, origin=origin, is_package=bool(package))
        if package:
            spec.submodule_search_locations = [os.path.dirname(origin)]
        spec.has_location = True
        if type(cached) is str:
            spec.cached = cached  # (else worked out from the origin, as Python does)
        return spec

    def create_module(self, spec: ModuleSpec) -> None:
        return None  # the default module

    def exec_module(self, module: ModuleType) -> None:
        name = module.__name__
        entry = self._fresh(name)
        if entry is None:
            raise ImportError(f"{name} changed while it was imported", name=name)
        code = self._code(name, entry)
        exec(code, vars(module))

    def _code(self, name: str, entry: tuple[Any, ...]) -> Any:
        """The code of a fresh entry (its code, or its marshalled code), noted as served."""
        code = entry[4]
        if type(code) is not _CodeType:
            code = _loads(code)
        self.served[name] = (*entry[:4], code, entry[5])
        return code

    def load(self, name: str, import_: Callable[[str], object]) -> ModuleType | None:
        """Import `name` as `importlib._bootstrap._find_and_load_unlocked` would, without its
        machinery (module locks, the meta path, `module_from_spec`: three quarters of what
        importing one of speclint's modules costs); None when the store cannot serve it."""
        entry = self._fresh(name)
        if entry is None:
            return None
        parent, _, child = name.rpartition(".")
        if parent not in sys.modules:
            import_(parent)
        if name in sys.modules:  # the parent's import imported it
            module: ModuleType = sys.modules[name]
            return module
        spec = self._spec(name, entry)
        code = self._code(name, entry)
        module = (_ModuleType if "__getattr__" in code.co_names else _Module)(name)
        attributes = vars(module)
        attributes.update(__loader__=self, __package__=spec.parent, __spec__=spec, __file__=spec.origin)
        if spec.submodule_search_locations is not None:
            attributes["__path__"] = spec.submodule_search_locations
        attributes["__cached__"] = spec.cached
        vars(spec)["_initializing"] = True  # as importlib marks a module while it runs (private)
        sys.modules[name] = module
        try:
            exec(code, attributes)
        except BaseException:
            sys.modules.pop(name, None)
            self.served.pop(name, None)
            raise
        finally:
            vars(spec)["_initializing"] = False
        if "__getattr__" in attributes and type(module) is _Module:  # (set another way)
            module.__class__ = _ModuleType  # type: ignore[assignment]
        module = sys.modules.pop(name)  # (a module may have put something else there)
        sys.modules[name] = module
        setattr(sys.modules[parent], child, module)
        return module

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
                    and len(kept) == 6
                    and kept[:4]
                    == (spec.origin, spec.submodule_search_locations is not None)
                    + (before.st_size, before.st_mtime_ns)
                ):
                    continue  # imported before the finder was in place (the command's own modules)
            except Exception:
                continue
            from speclint.cli.kept_writes import keep_module

            entry = keep_module(self.store, name, spec, before)
            if entry is not None:
                self.served[name] = entry


_ModuleType = type(sys)
_CodeType = type(_shape.__code__)


class _Module(_ModuleBase):
    """A module whose attributes are looked up as any object's (no fallback to a module's own
    `__getattr__`: a module with one stays a ModuleType). Python 3.11's `from M import name`
    asks M for `__path__`: a ModuleType answers no with two formatted AttributeErrors (~6 k
    instructions, ~600 such imports a one-file run), this one without. -1.7 M of a cold run."""

    __slots__ = ()
    __getattribute__ = object.__getattribute__


def _unchanged(entry: tuple[Any, ...]) -> bool:
    """The source of a kept entry has the size and time it had when it was compiled."""
    try:
        info = os.stat(entry[0])
    except (OSError, TypeError, ValueError):
        return False
    return bool(info.st_size == entry[2] and info.st_mtime_ns == entry[3])


_MODULE_SPEC: list[type[ModuleSpec]] = []


def _module_spec() -> type[ModuleSpec]:
    """`importlib.machinery.ModuleSpec`, imported once (`from M import name` in a function
    asks M for a missing `__path__` at each call: an AttributeError's message per module)."""
    if not _MODULE_SPEC:
        # what importlib.machinery re-exports (importing it costs importlib and warnings)
        found: Any = getattr(sys.modules.get("_frozen_importlib"), "ModuleSpec", None)
        if not isinstance(found, type):
            from importlib.machinery import ModuleSpec

            found = ModuleSpec
        _MODULE_SPEC.append(found)
    return _MODULE_SPEC[0]


_ANSWERING = ("__future__", "functools", "dataclasses", "types")  # (`__future__`: ~140 imports)


def _answer_quickly(module: object) -> None:
    """A module without its own `__getattr__` as a `_Module` until the run ends."""
    if type(module) is _ModuleType and "__getattr__" not in vars(module):
        module.__class__ = _Module
        _UNDO.append(lambda: setattr(module, "__class__", _ModuleType))


_DEFERRED = ("inspect", "copy")
"""Standard modules `dataclasses` imports that a lint does not use."""


def _defer(name: str, **served: object) -> None:
    """The standard library's module `name` as a stand-in that imports the real one on first
    use of any attribute but those `served` (the stand-in then holds what the real one holds).
    `re` is one: `re.compile` is served by `core.patterns.compile` (compiled forms kept, the
    same Pattern objects) until anything else of `re` is asked for."""
    if name in sys.modules:
        return
    import types

    stand_in = types.ModuleType(name, f"The standard library's {name}, imported on first use.")

    def __getattr__(attribute: str) -> object:
        if sys.modules.get(name) is stand_in:
            del sys.modules[name]
        real = __import__(name)
        vars(stand_in).update(vars(real))  # (served attributes too: from now on the real ones)
        return getattr(real, attribute)

    vars(stand_in).update(served, __getattr__=__getattr__)
    sys.modules[name] = stand_in
