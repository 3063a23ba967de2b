#!/usr/bin/env python3
"""Generate src/speclint/sglang/data/sglang_bench.json: the parsers of SGLang's benchmark
scripts that start an engine or a server from SGLang's flags (`python -m
sglang.bench_one_batch`, `sglang.bench_offline_throughput`, `sglang.bench_one_batch_server`,
and their `sglang.benchmark.*` homes), per release, read statically (`ast`, never imported)
from each release's wheel.

    python tools/gen_sglang_bench.py              # every release the flag schema stores
    python tools/gen_sglang_bench.py --check      # regenerate and compare, write nothing

Per module present in the wheel, its `if __name__ == "__main__":` block is followed: either
the parser is built there, or the block calls one function (`cli_main()`), defined in the
module or imported from another (`from sglang.benchmark.one_batch_server import cli_main`:
the deprecated path forwarding to the new one), whose body builds it. That body must be, in
order: `parser = argparse.ArgumentParser(...)` (its keywords: `allow_abbrev`, `add_help`),
then calls adding options to it: `ServerArgs.add_cli_args(parser)` (SGLang's flags: the flag
schema has them), `X.add_cli_args(parser)` for the script's own class (`BenchArgs`, looked up
through the module's names), `parser.add_argument(...)`, then `parser.parse_args()` or
`parser.parse_known_args()`. A class's `add_cli_args` is walked as the flag schema's
generator walks ServerArgs' (`parser.add_argument` calls, groups, `if`s whose test resolves;
`sglang_actions.build_action` makes each entry, in the flag schema's definition format).
Anything else that adds an option, a parser built elsewhere, or a `ServerArgs` that is not
`sglang.srt.server_args.ServerArgs` stops the generator: nothing is guessed.

Per release, module -> index of its reading (absent: the module is not in the wheel):

- `path`: the modules followed, ending with the one building the parser;
- `parser`: `{"allow_abbrev": bool, "add_help": bool}` as `ArgumentParser(...)` is called;
- `parse`: `parse_args` or `parse_known_args`;
- `server_at`: how many of `options` argparse registers before SGLang's (0: all after);
- `options`: the script's own options in add_argument order (the flag schema's format,
  without `help`).
"""

from __future__ import annotations

import ast
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from line_array import per_release_generator  # noqa: E402
from sglang_actions import build_action  # noqa: E402
from sglang_args import argument_call, group_title  # noqa: E402
from sglang_source import Wheel  # noqa: E402
from sglang_static import ClassRef, Evaluator, FuncRef, Opaque, Unresolved  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "src", "speclint", "sglang", "data", "sglang_bench.json")
MODULES = (
    "sglang.bench_one_batch",
    "sglang.bench_offline_throughput",
    "sglang.bench_one_batch_server",
    "sglang.benchmark.one_batch",
    "sglang.benchmark.offline_throughput",
    "sglang.benchmark.one_batch_server",
)
"""The modules `python -m` runs that parse SGLang's flags beside their own."""
SERVER_ARGS = ("sglang.srt.server_args", "ServerArgs")
PARSER_KEYWORDS = {"allow_abbrev": True, "add_help": True}
"""`argparse.ArgumentParser`'s defaults for the keywords that change how argv is read."""


class Unread(Exception):
    """Source the generator does not follow (it stops rather than guess)."""


def _main_block(tree: ast.Module) -> list[ast.stmt] | None:
    for stmt in tree.body:
        if isinstance(stmt, ast.If) and ast.unparse(stmt.test) in (
            "__name__ == '__main__'",
            '__name__ == "__main__"',
        ):
            return stmt.body
    return None


def _builds_parser(body: list[ast.stmt]) -> bool:
    return any(isinstance(n, ast.Attribute) and n.attr == "ArgumentParser" for s in body for n in ast.walk(s))


