"""The module-level names an SGLang release's `override_quantization_method` hooks read, for
tools/sglang_quant_hooks.py, read statically (`ast`, never imported): the platform probes
(`_is_cuda = is_cuda()`, answered for an NVIDIA GPU), constants bound once to a literal
(`_MODELOPT_QUANT_ALGO_TO_METHOD = {"FP8": "modelopt_fp8", ...}`), the module's functions
(`canonicalize_modelopt_quant_algo`), and `from X import name` (followed into X's source when
the reading is given it: sglang/srt/layers/quantization/ and the modules it imports from)."""

from __future__ import annotations

import ast
from collections.abc import Callable


class Function:
    """A module-level `def`, run with the names of its module."""

    def __init__(self, node: ast.FunctionDef, names: dict[str, object]):
        self.node, self.names = node, names


class Imported:
    """`from module import name`, looked up when used."""

    def __init__(self, module: str, name: str):
        self.module, self.name = module, name


def module_name(path: str) -> tuple[str, bool]:
    """`sglang/srt/layers/quantization/fp8.py` -> (`sglang.srt.layers.quantization.fp8`, not a package)."""
    parts = path[: -len(".py")].split("/")
    if parts[-1] == "__init__":
        return ".".join(parts[:-1]), True
    return ".".join(parts), False


def imported_from(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    """The absolute module a `from ... import` names."""
    if not node.level:
        return node.module or ""
    base = module.split(".")
    base = base if is_package else base[:-1]
    if node.level > 1:
        base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def frozen(value: object) -> object:
    """A literal as the hooks' reading holds it: lists and sets as tuples (in dicts too)."""
    if isinstance(value, (list, set, frozenset)):
        return tuple(frozen(v) for v in value)
    if isinstance(value, tuple):
        return tuple(frozen(v) for v in value)
    if isinstance(value, dict):
        return {k: frozen(v) for k, v in value.items()}
    return value


def module_names(
    tree: ast.Module, path: str, platform: dict[str, bool], requant: tuple[str, ...]
) -> dict[str, object]:
    """What the module binds at its top level, as far as read (a name bound twice, or under a
    test, is left out: unknown)."""
    module, is_package = module_name(path)
    names: dict[str, object] = {"REQUANTIZATION_METHODS": requant}
    counts: dict[str, int] = {}
    for stmt in ast.walk(tree):
        if isinstance(stmt, (ast.FunctionDef, ast.ClassDef)) and stmt not in tree.body:
            continue
        for target in _targets(stmt):
            counts[target] = counts.get(target, 0) + 1
    for stmt in tree.body:
        if isinstance(stmt, ast.ImportFrom):
            origin = imported_from(stmt, module, is_package)
            for alias in stmt.names:
                if alias.name != "*":
                    names.setdefault(alias.asname or alias.name, Imported(origin, alias.name))
        elif isinstance(stmt, ast.FunctionDef) and counts.get(stmt.name) == 1:
            names[stmt.name] = Function(stmt, names)
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value is not None:
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            if len(targets) != 1 or not isinstance(targets[0], ast.Name):
                continue
            name, value = targets[0].id, stmt.value
            if (
                isinstance(value, ast.Call)
                and isinstance(value.func, ast.Name)
                and value.func.id in platform
                and not value.args
            ):
                names[name] = platform[value.func.id]
            elif counts.get(name) == 1 and name != "REQUANTIZATION_METHODS":
                try:
                    names[name] = frozen(ast.literal_eval(value))
                except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                    pass
    return names


def _targets(stmt: ast.AST) -> list[str]:
    if isinstance(stmt, ast.Assign):
        return [t.id for t in stmt.targets if isinstance(t, ast.Name)]
    if isinstance(stmt, (ast.AnnAssign, ast.AugAssign)) and isinstance(stmt.target, ast.Name):
        return [stmt.target.id]
    if isinstance(stmt, (ast.FunctionDef, ast.ClassDef)):
        return [stmt.name]
    return []


class Modules:
    """Module names by dotted name: from the given sources, else from `more` (a release's
    other modules, read when a hook's module imports from them)."""

    def __init__(
        self,
        sources: dict[str, str],
        platform: dict[str, bool],
        requant: tuple[str, ...],
        more: Callable[[str], str | None] | None = None,
    ):
        self.platform, self.requant, self.more = platform, requant, more
        self.by_module: dict[str, tuple[str, str]] = {module_name(p)[0]: (p, s) for p, s in sources.items()}
        self.read: dict[str, dict[str, object] | None] = {}

    def add(self, path: str, tree: ast.Module) -> dict[str, object]:
        """The names of one of the given sources, parsed by the caller."""
        names = module_names(tree, path, self.platform, self.requant)
        self.read[module_name(path)[0]] = names
        return names

    def names(self, module: str) -> dict[str, object] | None:
        if module not in self.read:
            self.read[module] = None
            found = self.by_module.get(module)
            if found is None and self.more is not None:
                for path in (module.replace(".", "/") + ".py", module.replace(".", "/") + "/__init__.py"):
                    source = self.more(path)
                    if source is not None:
                        found = (path, source)
                        break
            if found is not None:
                self.read[module] = module_names(ast.parse(found[1]), found[0], self.platform, self.requant)
        return self.read[module]

    def resolve(self, value: object, unread: object) -> object:
        """`value`, an `Imported` followed to what its module binds (`unread`: not read)."""
        for _ in range(8):
            if not isinstance(value, Imported):
                return value
            names = self.names(value.module)
            if names is None or value.name not in names:
                return unread
            value = names[value.name]
        return unread
