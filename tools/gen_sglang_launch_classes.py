#!/usr/bin/env python3
"""Generate src/speclint/sglang/data/sglang_launch_classes.json: SGLang's classes that start a
server from keyword arguments (`sglang.Runtime`, `HttpServerEngineAdapter`), per release, read
statically (`ast`, never imported) from its wheel.

    python tools/gen_sglang_launch_classes.py              # every release the flag schema stores
    python tools/gen_sglang_launch_classes.py --check      # regenerate and compare, write nothing

Each class is found as SGLang's own import path finds it:

- `Runtime`: `sglang/__init__.py` imports the name from a module (`sglang.api`,
  `sglang.lang.api` from 0.5.1); there, a function `Runtime(*args, **kwargs)` imports `Runtime`
  from another module (`sglang.srt.server` up to 0.4.1.post6,
  `sglang.lang.backend.runtime_endpoint` since) and returns `Runtime(*args, **kwargs)`, or
  the module binds the class itself (`sgl.Runtime(...)`: the front-end language's backend);
- `HttpServerEngineAdapter`: the class of `sglang.srt.entrypoints.http_server_engine`
  (0.4.5.post1 on), the HTTP server verl's rollout starts.

A class counts when its `__init__` builds `ServerArgs(...)` once and calls a function named
`launch_server*` (directly or as `mp.Process(target=launch_server, ...)`). Per release, class
name -> index of its reading (absent: not found):

- `exported`: the module `sglang/__init__.py` imports it from (null: not `sgl.NAME`);
- `path`: the modules followed, ending with the one defining the class;
- `starts`: the source of the call that starts the server;
- `params`: the parameters before `*args`, in order, each `[name, default source or null]`;
- `forwarded`: parameter -> the ServerArgs keyword it is passed as (`log_level=log_level`);
- `consumed`: the parameters not passed to ServerArgs (`launch_timeout`, Runtime from 0.5.7);
- `args`, `kwargs`: whether `*args` / `**kwargs` are passed on to ServerArgs;
- `set_by_class`: ServerArgs keywords the class passes from its own values (`port=port`,
  Runtime from 0.5.18: the free port found from the one requested), and `popped`: keys it
  takes out of `**kwargs` first (`port`).
"""

from __future__ import annotations

import ast
import os
import sys
import zipfile
from collections.abc import Callable

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from line_array import per_release_generator  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "src", "speclint", "sglang", "data", "sglang_launch_classes.json")
PACKAGE = "sglang"
CLASSES = {"HttpServerEngineAdapter": "sglang.srt.entrypoints.http_server_engine", "Runtime": PACKAGE}
"""Class name -> the module its search starts in (the package: what `sgl.NAME` is)."""
MAX_HOPS = 4


def _module_file(module: str) -> str:
    return module.replace(".", "/") + ("/__init__.py" if module == PACKAGE else ".py")


def _imported_from(body: list[ast.stmt], name: str) -> str | None:
    """The module a `from M import name` among `body` (not nested) binds `name` from."""
    for node in body:
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if any(alias.name == name and alias.asname in (None, name) for alias in node.names):
                return node.module
    return None


def _forwarding_function(function: ast.FunctionDef) -> str | None:
    """`def NAME(*args, **kwargs): from M import NAME; return NAME(*args, **kwargs)`: M; None
    for any other body."""
    name = function.name
    args = function.args
    if not (args.vararg and args.kwarg) or args.args or args.posonlyargs or args.kwonlyargs:
        return None
    module = _imported_from(function.body, name)
    returns = [n for n in function.body if isinstance(n, ast.Return)]
    if module is None or len(returns) != 1 or not isinstance(returns[0].value, ast.Call):
        return None
    call = returns[0].value
    passes_all = (
        isinstance(call.func, ast.Name)
        and call.func.id == name
        and len(call.args) == 1
        and isinstance(call.args[0], ast.Starred)
        and ast.unparse(call.args[0].value) == args.vararg.arg
        and len(call.keywords) == 1
        and call.keywords[0].arg is None
        and ast.unparse(call.keywords[0].value) == args.kwarg.arg
    )
    return module if passes_all else None


def _server_args_call(init: ast.FunctionDef) -> ast.Call | None:
    found = [
        n
        for n in ast.walk(init)
        if isinstance(n, ast.Call)
        and (
            (isinstance(n.func, ast.Name) and n.func.id == "ServerArgs")
            or (isinstance(n.func, ast.Attribute) and n.func.attr == "ServerArgs")
        )
    ]
    return found[0] if len(found) == 1 else None


