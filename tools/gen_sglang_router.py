#!/usr/bin/env python3
"""Generate src/speclint/sglang/data/sglang_router.json: the options `python -m
sglang_router.launch_server` adds to its parser besides SGLang's, per sglang-router release,
read statically (`ast`, never imported) from each release's wheel.

    python tools/gen_sglang_router.py              # every release the data file stores
    python tools/gen_sglang_router.py 0.3.2 ...    # these releases
    python tools/gen_sglang_router.py --check      # regenerate and compare, write nothing

Wheels are fetched with `pip download --no-deps sglang-router==V` into
`.cache/sglang-router-wheels`. `sglang_router/launch_server.py`'s `main()` builds one
argparse parser: `ServerArgs.add_cli_args(parser)` (SGLang's flags: not recorded here, the
flag schema has them), `RouterArgs.add_cli_args(parser, use_router_prefix=True,
exclude_host_port=True)` and its own `parser.add_argument(...)` calls. `RouterArgs` is looked
up through the module's imports (`sglang_router/router_args.py` from 0.2.0,
`sglang_router/launch_router.py` before). Its `add_cli_args` body is followed with the call's
keyword values bound: `prefix = "router-" if use_router_prefix else ""`, groups
(`parser.add_argument_group(...)`) standing for the parser, an `if` whose test resolves taking
its branch (`if not exclude_host_port:` skips `--host`/`--port`). Anything else that adds an
option (a test that does not resolve, an option string not built from literals and names
bound so) stops the generator: no option is guessed.

Per release (header order, oldest first) a row: `[[option_strings, action, nargs, type,
choices], ...]` in add_argument order (`action` "store" unless given; `nargs` null unless
given; `type` "int", "float", "str" (also when not given) or "other" (another callable);
`choices` the literal list, null when not given or not a literal).

What each data-parallel worker gets (header `worker_sets`): `launch_server_process(server_args,
worker_port, dp_id)` copies the parsed `ServerArgs` (`server_args = copy.deepcopy(server_args)`)
and assigns fields on the copy before starting the worker; each `server_args.FIELD = VALUE` is
kept as `[FIELD, VALUE's source]` in order. Every release read must assign the same (the
generator stops otherwise: one reading is stored, not one per release).

The checks the router's Python code makes on its arguments when the co-launcher starts it
(header `refusals`, per release that has any): tools/sglang_router_refusals.py.

When SGLang resolves the worker's copy (header `sglang_resolution`, per SGLang release the flag
schema stores, read from its wheel in `.cache/sglang-wheels` by tools/sglang_worker_resolution.py): the function SGLang's
`launch_server` starts the engine with (`_launch_subprocesses` in `entrypoints/engine.py`,
`launch_engine` in `server.py` before it) calls `server_args.resolve_once()` and
`ServerArgs.__post_init__` has nothing but its docstring: "worker" (resolution runs in the
worker, on the copy with the co-launcher's values); it calls only
`server_args.check_server_args()` and `__post_init__` has statements: "parent" (resolution
ran when the co-launcher built `ServerArgs.from_cli_args(args)`, with the values written; the
worker's `check_server_args()` sees the copy's). Anything else stops the generator.
"""

from __future__ import annotations

import ast
import glob
import json
import os
import subprocess
import sys
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from line_array import generator_main, line_array  # noqa: E402
from sglang_router_refusals import Unread as RefusalUnread  # noqa: E402
from sglang_router_refusals import read_refusals  # noqa: E402
from sglang_worker_resolution import SGLANG_CACHE, sglang_resolution, sglang_versions, sglang_wheel  # noqa: E402
from sglang_worker_resolution import Unread as ResolutionUnread  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "src", "speclint", "sglang", "data", "sglang_router.json")
CACHE = os.path.join(ROOT, ".cache", "sglang-router-wheels")
LAUNCHER = "sglang_router/launch_server.py"


class Unread(Exception):
    """Source the generator does not follow (it stops rather than guess)."""


def release_key(version: str) -> tuple[int, ...]:
    return tuple(int(p) for p in version.split("."))


