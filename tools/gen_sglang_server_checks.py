#!/usr/bin/env python3
"""Generate src/speclint/sglang/data/sglang_server_checks.json: asserts of `check_server_args`
speclint checks, read statically (`ast`, never imported) from each release's wheel.

    python tools/gen_sglang_server_checks.py              # every release the flag schema stores
    python tools/gen_sglang_server_checks.py --check      # regenerate and compare, write nothing

Per release, name -> index of its reading:

- `chunked_prefill_page`: the guard around `assert chunked_prefill_size % page_size == 0,
  "chunked_prefill_size must be divisible by page_size"` (server_args.py; 0.5.19+
  arg_groups/*.py): `"always"` (no `if` around it: 0.4.9.post4-0.4.10.post2 check -1 too),
  `"positive"` (`if chunked_prefill_size > 0:`), `"positive_not_decode"` (and
  `disaggregation_mode != "decode"`), `"other"` (a guard not read here), `"none"` (no such
  assert). Releases without that assert are read for its earlier form,
  `assert self.chunked_prefill_size % self.page_size == 0` with no message in
  `__post_init__` (0.4.4-0.4.9.post3, right after the chunked prefill default and before
  any page size an attention backend forces): `"post_init"` when no `if` is around it
  (`"other"` when one is).
"""

from __future__ import annotations

import ast
import os
import sys
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from line_array import per_release_generator  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "src", "speclint", "sglang", "data", "sglang_server_checks.json")
CHUNKED_PAGE = "chunked_prefill_size must be divisible by page_size"


def _message(node: ast.Assert) -> str | None:
    msg = node.msg
    return msg.value if isinstance(msg, ast.Constant) and isinstance(msg.value, str) else None


def _guards(tree: ast.Module, message: str) -> list[list[str]] | None:
    """For each assert with `message`: the tests of the `if`s around it (innermost last) up
    to its function; None when there is none."""
    found: list[list[str]] = []

    def walk(node: ast.AST, tests: list[str]) -> None:
        if isinstance(node, ast.Assert) and _message(node) == message:
            found.append(tests)
            return
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            tests = []
        if isinstance(node, ast.If):
            for child in node.body:
                walk(child, [*tests, ast.unparse(node.test)])
            for child in node.orelse:
                walk(child, [*tests, f"not ({ast.unparse(node.test)})"])
            return
        for child in ast.iter_child_nodes(node):
            walk(child, tests)

    walk(tree, [])
    return found or None


POST_INIT_TEST = "self.chunked_prefill_size % self.page_size == 0"


def _post_init_asserts(tree: ast.Module) -> list[list[str]]:
    """The tests of the `if`s around each message-less POST_INIT_TEST assert directly in a
    `__post_init__` (innermost last)."""
    found: list[list[str]] = []

    def walk(node: ast.AST, tests: list[str]) -> None:
        if isinstance(node, ast.Assert) and node.msg is None and ast.unparse(node.test) == POST_INIT_TEST:
            found.append(tests)
        elif isinstance(node, ast.If):
            for child in node.body:
                walk(child, [*tests, ast.unparse(node.test)])
            for child in node.orelse:
                walk(child, [*tests, f"not ({ast.unparse(node.test)})"])
        elif not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for child in ast.iter_child_nodes(node):
                walk(child, tests)

    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == "__post_init__":
            for child in node.body:
                walk(child, [])
    return found


def chunked_page_reading(sources: list[str]) -> str:
    guards = [g for source in sources for g in (_guards(ast.parse(source), CHUNKED_PAGE) or [])]
    if not guards:
        early = [g for source in sources for g in _post_init_asserts(ast.parse(source))]
        if not early:
            return "none"
        return "post_init" if early == [[]] else "other"
    if len(guards) > 1:
        return "other"
    tests = guards[0]
    if not tests:
        return "always"
    if len(tests) == 1:
        test = tests[0].replace("self.", "").replace("cfg.", "")
        if test == "chunked_prefill_size > 0":
            return "positive"
        if test in (
            "chunked_prefill_size > 0 and disaggregation_mode != 'decode'",
            'chunked_prefill_size > 0 and disaggregation_mode != "decode"',
        ):
            return "positive_not_decode"
    return "other"


def _resolution_file(name: str) -> bool:
    return name == "sglang/srt/server_args.py" or (
        name.startswith("sglang/srt/arg_groups/") and name.endswith(".py")
    )


def read_release(path: str) -> list[tuple[str, object]]:
    with zipfile.ZipFile(path) as archive:
        sources = [archive.read(n).decode("utf-8") for n in sorted(archive.namelist()) if _resolution_file(n)]
    sources = [s for s in sources if CHUNKED_PAGE in s or POST_INIT_TEST in s]
    return [("chunked_prefill_page", chunked_page_reading(sources))]


build, dump, main = per_release_generator(__doc__, OUT, read_release)


if __name__ == "__main__":
    sys.exit(main())
