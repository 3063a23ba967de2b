#!/usr/bin/env python3
"""Generate src/speclint/sglang/data/sglang_entry_modules.json: the modules of each release
that `python -m` runs as a script, and which of them parse SGLang's server flags, read
statically (`ast`, never imported) from its wheel.

    python tools/gen_sglang_entry_modules.py              # every release the flag schema stores
    python tools/gen_sglang_entry_modules.py --check      # regenerate and compare, write nothing

Per release, name -> index of its reading:

- `scripts`: every module under `sglang/` (tests left out: `sglang.test.*`, `*.test.*`) whose
  top level has an `if __name__ == "__main__":` block, or a package's `__main__.py`, by
  module name (`sglang.bench_serving`, `sglang.compile_deep_gemm`), sorted.
- `server_flags`: those of `scripts` that parse SGLang's server flags: the module calls
  `ServerArgs.add_cli_args(...)` or `prepare_server_args(...)`, the name imported from
  `sglang.srt.server_args` (`sglang.launch_server`, `sglang.bench_one_batch`,
  `sglang.compile_deep_gemm`; not the diffusion server's own `ServerArgs`), sorted.
"""

from __future__ import annotations

import ast
import os
import sys
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from line_array import per_release_generator  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "src", "speclint", "sglang", "data", "sglang_entry_modules.json")


def module_name(path: str) -> str | None:
    """`sglang/a/b.py` -> `sglang.a.b` (`sglang/a/__main__.py` -> `sglang.a`); None for a test."""
    if not path.startswith("sglang/") or not path.endswith(".py"):
        return None
    name = path[:-3].replace("/", ".")
    name = name.removesuffix(".__main__")
    if name.startswith("sglang.test.") or ".test." in name or name.endswith(".__init__"):
        return None
    return name


def _main_guard(statement: ast.stmt) -> bool:
    test = statement.test if isinstance(statement, ast.If) else None
    return (
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Name)
        and test.left.id == "__name__"
        and len(test.comparators) == 1
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value == "__main__"
    )


def _parses_server_flags(tree: ast.Module) -> bool:
    """`ServerArgs.add_cli_args(...)` or `prepare_server_args(...)`, the name imported from
    `sglang.srt.server_args` (not the diffusion server's own `ServerArgs`)."""
    imported = {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "sglang.srt.server_args" and not node.level
        for alias in node.names
    }
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if (
            isinstance(func, ast.Attribute)
            and func.attr == "add_cli_args"
            and isinstance(func.value, ast.Name)
            and func.value.id == "ServerArgs"
            and "ServerArgs" in imported
        ):
            return True
        if isinstance(func, ast.Name) and func.id == "prepare_server_args" and func.id in imported:
            return True
    return False


def entry_modules(sources: dict[str, str]) -> tuple[list[str], list[str]]:
    """(scripts, those that parse the server flags) of a wheel's `path -> source`."""
    scripts: list[str] = []
    server: list[str] = []
    for path, source in sorted(sources.items()):
        name = module_name(path)
        if name is None or ("__main__" not in source):
            continue
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue
        if not path.endswith("__main__.py") and not any(_main_guard(s) for s in tree.body):
            continue
        scripts.append(name)
        if _parses_server_flags(tree):
            server.append(name)
    return sorted(scripts), sorted(server)


def read_release(path: str) -> list[tuple[str, object]]:
    with zipfile.ZipFile(path) as archive:
        sources = {
            name: archive.read(name).decode("utf-8", "replace")
            for name in archive.namelist()
            if module_name(name) is not None
        }
    scripts, server = entry_modules(sources)
    return [("scripts", scripts), ("server_flags", server)]


build, dump, main = per_release_generator(__doc__, OUT, read_release)


if __name__ == "__main__":
    sys.exit(main())