def wheel_path(version: str, cache: str = CACHE) -> str:
    pattern = os.path.join(cache, f"sglang_router-{version}-*.whl")
    found = sorted(glob.glob(pattern))
    if not found:
        os.makedirs(cache, exist_ok=True)
        command = [sys.executable, "-m", "pip", "download", "--no-deps", "--quiet"]
        command += ["--disable-pip-version-check", "-d", cache, f"sglang-router=={version}"]
        subprocess.run(command, check=True)
        found = sorted(glob.glob(pattern))
    if not found:
        raise SystemExit(f"no wheel for sglang-router=={version} in {cache}")
    return found[-1]


def _function(tree: ast.Module | ast.ClassDef, name: str) -> ast.FunctionDef | None:
    return next((s for s in tree.body if isinstance(s, ast.FunctionDef) and s.name == name), None)


def _imported_from(tree: ast.Module, name: str) -> str | None:
    """The module `from M import name` names at the top of the file."""
    for stmt in tree.body:
        if isinstance(stmt, ast.ImportFrom) and any((a.asname or a.name) == name for a in stmt.names):
            return stmt.module
    return None


class _Body:
    """Follows one function body, collecting `add_argument` calls on the parser's names."""

    def __init__(self, names: dict[str, object], parsers: set[str]) -> None:
        self.names = names
        self.parsers = parsers
        self.options: list[list[object]] = []
        self.calls: list[ast.Call] = []
        """Other `X.add_cli_args(parser, ...)` calls met (launch_server's main)."""

    def value(self, node: ast.expr) -> object:
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name) and node.id in self.names:
            return self.names[node.id]
        if isinstance(node, ast.JoinedStr):
            parts = []
            for part in node.values:
                if isinstance(part, ast.FormattedValue) and not part.format_spec and part.conversion == -1:
                    parts.append(str(self.value(part.value)))
                else:
                    parts.append(str(self.value(part)))
            return "".join(parts)
        if isinstance(node, ast.IfExp):
            return self.value(node.body) if self.value(node.test) else self.value(node.orelse)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return not self.value(node.operand)
        raise Unread(f"line {node.lineno}: {ast.unparse(node)}")

    def run(self, body: list[ast.stmt]) -> None:
        for stmt in body:
            if isinstance(stmt, ast.If):
                self.run(stmt.body if self.value(stmt.test) else stmt.orelse)
            elif (
                isinstance(stmt, ast.Assign)
                and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name)
            ):
                self._assign(stmt.targets[0].id, stmt.value)
            elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
                self._call(stmt.value)
            elif any(self._adds(n) for n in ast.walk(stmt)):
                raise Unread(f"line {stmt.lineno}: {ast.unparse(stmt)[:200]}")

    def _adds(self, node: ast.AST) -> bool:
        return isinstance(node, ast.Attribute) and node.attr in ("add_argument", "add_cli_args")

    def _assign(self, name: str, value: ast.expr) -> None:
        func = value.func if isinstance(value, ast.Call) else None
        if isinstance(func, ast.Attribute) and func.attr in (
            "add_argument_group",
            "add_mutually_exclusive_group",
        ):
            if isinstance(func.value, ast.Name) and func.value.id in self.parsers:
                self.parsers.add(name)
                return
        if isinstance(func, ast.Attribute) and func.attr == "ArgumentParser":
            self.parsers.add(name)
            return
        if any(self._adds(n) for n in ast.walk(value)):
            raise Unread(f"line {value.lineno}: {ast.unparse(value)[:200]}")
        try:
            self.names[name] = self.value(value)
        except Unread:
            self.names.pop(name, None)  # a name not needed unless an option string uses it

    def _call(self, call: ast.Call) -> None:
        func = call.func
        if not isinstance(func, ast.Attribute):
            return
        if func.attr == "add_argument":
            if not (isinstance(func.value, ast.Name) and func.value.id in self.parsers):
                raise Unread(f"line {call.lineno}: add_argument on {ast.unparse(func.value)}")
            strings = [self.value(a) for a in call.args]
            keywords = {k.arg: k.value for k in call.keywords}
            action = self.value(keywords["action"]) if "action" in keywords else "store"
            nargs = self.value(keywords["nargs"]) if "nargs" in keywords else None
            if not all(isinstance(s, str) for s in strings) or not isinstance(action, str):
                raise Unread(f"line {call.lineno}: {ast.unparse(call)[:200]}")
            self.options.append([strings, action, nargs, _type(keywords), _choices(keywords)])
        elif func.attr == "add_cli_args":
            self.calls.append(call)