def _called_function(body: list[ast.stmt]) -> str | None:
    """The one plain call `f()` of a `__main__` block that does not build the parser itself."""
    calls = [
        s.value.func.id
        for s in body
        if isinstance(s, ast.Expr) and isinstance(s.value, ast.Call) and isinstance(s.value.func, ast.Name)
    ]
    return calls[0] if len(calls) == 1 else None


class _ClassWalk:
    """A class's `add_cli_args(parser)`: its `parser.add_argument` calls, as entries."""

    def __init__(self, cls: ClassRef) -> None:
        self.cls = cls
        self.options: list[dict] = []

    def run(self) -> list[dict]:
        method = next(
            (s for s in self.cls.node.body if isinstance(s, ast.FunctionDef) and s.name == "add_cli_args"),
            None,
        )
        if method is None:
            raise Unread(f"{self.cls.name} has no add_cli_args")
        self._walk(method.body, Evaluator(self.cls.mod), {method.args.args[0].arg: None})
        return self.options

    def _walk(self, body: list[ast.stmt], ev: Evaluator, parsers: dict[str, object]) -> None:
        for stmt in body:
            call = argument_call(stmt, parsers)
            if call is not None:
                assert isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name)
                self.options.append(_entry(call, ev, parsers[call.func.value.id]))
            elif (
                isinstance(stmt, ast.Assign)
                and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name)
            ):
                target, value = stmt.targets[0].id, stmt.value
                title = group_title(target, value)
                if title is not None:
                    parsers[target] = title
                    continue
                if _adds(value):
                    raise Unread(f"{self.cls.name} line {stmt.lineno}: {ast.unparse(stmt)[:160]}")
                try:
                    ev.local[target] = ev.eval(value)
                except Unresolved:
                    ev.local[target] = Opaque(ast.unparse(value))
            elif isinstance(stmt, ast.If):
                try:
                    test = ev.eval(stmt.test)
                except Unresolved:
                    raise Unread(f"{self.cls.name} line {stmt.lineno}: if {ast.unparse(stmt.test)}") from None
                self._walk(stmt.body if test else stmt.orelse, ev, parsers)
            elif _adds(stmt) or not isinstance(stmt, (ast.Expr, ast.Pass)):
                raise Unread(f"{self.cls.name} line {stmt.lineno}: {ast.unparse(stmt)[:160]}")


def _adds(node: ast.AST) -> bool:
    return any(
        isinstance(n, ast.Attribute) and n.attr in ("add_argument", "add_cli_args") for n in ast.walk(node)
    )


def _entry(call: ast.Call, ev: Evaluator, group: object) -> dict:
    options = [ev.eval(a) for a in call.args]
    if not all(isinstance(o, str) for o in options):
        raise Unread(f"line {call.lineno}: option strings {ast.unparse(call)[:120]}")
    kwargs, unresolved = {}, {}
    for kw in call.keywords:
        try:
            kwargs[kw.arg] = ev.eval(kw.value)
        except Unresolved:
            unresolved[kw.arg] = ast.unparse(kw.value)
    entry = build_action(options, kwargs, unresolved, group)
    entry.pop("group", None)
    entry.pop("help", None)  # what it does is the script's business; the size is ours
    return entry


def _imported(mod, node: ast.expr) -> tuple[str, str] | None:
    """(module, name) a plain name was imported as, without evaluating it (0.5.20 on,
    `sglang.srt.server_args` rebinds `ServerArgs` to a class built at import)."""
    if isinstance(node, ast.Name):
        found = mod.defs.get(node.id)
        if found is not None and found[0] == "from":
            return found[1], found[2]
        if found is not None and found[0] == "class":
            return mod.name, node.id
    return None


