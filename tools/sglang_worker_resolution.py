"""Where an SGLang release resolves the ServerArgs copy sglang-router's co-launcher gives each
worker, read statically (`ast`) from its wheel for tools/gen_sglang_router.py: the function
SGLang's `launch_server` starts the engine with (`_launch_subprocesses` in
`entrypoints/engine.py`, `launch_engine` in `server.py` before it) calls
`server_args.resolve_once()` and `ServerArgs.__post_init__` holds only its docstring:
"worker"; it calls only `server_args.check_server_args()` and `__post_init__` has statements:
"parent". Anything else stops the generator."""

from __future__ import annotations

import ast
import glob
import json
import os
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SGLANG_CACHE = os.path.join(ROOT, ".cache", "sglang-wheels")
SCHEMA = os.path.join(ROOT, "src", "speclint", "sglang", "flags", "data", "sglang_flags.json")
ENGINE_MODULES = ("sglang/srt/entrypoints/engine.py", "sglang/srt/server.py")
ENGINE_FUNCTIONS = ("_launch_subprocesses", "launch_engine")


class Unread(Exception):
    """Source this reader does not follow."""


def _function(tree: ast.ClassDef, name: str) -> ast.FunctionDef | None:
    return next((s for s in tree.body if isinstance(s, ast.FunctionDef) and s.name == name), None)


def _engine_calls(wheel: zipfile.ZipFile) -> list[str]:
    """The `server_args.resolve_once()` / `.check_server_args()` calls of the function that
    starts SGLang's engine, in source order."""
    names = set(wheel.namelist())
    for module in ENGINE_MODULES:
        if module not in names:
            continue
        tree = ast.parse(wheel.read(module))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name in ENGINE_FUNCTIONS:
                return [
                    c.func.attr
                    for c in ast.walk(node)
                    if isinstance(c, ast.Call)
                    and isinstance(c.func, ast.Attribute)
                    and ast.unparse(c.func.value) == "server_args"
                    and c.func.attr in ("resolve_once", "check_server_args")
                ]
    raise Unread(f"no {' or '.join(ENGINE_FUNCTIONS)} in {', '.join(ENGINE_MODULES)}")


def sglang_resolution(path: str) -> str:
    """Where an SGLang release resolves a co-launched worker's copy: "worker" or "parent"."""
    with zipfile.ZipFile(path) as wheel:
        calls = _engine_calls(wheel)
        tree = ast.parse(wheel.read("sglang/srt/server_args.py"))
    server_args = next((s for s in tree.body if isinstance(s, ast.ClassDef) and s.name == "ServerArgs"), None)
    if server_args is None:
        raise Unread("no class ServerArgs in sglang/srt/server_args.py")
    post_init = _function(server_args, "__post_init__")
    statements = [
        s
        for s in (post_init.body if post_init else [])
        if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))
    ]
    if "resolve_once" in calls and post_init is not None and not statements:
        return "worker"
    if calls == ["check_server_args"] and statements:
        return "parent"
    raise Unread(f"engine start calls {calls}, __post_init__ has {len(statements)} statements")


def sglang_versions(path: str = SCHEMA) -> list[str]:
    with open(path, encoding="utf-8") as handle:
        return list(json.loads(handle.read().split("\n")[1].rstrip(","))["versions"])


def sglang_wheel(version: str, cache: str = SGLANG_CACHE) -> str:
    found = sorted(glob.glob(os.path.join(cache, f"sglang-{version}-*.whl")))
    if not found:
        raise SystemExit(f"no wheel for sglang=={version} in {cache}")
    return found[-1]