def _type(keywords: dict[str | None, ast.expr]) -> str:
    """argparse's `type=`: "int", "float" or "str" when it names that builtin, "str" when not
    given (argparse keeps the word), "other" for anything else (not converted here)."""
    node = keywords.get("type")
    if node is None:
        return "str"
    if isinstance(node, ast.Name) and node.id in ("int", "float", "str"):
        return node.id
    return "other"


def _choices(keywords: dict[str | None, ast.expr]) -> list[object] | None:
    """`choices=` when written as a literal list or tuple; None when absent or not a literal
    (`choices=tool_call_parser_choices`: computed when the parser is built, not read)."""
    node = keywords.get("choices")
    if node is None:
        return None
    try:
        value = ast.literal_eval(node)
    except ValueError:
        return None
    return list(value) if isinstance(value, (list, tuple)) else None


def _router_args_class(wheel: zipfile.ZipFile, module: str) -> ast.ClassDef:
    """`RouterArgs` as `module` names it, following `from M import RouterArgs` once more."""
    for _ in range(3):
        tree = ast.parse(wheel.read(module.replace(".", "/") + ".py"))
        found = next((s for s in tree.body if isinstance(s, ast.ClassDef) and s.name == "RouterArgs"), None)
        if found is not None:
            return found
        source = _imported_from(tree, "RouterArgs")
        if source is None:
            break
        module = source
    raise Unread(f"RouterArgs not found from {module}")


def read_release(path: str) -> list[list[object]]:
    """The options launch_server's parser adds besides `ServerArgs.add_cli_args`, in order."""
    with zipfile.ZipFile(path) as wheel:
        if LAUNCHER not in wheel.namelist():
            raise Unread(f"no {LAUNCHER} (the release has no co-launcher)")
        tree = ast.parse(wheel.read(LAUNCHER))
        main = _function(tree, "main")
        if main is None:
            raise Unread(f"{LAUNCHER} has no main()")
        outer = _Body({}, set())
        options: list[list[object]] = []
        for stmt in main.body:  # in order: RouterArgs' options, then main's own
            before = len(outer.calls)
            outer.run([stmt])
            for call in outer.calls[before:]:
                options += _cli_args(wheel, tree, call, outer.parsers)
            options += outer.options
            outer.options = []
        return options


def release_refusals(path: str, options: list[list[object]]) -> list[list[object]]:
    """The router-argument checks `launch_router(router_args)` makes (sglang_router_refusals)."""
    with zipfile.ZipFile(path) as wheel:
        tree = ast.parse(wheel.read(LAUNCHER))
        main = _function(tree, "main")
        if main is None or not any(
            isinstance(n, ast.Call) and ast.unparse(n) == "launch_router(router_args)" for n in ast.walk(main)
        ):
            raise Unread("main() does not call launch_router(router_args)")
        module = _imported_from(tree, "RouterArgs")
        if module is None:
            raise Unread("RouterArgs is not imported by name")
        try:
            return read_refusals(wheel, _router_args_class(wheel, module), options)
        except RefusalUnread as problem:
            raise Unread(str(problem)) from None


def _cli_args(
    wheel: zipfile.ZipFile, tree: ast.Module, call: ast.Call, parsers: set[str]
) -> list[list[object]]:
    func = call.func
    assert isinstance(func, ast.Attribute)
    owner = func.value.id if isinstance(func.value, ast.Name) else ""
    if owner == "ServerArgs":
        return []  # SGLang's own flags: the flag schema has them
    if owner != "RouterArgs" or not call.args or not isinstance(call.args[0], ast.Name):
        raise Unread(f"line {call.lineno}: {ast.unparse(call)}")
    if call.args[0].id not in parsers:
        raise Unread(f"line {call.lineno}: {ast.unparse(call)}")
    module = _imported_from(tree, "RouterArgs")
    if module is None:
        raise Unread("RouterArgs is not imported by name")
    method = _function(_router_args_class(wheel, module), "add_cli_args")
    if method is None:
        raise Unread("RouterArgs has no add_cli_args")
    params = [a.arg for a in method.args.args]
    names: dict[str, object] = {}
    defaults = method.args.defaults
    for param, default in zip(params[len(params) - len(defaults) :], defaults):
        names[param] = ast.literal_eval(default)
    for param, arg in zip(params[1:], call.args[1:]):
        names[param] = ast.literal_eval(arg)
    for keyword in call.keywords:
        names[str(keyword.arg)] = ast.literal_eval(keyword.value)
    body = _Body(names, {params[0]})
    body.run(method.body)
    return body.options


