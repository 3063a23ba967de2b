"""Python source out of an SGLang wheel: modules parsed with `ast`, names looked up lazily.

`Wheel` opens the .whl as a zip file (SGLang is never imported); `Module.lookup`
follows assignments, classes, functions and imports across the wheel's modules.
"""

from __future__ import annotations

import ast
import zipfile
from collections import defaultdict

from sglang_static import ClassRef, Evaluator, ExtRef, FuncRef, ModRef, Unresolved


class Wheel:
    def __init__(self, path: str):
        self.zip = zipfile.ZipFile(path)
        self.names = set(self.zip.namelist())
        self._mods: dict[str, Module | None] = {}

    def module(self, name: str):
        if name not in self._mods:
            base = name.replace(".", "/")
            mod = None
            for path, is_pkg in ((base + ".py", False), (base + "/__init__.py", True)):
                if path in self.names:
                    mod = Module(self, name, self.zip.read(path).decode("utf-8"), is_pkg)
                    break
            self._mods[name] = mod
        return self._mods[name]


class Module:
    def __init__(self, wheel: Wheel, name: str, src: str, is_pkg: bool):
        self.wheel, self.name, self.src, self.is_pkg = wheel, name, src, is_pkg
        self.tree = ast.parse(src)
        self.defs: dict[str, tuple] = {}
        self.mutations: dict[str, list] = defaultdict(list)
        self._values: dict[str, object] = {}
        self._collect(self.tree.body)

    def _absolute(self, node: ast.ImportFrom) -> str:
        if not node.level:
            return node.module
        parts = self.name.split(".")
        if not self.is_pkg:
            parts = parts[:-1]
        parts = parts[: len(parts) - (node.level - 1)]
        return ".".join(parts + ([node.module] if node.module else []))

    def _collect(self, body):
        for stmt in body:
            if isinstance(stmt, ast.Assign):
                for target in stmt.targets:
                    if isinstance(target, ast.Name):
                        self.defs[target.id] = ("assign", stmt.value)
                        self.mutations.pop(target.id, None)
            elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value:
                self.defs[stmt.target.id] = ("assign", stmt.value)
            elif isinstance(stmt, ast.ClassDef):
                self.defs[stmt.name] = ("class", stmt)
            elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.defs[stmt.name] = ("func", stmt)
            elif isinstance(stmt, ast.ImportFrom):
                base = self._absolute(stmt)
                for alias in stmt.names:
                    self.defs[alias.asname or alias.name] = ("from", base, alias.name)
            elif isinstance(stmt, ast.Import):
                for alias in stmt.names:
                    if alias.asname:
                        self.defs[alias.asname] = ("import", alias.name)
                    else:
                        top = alias.name.split(".")[0]
                        self.defs[top] = ("import", top)
            elif isinstance(stmt, ast.If):
                self._collect(stmt.body)
            elif isinstance(stmt, ast.Try):
                self._collect(stmt.body)
            elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
                func = stmt.value.func
                if (
                    isinstance(func, ast.Attribute)
                    and isinstance(func.value, ast.Name)
                    and func.attr in ("append", "extend", "add", "update")
                ):
                    self.mutations[func.value.id].append(stmt.value)

    def lookup(self, name: str):
        if name in self._values:
            return self._values[name]
        entry = self.defs.get(name)
        if entry is None:
            raise Unresolved(f"{self.name}.{name}")
        kind = entry[0]
        if kind == "assign":
            ev = Evaluator(self)
            value = ev.eval(entry[1])
            for call in self.mutations.get(name, ()):
                args = [ev.eval(a) for a in call.args]
                getattr(value, call.func.attr)(*args)
        elif kind == "class":
            value = ClassRef(self, entry[1])
        elif kind == "func":
            value = FuncRef(self, entry[1])
        elif kind == "import":
            mod = self.wheel.module(entry[1])
            value = ModRef(mod) if mod else ExtRef(entry[1])
        else:
            _, base, attr = entry
            mod = self.wheel.module(base)
            if mod is None:
                value = ExtRef(f"{base}.{attr}")
            elif attr in mod.defs:
                value = mod.lookup(attr)
            elif self.wheel.module(f"{base}.{attr}") is not None:
                value = ModRef(self.wheel.module(f"{base}.{attr}"))
            else:
                raise Unresolved(f"{base}.{attr}")
        self._values[name] = value
        return value
