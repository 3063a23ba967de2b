#!/usr/bin/env python3
"""Build SGLang's real argparse parser and print its actions as JSON (the test oracle).

    python tools/sglang_real_parser.py 0.5.23 > actions.json

Installs `sglang==VERSION` (no dependencies) plus the few light packages the CLI needs
into a cached virtualenv `.cache/sglang-oracle-VERSION/`, then re-runs itself inside it.
There, every other missing top-level module (torch, triton, transformers, ...) is
replaced by an inert stub, `sglang.srt.server_args` is imported and
`ServerArgs.add_cli_args` fills a parser built the way `prepare_server_args` builds it.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import json
import os
import subprocess
import sys
import types

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIGHT_DEPS = [
    "msgspec",
    "pyyaml",
    "orjson",
    "packaging",
    "typing-extensions",
    "psutil",
    "requests",
    "numpy",
    "pydantic",
    "regex",
]


# --- inert stubs for heavy packages ------------------------------------------------------
_PROTOCOL = {
    "__length_hint__",
    "__fspath__",
    "__set_name__",
    "__get__",
    "__set__",
    "__delete__",
    "__class_getitem__",
    "__signature__",
    "__wrapped__",
    "__func__",
    "__self__",
    "__origin__",
    "__args__",
    "__parameters__",
    "__dataclass_fields__",
    "__attrs_attrs__",
    "__slots__",
    "__abstractmethods__",
    "__text_signature__",
    "__isabstractmethod__",
    "__annotations__",
    "__objclass__",
    "__file__",
    "__path__",
    "__loader__",
    "__spec__",
    "__all__",
    "__code__",
    "__defaults__",
    "__kwdefaults__",
    # optional accelerators SGLang probes with hasattr(torch, ...)
    "npu",
    "musa",
    "mlu",
    "hpu",
}


class _Stub:
    """Stands for any attribute of a stubbed package: callable, subscriptable, subclassable."""

    def __init__(self, name):
        self._name = name

    def __getattr__(self, name):
        if name in _PROTOCOL:
            raise AttributeError(name)
        return _Stub(f"{self._name}.{name}")

    def __call__(self, *args, **kwargs):
        if len(args) == 1 and callable(args[0]) and not kwargs:
            return args[0]  # used as a decorator
        return _Stub(f"{self._name}()")

    def __iter__(self):
        return iter(())

    def __getitem__(self, item):
        return _Stub(f"{self._name}[]")

    def __or__(self, other):
        return self

    __ror__ = __or__

    def __bool__(self):
        return False

    def __int__(self):
        return 0

    __index__ = __len__ = __int__

    def __float__(self):
        return 0.0

    def __arith(self, *other):
        return self

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = __arith
    __floordiv__ = __mod__ = __pow__ = __neg__ = __and__ = __rand__ = __lshift__ = __arith

    def __lt__(self, other):
        return False

    __le__ = __gt__ = __ge__ = __contains__ = __lt__

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def __mro_entries__(self, bases):
        return ()

    def __repr__(self):
        return f"<stub {self._name}>"


def _new_stub(name):
    return _Stub(name)


class _StubModule(types.ModuleType):
    def __getattr__(self, name):
        if (name.startswith("__") and name.endswith("__")) or name in _PROTOCOL:
            raise AttributeError(name)
        return _new_stub(f"{self.__name__}.{name}")


class _StubLoader(importlib.abc.Loader):
    def create_module(self, spec):
        module = _StubModule(spec.name)
        module.__path__ = []
        module.__version__ = "99.0.0"
        return module

    def exec_module(self, module):
        pass


class StubFinder(importlib.abc.MetaPathFinder):
    """Last on sys.meta_path: anything no real finder found becomes a stub (not sglang)."""

    stubbed: set[str] = set()

    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] == "sglang":
            return None
        self.stubbed.add(name.split(".")[0])
        return importlib.machinery.ModuleSpec(name, _StubLoader(), is_package=True)


# --- inside the oracle venv --------------------------------------------------------------
def _jsonable(value):
    try:
        json.dumps(value)
        return value
    except TypeError:
        if isinstance(value, (set, frozenset)):
            return sorted(_jsonable(v) for v in value)
        if isinstance(value, (list, tuple)):
            return [_jsonable(v) for v in value]
        return {"unserialisable": repr(value)}


def dump_parser():
    import argparse
    import logging

    logging.disable(logging.CRITICAL)
    sys.meta_path.append(StubFinder())
    from sglang.srt.server_args import ServerArgs

    parser = argparse.ArgumentParser(prog="sglang serve")
    ServerArgs.add_cli_args(parser)
    actions = []
    for action in parser._actions:
        cls = type(action)
        kind = {
            argparse._StoreAction: "store",
            argparse._StoreTrueAction: "store_true",
            argparse._StoreFalseAction: "store_false",
            argparse._StoreConstAction: "store_const",
            argparse._AppendAction: "append",
            argparse._AppendConstAction: "append_const",
            argparse._CountAction: "count",
            argparse._HelpAction: "help",
            argparse._VersionAction: "version",
            argparse.BooleanOptionalAction: "boolean_optional",
        }.get(cls)
        type_ = action.type
        actions.append(
            {
                "option_strings": list(action.option_strings),
                "dest": action.dest,
                "action_kind": kind,
                "action_class": cls.__name__,
                "nargs": action.nargs,
                "const": _jsonable(action.const),
                "default": _jsonable(action.default),
                "choices": None if action.choices is None else _jsonable(list(action.choices)),
                "choices_is_set": isinstance(action.choices, (set, frozenset)),
                "type_name": None if type_ is None else getattr(type_, "__name__", repr(type_)),
                "type_module": None if type_ is None else getattr(type_, "__module__", None),
                "required": action.required,
                "help": action.help,
            }
        )
    json.dump(
        {
            "allow_abbrev": parser.allow_abbrev,
            "prefix_chars": parser.prefix_chars,
            "actions": actions,
            "stubbed": sorted(StubFinder.stubbed),
        },
        sys.stdout,
    )


# --- outside: make the venv, re-run inside it --------------------------------------------
def venv_python(version: str) -> str:
    venv = os.path.join(ROOT, ".cache", f"sglang-oracle-{version}")
    python = os.path.join(venv, "bin", "python")
    marker = os.path.join(venv, ".ready")
    if not os.path.exists(marker):
        subprocess.run([sys.executable, "-m", "venv", "--clear", venv], check=True)
        pip = [python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        from gen_sglang_schema import wheel_path

        subprocess.run(pip + ["--no-deps", wheel_path(version)], check=True)
        subprocess.run(pip + LIGHT_DEPS, check=True)
        open(marker, "w").close()
    return python


def real_parser(version: str) -> dict:
    out = subprocess.run(
        [venv_python(version), os.path.abspath(__file__), "--inside"],
        check=True,
        capture_output=True,
        text=True,
        cwd="/",
    )
    return json.loads(out.stdout)


if __name__ == "__main__":
    if sys.argv[1:] == ["--inside"]:
        dump_parser()
    else:
        json.dump(real_parser(sys.argv[1] if len(sys.argv) > 1 else "0.5.23"), sys.stdout)
