"""Evaluate simple expressions of SGLang source statically (see sglang_source.py).

Nothing here imports SGLang. `Evaluator` folds the expressions that argparse calls use
(literals, module constants, imported names, class attributes, enum members,
`dict.keys()`, list concatenation, comprehensions, f-strings, small helper
functions). Anything else raises `Unresolved`, carrying the source text.
"""

from __future__ import annotations

import ast


class Unresolved(Exception):
    """An expression that cannot be evaluated without running SGLang."""


class ExtRef:
    """A name from outside the wheel (stdlib, torch, ...), kept as its dotted path."""

    def __init__(self, path: str):
        self.path = path

    def __repr__(self):
        return self.path

    def __eq__(self, other):
        return isinstance(other, ExtRef) and other.path == self.path

    def __hash__(self):
        return hash(self.path)


class ModRef:
    def __init__(self, mod):
        self.mod = mod


class ClassRef:
    def __init__(self, mod, node: ast.ClassDef):
        self.mod, self.node, self.name = mod, node, node.name

    @property
    def is_enum(self) -> bool:
        return any("Enum" in ast.unparse(base) for base in self.node.bases)

    def body_value(self, attr: str):
        """The node assigned to `attr` in the class body (last wins), or None."""
        found = None
        for stmt in self.node.body:
            if isinstance(stmt, ast.Assign):
                if any(isinstance(t, ast.Name) and t.id == attr for t in stmt.targets):
                    found = stmt.value
            elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                if stmt.target.id == attr and stmt.value is not None:
                    found = stmt.value
        return found

    def members(self):
        out = []
        for stmt in self.node.body:
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
                target = stmt.targets[0]
                if isinstance(target, ast.Name) and not target.id.startswith("_"):
                    out.append(target.id)
        return out


class FuncRef:
    def __init__(self, mod, node):
        self.mod, self.node, self.name = mod, node, node.name


class EnumMember:
    def __init__(self, name, value):
        self.name, self.value = name, value

    def __repr__(self):
        return repr(self.value)


class Opaque:
    """A value inside a container that could not be evaluated (keys() still works)."""

    def __init__(self, src):
        self.src = src

    def __repr__(self):
        return f"<{self.src}>"


class FieldFactory:
    """`msgspec.field(default_factory=...)` / `dataclasses.field(...)`."""

    def __init__(self, kwargs):
        self.kwargs = kwargs


SAFE_BUILTINS = {
    "list": list,
    "set": set,
    "tuple": tuple,
    "sorted": sorted,
    "dict": dict,
    "frozenset": frozenset,
    "str": str,
    "int": int,
    "float": float,
    "len": len,
    "min": min,
    "max": max,
    "bool": bool,
    "repr": repr,
}
SAFE_METHODS = {
    "keys",
    "values",
    "items",
    "lower",
    "upper",
    "copy",
    "get",
    "strip",
    "replace",
    "split",
    "join",
    "format",
    "union",
    "startswith",
    "endswith",
    "title",
}
EXT_CONSTANTS = {"argparse.SUPPRESS": "==SUPPRESS==", "sys.maxsize": 2**63 - 1}


class ClassScope(dict):
    """Names a class body can see: its own earlier attributes (`ALL = (FULL, ...)`)."""

    def __init__(self, ev, cls):
        super().__init__()
        self.ev, self.cls = ev, cls

    def __contains__(self, name):
        return self.cls.body_value(name) is not None

    def __getitem__(self, name):
        value = self.ev.class_attr(self.cls, name)
        return value.value if isinstance(value, EnumMember) else value