def _starts(init: ast.FunctionDef) -> str | None:
    """The source of the call in `__init__` that starts the server: a function named
    `launch_server*` called, or passed as a process's `target=`."""
    for node in ast.walk(init):
        if not isinstance(node, ast.Call):
            continue
        called = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        targets = [k.value for k in node.keywords if k.arg == "target"]
        named = [t.id for t in targets if isinstance(t, ast.Name)]
        if called.startswith("launch_server") or any(n.startswith("launch_server") for n in named):
            return ast.unparse(node)
    return None


def read_class(cls: ast.ClassDef) -> dict[str, object] | None:
    """What the class's `__init__` hands ServerArgs; None when it builds none (or several) or
    starts no server."""
    init = next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None)
    if init is None:
        return None
    call = _server_args_call(init)
    starts = _starts(init)
    if call is None or starts is None:
        return None
    args = init.args
    positional = args.posonlyargs + args.args
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    named, defaults = positional[1:], defaults[1:]  # without self
    params = [[a.arg, ast.unparse(d) if d is not None else None] for a, d in zip(named, defaults)]
    names = {a.arg for a in named}
    vararg = args.vararg.arg if args.vararg else None
    kwarg = args.kwarg.arg if args.kwarg else None
    forwarded: dict[str, str] = {}
    set_by_class: dict[str, str] = {}
    passes_kwargs = False
    for keyword in call.keywords:
        if keyword.arg is None:
            passes_kwargs = passes_kwargs or ast.unparse(keyword.value) == kwarg
        elif isinstance(keyword.value, ast.Name) and keyword.value.id in names:
            forwarded[keyword.value.id] = keyword.arg
        else:
            set_by_class[keyword.arg] = ast.unparse(keyword.value)
    passes_args = any(isinstance(a, ast.Starred) and ast.unparse(a.value) == vararg for a in call.args)
    popped = sorted(
        {
            n.args[0].value
            for n in ast.walk(init)
            if isinstance(n, ast.Call)
            and isinstance(n.func, ast.Attribute)
            and n.func.attr == "pop"
            and ast.unparse(n.func.value) == kwarg
            and n.args
            and isinstance(n.args[0], ast.Constant)
            and isinstance(n.args[0].value, str)
        }
    )
    return {
        "starts": starts,
        "params": params,
        "forwarded": forwarded,
        "consumed": [p for p, _ in params if p not in forwarded],
        "args": passes_args,
        "kwargs": passes_kwargs,
        "set_by_class": set_by_class,
        "popped": popped,
    }


def read_release(path: str) -> dict[str, dict[str, object]]:
    """Class name -> its reading, for one wheel (a class not found, or not followed to a class
    that builds ServerArgs and starts a server, is left out)."""
    out: dict[str, dict[str, object]] = {}
    with zipfile.ZipFile(path) as archive:
        files = set(archive.namelist())

        def tree(module: str) -> ast.Module | None:
            name = _module_file(module)
            return ast.parse(archive.read(name).decode("utf-8")) if name in files else None

        for name, start in sorted(CLASSES.items()):
            reading = _follow(tree, name, start)
            if reading is not None:
                out[name] = reading
    return out


def _follow(tree: Callable[[str], ast.Module | None], name: str, start: str) -> dict[str, object] | None:
    """`name` looked up from module `start` (the package: through its import) to the class."""
    exported = None
    module: str | None = start
    if start == PACKAGE:
        package = tree(PACKAGE)
        exported = module = _imported_from(package.body, name) if package is not None else None
    followed: list[str] = []
    while module is not None and len(followed) < MAX_HOPS:
        followed.append(module)
        source = tree(module)
        if source is None:
            return None
        defined = [n for n in source.body if getattr(n, "name", None) == name]
        if not defined:
            module = _imported_from(source.body, name)
            continue
        node = defined[-1]
        if isinstance(node, ast.ClassDef):
            reading = read_class(node)
            return None if reading is None else {"exported": exported, "path": followed, **reading}
        module = _forwarding_function(node) if isinstance(node, ast.FunctionDef) else None
    return None


build, dump, main = per_release_generator(__doc__, OUT, lambda path: read_release(path).items())


if __name__ == "__main__":
    sys.exit(main())
