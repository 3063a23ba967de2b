#!/usr/bin/env python3
"""Generate src/speclint/sglang/data/sglang_fixtures.json: each release's test server
fixture base classes (`sglang/test/server_fixtures/*.py`), read statically (`ast`, never
imported) from its wheel, so that speclint can read the launch a subclass of one makes.

    python tools/gen_sglang_fixtures.py              # every release the flag schema stores
    python tools/gen_sglang_fixtures.py --check      # regenerate and compare, write nothing

Wheels come from `.cache/sglang-wheels/` (`pip download --no-deps sglang==V` when missing,
as tools/gen_sglang_schema.py does). Per release and fixture module, the module's source
reduced to what a launch reads, printed back with `ast.unparse`:

- the names it imports from `sglang.test.test_utils` (DEFAULT_TARGET_MODEL_EAGLE, ...) whose
  value that release's test_utils.py gives statically (a string, number, bool, None or a
  list/tuple of them), as `NAME = value` lines first; the others stay unbound (unknown);
- every module-level class: its attribute assignments, `setUpClass`/`setUp`/`setup_class`,
  the methods that call a function named like a launcher (`popen_launch_pd_server`), and
  the methods those call as `cls.X(...)` / `self.X(...)` (transitively), with their
  decorators; the other methods (requests, evals) are left out;
- the module-level assignments those read (`DEFAULT_NGRAM_SERVER_ARGS = [...]`).
"""

from __future__ import annotations

import ast
import os
import sys
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from line_array import per_release_generator  # noqa: E402
from sglang_source import Wheel  # noqa: E402
from sglang_static import Unresolved  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "src", "speclint", "sglang", "data", "sglang_fixtures.json")
FIXTURES = "sglang/test/server_fixtures/"
TEST_UTILS = "sglang.test.test_utils"
ENTRY_METHODS = ("setUpClass", "setUp", "setup_class")
"""Where SGLang's fixtures launch (unittest and pytest class setup)."""


def _literal(value: object) -> bool:
    if isinstance(value, (list, tuple)):
        return all(_literal(item) for item in value)
    return value is None or isinstance(value, (str, int, float, bool))


def _called_methods(node: ast.AST) -> set[str]:
    """`X` of every `cls.X(...)` / `self.X(...)` in `node`."""
    return {
        n.func.attr
        for n in ast.walk(node)
        if isinstance(n, ast.Call)
        and isinstance(n.func, ast.Attribute)
        and isinstance(n.func.value, ast.Name)
        and n.func.value.id in ("cls", "self")
    }


def _launches(function: ast.AST) -> bool:
    """Whether the method calls a function named like a launcher (`popen_launch_server`,
    `popen_launch_pd_server`): subclasses call such methods from their own setUpClass."""
    return any(
        isinstance(n, ast.Call)
        and "launch" in (n.func.id if isinstance(n.func, ast.Name) else getattr(n.func, "attr", "")).lower()
        for n in ast.walk(function)
    )


def _kept_methods(classes: list[ast.ClassDef]) -> set[str]:
    """Method names kept in any class of the module: the entry methods and what they call."""
    by_name: dict[str, list[ast.AST]] = {}
    for cls in classes:
        for item in cls.body:
            if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                by_name.setdefault(item.name, []).append(item)
    kept: set[str] = set()
    todo = [name for name in ENTRY_METHODS if name in by_name] + [
        name for name, functions in by_name.items() if any(_launches(f) for f in functions)
    ]
    while todo:
        name = todo.pop()
        if name in kept:
            continue
        kept.add(name)
        for function in by_name[name]:
            todo += [n for n in _called_methods(function) if n in by_name and n not in kept]
    return kept


def reduce_module(wheel: Wheel, name: str, source: str) -> str:
    """The module's source reduced to what a launch in its classes reads (module doc)."""
    tree = ast.parse(source)
    classes = [node for node in tree.body if isinstance(node, ast.ClassDef)]
    kept = _kept_methods(classes)
    out_classes: list[ast.stmt] = []
    for cls in classes:
        body: list[ast.stmt] = [
            item
            for item in cls.body
            if isinstance(item, ast.Assign)
            or (isinstance(item, ast.AnnAssign) and item.value is not None)
            or (isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name in kept)
        ]
        out_classes.append(
            ast.ClassDef(
                name=cls.name,
                bases=cls.bases,
                keywords=cls.keywords,
                body=body or [ast.Pass()],
                decorator_list=cls.decorator_list,
            )
        )
    assigned = {
        target.id: node
        for node in tree.body
        if isinstance(node, (ast.Assign, ast.AnnAssign))
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(target, ast.Name)
    }
    imported = {
        alias.asname or alias.name: alias.name
        for node in tree.body
        if isinstance(node, ast.ImportFrom) and node.module == TEST_UTILS
        for alias in node.names
    }
    needed: list[ast.stmt] = []
    seen: set[str] = set()
    todo = [n.id for c in out_classes for n in ast.walk(c) if isinstance(n, ast.Name)]
    while todo:
        used = todo.pop()
        if used in seen or used not in assigned:
            continue
        seen.add(used)
        node = assigned[used]
        if node not in needed:
            needed.append(node)
            todo += [n.id for n in ast.walk(node) if isinstance(n, ast.Name)]
    used_names = {n.id for s in out_classes + needed for n in ast.walk(s) if isinstance(n, ast.Name)}
    module = wheel.module(name)
    header: list[str] = []
    for local in sorted(used_names & set(imported)):
        try:
            value = module.lookup(local)
        except (Unresolved, RecursionError):
            continue
        if _literal(value):
            header.append(f"{local} = {value!r}")
    needed.sort(key=lambda node: node.lineno)
    text = ast.unparse(ast.Module(needed + out_classes, []))
    return "\n".join(header + [text]) + "\n"


def read_release(path: str) -> dict[str, str]:
    """Fixture module name -> reduced source, for one wheel (empty: the release has none)."""
    with zipfile.ZipFile(path) as archive:
        files = sorted(
            n
            for n in archive.namelist()
            if n.startswith(FIXTURES) and n.endswith(".py") and "__init__" not in n
        )
        sources = {n: archive.read(n).decode("utf-8") for n in files}
    wheel = Wheel(path)
    out: dict[str, str] = {}
    for file, source in sources.items():
        name = file[: -len(".py")].replace("/", ".")
        out[name] = reduce_module(wheel, name, source)
    return out


build, dump, main = per_release_generator(__doc__, OUT, lambda path: sorted(read_release(path).items()))


if __name__ == "__main__":
    sys.exit(main())