def worker_sets(path: str) -> list[list[str]]:
    """`[field, value source]` for each `server_args.FIELD = VALUE` in `launch_server_process`
    after its `copy.deepcopy`: what the co-launcher sets on each worker's ServerArgs."""
    with zipfile.ZipFile(path) as wheel:
        tree = ast.parse(wheel.read(LAUNCHER))
    function = _function(tree, "launch_server_process")
    if function is None:
        raise Unread(f"{LAUNCHER} has no launch_server_process()")
    body = [s for s in function.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    copy_of = "copy.deepcopy(server_args)"
    if not body or not isinstance(body[0], ast.Assign) or ast.unparse(body[0].value) != copy_of:
        raise Unread("launch_server_process does not start with server_args = copy.deepcopy(server_args)")
    found: list[list[str]] = []
    for stmt in body[1:]:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target = stmt.targets[0]
            if isinstance(target, ast.Attribute) and ast.unparse(target.value) == "server_args":
                found.append([target.attr, ast.unparse(stmt.value)])
                continue
        assigns = isinstance(stmt, (ast.Assign, ast.AugAssign, ast.AnnAssign))
        if assigns and "server_args." in ast.unparse(stmt):
            raise Unread(f"launch_server_process line {stmt.lineno}: {ast.unparse(stmt)[:200]}")
    return found


def stored_versions(path: str = OUT) -> list[str]:
    """The releases the stored data covers (the default: regenerate what is there)."""
    with open(path, encoding="utf-8") as handle:
        lines = handle.read().split("\n")
    header: dict[str, list[str]] = json.loads(lines[1].rstrip(","))
    return header["versions"]


def build(
    versions: list[str], cache: str = CACHE, sglang_cache: str = SGLANG_CACHE
) -> tuple[dict[str, object], list[object]]:
    versions = sorted(versions, key=release_key)
    rows = []
    sets: list[list[str]] | None = None
    refusals: dict[str, list[list[object]]] = {}
    for version in versions:
        try:
            path = wheel_path(version, cache)
            rows.append(read_release(path))
            found = worker_sets(path)
            checks = release_refusals(path, rows[-1])
        except Unread as problem:
            raise SystemExit(f"sglang-router {version}: {problem}") from None
        if sets is not None and found != sets:
            raise SystemExit(f"sglang-router {version}: launch_server_process sets {found}, not {sets}")
        sets = found
        if checks:
            refusals[version] = checks
    resolution: dict[str, str] = {}
    for version in sglang_versions():
        try:
            resolution[version] = sglang_resolution(sglang_wheel(version, sglang_cache))
        except ResolutionUnread as problem:
            raise SystemExit(f"sglang {version}: {problem}") from None
    header: dict[str, object] = {"format": 1, "package": "sglang-router"}
    header["module"] = "sglang_router.launch_server"
    header["versions"] = versions
    header["worker_sets"] = sets or []
    header["sglang_resolution"] = resolution
    header["refusals"] = refusals
    return header, rows


def dump(data: tuple[dict[str, object], list[object]]) -> str:
    return line_array(data[0], data[1], [])


def main(argv: list[str] | None = None) -> int:
    return generator_main(
        argv,
        (__doc__ or "").splitlines()[0],
        OUT,
        lambda given, out: given or stored_versions(out),
        build,
        dump,
        lambda data, text: f"{len(data[1])} releases, {len(text)} bytes",
        {"cache": CACHE, "sglang_cache": SGLANG_CACHE},
    )


if __name__ == "__main__":
    sys.exit(main())
