"""No module of speclint imports itself back, even through a type-only or a function-level import.

The graph is read from the source (the AST of every module under src/speclint), never by
importing it: every `import` and `from ... import` counts wherever it is written (under
`if TYPE_CHECKING:`, inside a function). `from pkg import name` is an edge to the module
`pkg.name` when there is one, else to `pkg`; the implicit import of a module's parent packages
is not an edge.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"

KNOWN_CYCLES: dict[frozenset[str], str] = {}
"""Cycles that predate this test, in packages being moved by other work (issue 18): each is
named with where it is being moved; the test fails on any other cycle, and on one of these
growing. Remove an entry when its cycle is gone."""


def modules(root: Path) -> dict[str, tuple[Path, bool]]:
    """Every module under `root/speclint`: dotted name -> (file, is a package)."""
    found = {}
    for path in sorted((root / "speclint").rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        package = parts[-1] == "__init__"
        if package:
            parts.pop()
        found[".".join(parts)] = (path, package)
    return found


def import_graph(root: Path) -> dict[str, set[str]]:
    """module -> the speclint modules it imports, anywhere in its source."""
    known = modules(root)
    graph: dict[str, set[str]] = {name: set() for name in known}
    for name, (path, package) in known.items():
        here = name.split(".") if package else name.split(".")[:-1]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = here[: len(here) - node.level + 1] if node.level else []
                module = ".".join(base + ([node.module] if node.module else []))
                subs = [f"{module}.{alias.name}" for alias in node.names if f"{module}.{alias.name}" in known]
                targets = subs if len(subs) == len(node.names) else [*subs, module]
            else:
                continue
            graph[name].update(t for t in targets if t in known and t != name)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            child = next(edges, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(frozenset(component))
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(graph[child]))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return found


def test_no_import_cycle_in_speclint():
    unexpected = [
        sorted(c) for c in cycles(import_graph(SRC)) if not any(c <= known for known in KNOWN_CYCLES)
    ]
    assert unexpected == []


def test_core_imports_nothing_of_speclint_but_core():
    graph = import_graph(SRC)
    outside = {
        (name, target)
        for name, targets in graph.items()
        if name.startswith("speclint.core")
        for target in targets
        if not target.startswith("speclint.core")
    }
    assert outside == set()


@pytest.mark.parametrize("where", ["type-only", "function-level", "relative"])
def test_cycle_through_any_import_is_found(tmp_path, where):
    package = tmp_path / "speclint" / "front"
    package.mkdir(parents=True)
    (tmp_path / "speclint" / "__init__.py").write_text("")
    (package / "__init__.py").write_text("")
    (package / "walk.py").write_text("from speclint.front.launch import recognise\n")
    back = {
        "type-only": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
        "    from speclint.front.walk import Walker\n",
        "function-level": "def recognise():\n    from speclint.front import walk\n",
        "relative": "from .walk import Walker\n",
    }[where]
    (package / "launch.py").write_text(back)
    assert cycles(import_graph(tmp_path)) == [frozenset({"speclint.front.walk", "speclint.front.launch"})]
    (package / "launch.py").write_text("import typing\n")
    assert cycles(import_graph(tmp_path)) == []