class Evaluator:
    """Evaluates expression nodes in the scope of one module plus local names."""

    def __init__(self, mod, local: dict | None = None, hooks: dict | None = None):
        self.mod, self.hooks = mod, hooks or {}
        self.local = local if isinstance(local, ClassScope) else dict(local or {})

    def eval(self, node):
        method = getattr(self, "_" + type(node).__name__, None)
        if method is None:
            raise Unresolved(ast.unparse(node))
        return method(node)

    def _Constant(self, node):
        return node.value

    def _List(self, node):
        out = []
        for elt in node.elts:
            if isinstance(elt, ast.Starred):
                out.extend(self.eval(elt.value))
            else:
                out.append(self.eval(elt))
        return out

    def _Tuple(self, node):
        return tuple(self._List(node))

    def _Set(self, node):
        return set(self._List(node))

    def _Dict(self, node):
        out = {}
        for key, value in zip(node.keys, node.values):
            if key is None:
                out.update(self.eval(value))
                continue
            try:
                out[self.eval(key)] = self.eval(value)
            except Unresolved:
                out[self.eval(key)] = Opaque(ast.unparse(value))
        return out

    def _Name(self, node):
        if node.id in self.local:
            return self.local[node.id]
        if node.id in self.mod.defs:
            return self.mod.lookup(node.id)
        if node.id in SAFE_BUILTINS:
            return ExtRef(node.id)
        raise Unresolved(node.id)

    def _Attribute(self, node):
        base = self.eval(node.value)
        attr = node.attr
        if isinstance(base, ModRef):
            if attr in base.mod.defs:
                return base.mod.lookup(attr)
            sub = base.mod.wheel.module(f"{base.mod.name}.{attr}")
            if sub is not None:
                return ModRef(sub)
            raise Unresolved(ast.unparse(node))
        if isinstance(base, ExtRef):
            path = f"{base.path}.{attr}"
            return EXT_CONSTANTS.get(path, ExtRef(path))
        if isinstance(base, ClassRef):
            return self.class_attr(base, attr)
        if isinstance(base, EnumMember) and attr in ("name", "value"):
            return getattr(base, attr)
        if attr in SAFE_METHODS and isinstance(base, (str, list, dict, set, frozenset, tuple)):
            return getattr(base, attr)
        raise Unresolved(ast.unparse(node))

    def class_attr(self, cls: ClassRef, attr: str):
        hook = self.hooks.get("class_attr")
        if hook is not None:
            found, value = hook(cls, attr)
            if found:
                return value
        node = cls.body_value(attr)
        if node is None:
            raise Unresolved(f"{cls.name}.{attr}")
        value = Evaluator(cls.mod, ClassScope(self, cls), self.hooks).eval(node)
        if isinstance(value, FieldFactory):
            value = self.call_value(value.kwargs.get("default_factory"), [], {})
        if cls.is_enum:
            return EnumMember(attr, value)
        return value

    def _iter(self, value):
        if isinstance(value, ClassRef) and value.is_enum:
            return [self.class_attr(value, name) for name in value.members()]
        if isinstance(value, (list, tuple, set, frozenset, dict, str)) or hasattr(value, "__iter__"):
            return value
        raise Unresolved(f"iterate {value!r}")

    def _comp(self, node, make):
        if len(node.generators) != 1:
            raise Unresolved(ast.unparse(node))
        gen = node.generators[0]
        if not isinstance(gen.target, ast.Name):
            raise Unresolved(ast.unparse(node))
        out = []
        for item in self._iter(self.eval(gen.iter)):
            sub = Evaluator(self.mod, {**self.local, gen.target.id: item}, self.hooks)
            if all(sub.eval(cond) for cond in gen.ifs):
                out.append(sub.eval(node.elt))
        return make(out)

    def _ListComp(self, node):
        return self._comp(node, list)

    def _GeneratorExp(self, node):
        return self._comp(node, list)

    def _SetComp(self, node):
        return self._comp(node, set)

    def _BinOp(self, node):
        left, right = self.eval(node.left), self.eval(node.right)
        ops = {
            ast.Add: lambda a, b: a + b,
            ast.Sub: lambda a, b: a - b,
            ast.Mult: lambda a, b: a * b,
            ast.BitOr: lambda a, b: a | b,
            ast.Mod: lambda a, b: a % b,
            ast.Pow: lambda a, b: a**b,
            ast.Div: lambda a, b: a / b,
            ast.FloorDiv: lambda a, b: a // b,
        }
        op = ops.get(type(node.op))
        if op is None:
            raise Unresolved(ast.unparse(node))
        try:
            return op(left, right)
        except TypeError as exc:
            raise Unresolved(ast.unparse(node)) from exc

    def _UnaryOp(self, node):
        value = self.eval(node.operand)
        if isinstance(node.op, ast.USub):
            return -value
        if isinstance(node.op, ast.Not):
            return not value
        raise Unresolved(ast.unparse(node))

    def _IfExp(self, node):
        return self.eval(node.body) if self.eval(node.test) else self.eval(node.orelse)

    def _Subscript(self, node):
        value, index = self.eval(node.value), self.eval(node.slice)
        try:
            return value[index]
        except (TypeError, KeyError, IndexError) as exc:
            raise Unresolved(ast.unparse(node)) from exc

    def _Slice(self, node):
        parts = [self.eval(p) if p is not None else None for p in (node.lower, node.upper, node.step)]
        return slice(*parts)

    def _JoinedStr(self, node):
        out = []
        for part in node.values:
            if isinstance(part, ast.Constant):
                out.append(part.value)
                continue
            value = self.eval(part.value)
            if isinstance(value, (ExtRef, ModRef, ClassRef, FuncRef, Opaque)):
                raise Unresolved(ast.unparse(part.value))
            if part.conversion == ord("r"):
                value = repr(value)
            elif part.conversion == ord("s"):
                value = str(value)
            spec = self._JoinedStr(part.format_spec) if part.format_spec else ""
            out.append(format(value, spec))
        return "".join(out)

    def _Call(self, node):
        func = self.eval(node.func)
        args = []
        for arg in node.args:
            if isinstance(arg, ast.Starred):
                args.extend(self.eval(arg.value))
            else:
                args.append(self.eval(arg))
        kwargs = {kw.arg: self.eval(kw.value) for kw in node.keywords if kw.arg}
        return self.call_value(func, args, kwargs, node)

    def call_value(self, func, args, kwargs, node=None):
        where = ast.unparse(node) if node is not None else repr(func)
        if isinstance(func, ExtRef):
            if func.path in SAFE_BUILTINS:
                if func.path in ("list", "set", "tuple", "sorted", "frozenset") and args:
                    args = [self._iter(args[0]), *args[1:]]
                try:
                    return SAFE_BUILTINS[func.path](*args, **kwargs)
                except (TypeError, ValueError) as exc:
                    raise Unresolved(where) from exc
            if func.path.endswith((".field",)) and func.path.split(".")[0] in ("msgspec", "dataclasses"):
                return FieldFactory(kwargs)
            raise Unresolved(where)
        if isinstance(func, FuncRef):
            hook = self.hooks.get("call")
            if hook is not None:
                found, value = hook(func, args, kwargs)
                if found:
                    return value
            return self.call_function(func, args, kwargs, where)
        if callable(func) and getattr(func, "__name__", None) in SAFE_METHODS:
            return func(*args, **kwargs)
        raise Unresolved(where)

    def call_function(self, func: FuncRef, args, kwargs, where):
        """Run a small helper: bind arguments, honour its imports, return its last `return`."""
        node = func.node
        params = [a.arg for a in node.args.args]
        local = dict(zip(params, args))
        local.update(kwargs)
        sub = Evaluator(func.mod, local, self.hooks)
        result = None
        for stmt in node.body:
            if isinstance(stmt, ast.ImportFrom):
                base = func.mod._absolute(stmt)
                mod = func.mod.wheel.module(base)
                for alias in stmt.names:
                    if mod is not None and alias.name in mod.defs:
                        sub.local[alias.asname or alias.name] = mod.lookup(alias.name)
            elif isinstance(stmt, ast.Return) and stmt.value is not None:
                result = stmt.value
        if result is None:
            raise Unresolved(where)
        return sub.eval(result)

    def _Lambda(self, node):
        if node.args.args:
            raise Unresolved(ast.unparse(node))
        return lambda: self.eval(node.body)