def _parser_body(mod, body: list[ast.stmt]) -> dict:
    """The reading of the statements that build, fill and run the parser."""
    parser_name = None
    reading: dict = {"parser": dict(PARSER_KEYWORDS), "parse": None, "server_at": None, "options": []}
    for stmt in body:
        if reading["parse"] is not None:
            break
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.value, ast.Call):
            func = stmt.value.func
            target = stmt.targets[0]
            if (
                isinstance(func, ast.Attribute)
                and func.attr == "ArgumentParser"
                and isinstance(target, ast.Name)
            ):
                parser_name = target.id
                for kw in stmt.value.keywords:
                    if kw.arg in PARSER_KEYWORDS:
                        if not isinstance(kw.value, ast.Constant):
                            raise Unread(f"line {stmt.lineno}: {ast.unparse(stmt)}")
                        reading["parser"][kw.arg] = kw.value.value
                continue
            if (
                parser_name
                and isinstance(func, ast.Attribute)
                and func.attr in ("parse_args", "parse_known_args")
                and ast.unparse(func.value) == parser_name
            ):
                if stmt.value.args or stmt.value.keywords:
                    raise Unread(f"line {stmt.lineno}: {ast.unparse(stmt)}")
                reading["parse"] = func.attr
                continue
        if parser_name is None:
            if _adds(stmt):
                raise Unread(
                    f"line {stmt.lineno}: options added before the parser: {ast.unparse(stmt)[:120]}"
                )
            continue
        call = stmt.value if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) else None
        func = call.func if call is not None else None
        passes_parser = call is not None and [ast.unparse(a) for a in call.args] == [parser_name]
        if (
            isinstance(func, ast.Attribute)
            and func.attr == "add_cli_args"
            and passes_parser
            and not call.keywords
        ):
            if _imported(mod, func.value) == SERVER_ARGS:
                if reading["server_at"] is not None:
                    raise Unread(f"line {stmt.lineno}: ServerArgs added twice")
                reading["server_at"] = len(reading["options"])
            else:
                owner = Evaluator(mod).eval(func.value)
                if not isinstance(owner, ClassRef) or (owner.mod.name, owner.name) == SERVER_ARGS:
                    raise Unread(f"line {stmt.lineno}: {ast.unparse(stmt)}")
                reading["options"].extend(_ClassWalk(owner).run())
        elif (
            isinstance(func, ast.Attribute)
            and func.attr == "add_argument"
            and ast.unparse(func.value) == parser_name
        ):
            reading["options"].append(_entry(call, Evaluator(mod), None))
        elif _adds(stmt) or (parser_name in {n.id for n in ast.walk(stmt) if isinstance(n, ast.Name)}):
            raise Unread(f"line {stmt.lineno}: {ast.unparse(stmt)[:160]}")
    if reading["parse"] is None or reading["server_at"] is None:
        raise Unread("no parser with ServerArgs' flags that parses argv")
    return reading


def read_module(wheel: Wheel, name: str) -> dict | None:
    """One module's reading; None when the wheel has no such module."""
    mod = wheel.module(name)
    if mod is None:
        return None
    body = _main_block(mod.tree)
    if body is None:
        raise Unread(f"{name}: no `if __name__ == '__main__':` block")
    path = [name]
    if not _builds_parser(body):
        called = _called_function(body)
        if called is None:
            raise Unread(f"{name}: the __main__ block neither builds a parser nor calls one function")
        function = mod.lookup(called)
        if not isinstance(function, FuncRef):
            raise Unread(f"{name}: {called} is not a function")
        mod, body = function.mod, function.node.body
        if mod.name != name:
            path.append(mod.name)
    return {"path": path, **_parser_body(mod, body)}


def read_release(path: str) -> dict[str, dict]:
    wheel = Wheel(path)
    out = {}
    for name in MODULES:
        try:
            reading = read_module(wheel, name)
        except (Unread, Unresolved) as error:
            raise SystemExit(f"{os.path.basename(path)}: {name}: {error}") from None
        if reading is not None:
            out[name] = reading
    return out


build, dump, main = per_release_generator(__doc__, OUT, lambda path: read_release(path).items())


if __name__ == "__main__":
    sys.exit(main())
