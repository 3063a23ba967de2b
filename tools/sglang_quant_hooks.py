"""Which (--quantization, checkpoint `quant_method`) pairs an SGLang release's
`override_quantization_method` hooks may rewrite, read statically (`ast`, never imported) from
the wheel's sglang/srt/layers/quantization/ (what `_verify_quantization` accepts besides:
tools/sglang_verify_quant.py). Used by tools/gen_sglang_model_config.py.

`_verify_quantization` asks every hook `override_quantization_method(quant_cfg, user_quant)`;
the first that answers something else than None rewrites both sides, so the launch is not
refused for a mismatch. Each hook (with the helpers it calls on `cls`, the class and its bases)
is run here on a checkpoint config whose `quant_method` is known and whose other keys are not,
for a given user method: a test that reads what is not known (another key, the GPU's
capability, a call not followed) takes both branches. A hook that answers None on every branch
leaves the pair alone; one that answers a value on every branch rewrites it ("override"); else
it may ("maybe": the answer depends on what a launch command does not say). A branch that
raises (`raise`, a failing `assert`) makes the answer "maybe" too, unless no branch answers a
value: then the hook never rewrites the pair and `_verify_quantization` ends on every branch, by
the raise or by its own mismatch test ("raise", with the raising statements). The platform tests are
those of an NVIDIA GPU (`PLATFORM`). Module-level functions and literal constants, imported
ones included (`canonicalize_modelopt_quant_algo` and its table, from
sglang/srt/layers/modelopt_utils.py when the generator passes the wheel's other modules), are
followed (tools/sglang_quant_names.py; one that may raise answers unknown, its raise not
followed, as for a call not followed); a `for` loop over a literal list, tuple or dict (or a
dict's items) is run item by item. A statement not read here (a `while`, a loop over what is
not known) ends its branch with an unknown answer, and names itself in the reading
("unread"): only the pairs that reach it are in doubt.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator

from sglang_quant_names import Function, Imported, Modules, frozen
from sglang_quant_values import (
    NONNULL,
    SENTINEL,
    UNKNOWN,
    Cfg,
    bind,
    compare,
    isinstance_of,
    loop_items,
    loop_target,
    truth_of,
)

OTHER = "*"
"""A `quant_method` (or user method) equal to no string the hooks compare with."""
_MAX_DEPTH = 6
_MAX_PATHS = 512


class Hooks:
    """The classes of one release's layers/quantization/ and what their modules bind."""

    def __init__(
        self,
        sources: dict[str, str],
        platform: dict[str, bool],
        requant: tuple[str, ...],
        more: Callable[[str], str | None] | None = None,
    ):
        self.classes: dict[str, tuple[ast.ClassDef, dict[str, object]]] = {}
        self.platform = platform
        self.literals: set[str] = set()
        self.modules = Modules(sources, platform, requant, more)
        self.raised = False
        """A branch raised since `outcome` began."""
        self.raises: set[str] = set()
        """The raising statements a branch reached since `outcome` began."""
        self.unread: set[str] = set()
        """The statements not read that a branch reached since `outcome` began."""
        for path, source in sources.items():
            tree = ast.parse(source)
            names = self.modules.add(path, tree)
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef):
                    self.classes.setdefault(node.name, (node, names))

    def hook_classes(self) -> list[str]:
        return sorted(
            name for name, (cls, _) in self.classes.items() if _method(cls, "override_quantization_method")
        )

    def find(
        self, cls_name: str, method: str, depth: int = 0
    ) -> tuple[ast.FunctionDef, dict[str, object]] | None:
        found = self.classes.get(cls_name)
        if found is None or depth > 10:
            return None
        cls, names = found
        func = _method(cls, method)
        if func is not None:
            return func, names
        for base in cls.bases:
            if isinstance(base, ast.Name):
                inherited = self.find(base.id, method, depth + 1)
                if inherited is not None:
                    return inherited
        return None

    def outcome(self, cls_name: str, method: str | Cfg, user: str) -> str:
        """One of "none", "override", "maybe", "raise": what the class's hook answers for the pair
        ("raise": None or an exception on every branch, some branch raising)."""
        found = self.find(cls_name, "override_quantization_method")
        if found is None:
            return "none"
        values = set()
        cfg = method if isinstance(method, Cfg) else Cfg(method)
        self.raised, self.unread, self.raises = False, set(), set()
        for value in self.call(cls_name, found, [cfg, user], 0):
            values.add("none" if value is None else "maybe" if value is UNKNOWN else "override")
        if values == {"none"}:
            return "raise" if self.raised else "none"
        if self.raised:
            values.add("maybe")
        return "override" if values == {"override"} else "maybe"

    def call(
        self, cls_name: str, found: tuple[ast.FunctionDef, dict[str, object]], args: list[object], depth: int
    ) -> set[object]:
        func, names = found
        params = [a.arg for a in func.args.args]
        if params and params[0] in ("cls", "self"):
            params = params[1:]
        env: dict[str, object] = dict(names)
        env.update({"cls": ("class", cls_name), "self": ("class", cls_name)})
        for index, name in enumerate(params):
            env[name] = args[index] if index < len(args) else UNKNOWN
        returned: set[object] = set()
        where = f"{cls_name}.{func.name}" if cls_name else func.name
        for value, _ in _Run(self, cls_name, depth, where).block(func.body, env):
            value = None if value is _FALL else frozen(value)
            returned.add(UNKNOWN if isinstance(value, dict) else value)
        return returned


_FALL = object()
_BREAK = object()
_CONTINUE = object()


def _method(cls: ast.ClassDef, name: str) -> ast.FunctionDef | None:
    for item in cls.body:
        if isinstance(item, ast.FunctionDef) and item.name == name:
            return item
    return None


class _Run:
    def __init__(self, hooks: Hooks, cls_name: str, depth: int, where: str):
        self.hooks, self.cls_name, self.depth, self.where = hooks, cls_name, depth, where

    def block(
        self, body: list[ast.stmt], env: dict[str, object]
    ) -> Iterator[tuple[object, dict[str, object]]]:
        """(returned value, or _FALL with the env after the block) for every path."""
        if not body:
            yield _FALL, env
            return
        first, rest = body[0], body[1:]
        for value, after in self.stmt(first, env):
            if value is _FALL:
                yield from self.block(rest, after)
            else:
                yield value, after

    def stmt(self, stmt: ast.stmt, env: dict[str, object]) -> Iterator[tuple[object, dict[str, object]]]:
        if isinstance(stmt, ast.Return):
            yield (None if stmt.value is None else self.expr(stmt.value, env)), env
        elif isinstance(stmt, ast.If):
            truth = truth_of(self.expr(stmt.test, env))
            if truth is not False:
                yield from self.block(stmt.body, dict(env))
            if truth is not True:
                yield from self.block(stmt.orelse, dict(env))
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            value = UNKNOWN if stmt.value is None else self.expr(stmt.value, env)
            after = dict(env)
            for target in targets:
                if isinstance(target, ast.Name):
                    after[target.id] = value
            yield _FALL, after
        elif isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):
            left, right = env.get(stmt.target.id, UNKNOWN), self.expr(stmt.value, env)
            known = isinstance(stmt.op, ast.Add) and (
                (isinstance(left, tuple) and isinstance(right, tuple))
                or (type(left) is int and type(right) is int)
            )
            after = dict(env)
            after[stmt.target.id] = left + right if known else UNKNOWN  # type: ignore[operator]
            yield _FALL, after
        elif isinstance(stmt, ast.Try):
            raised, raises = self.hooks.raised, set(self.hooks.raises)
            paths = list(self.block(stmt.body, dict(env)))
            if stmt.handlers:  # what the body raises, a handler may catch
                self.hooks.raised, self.hooks.raises = raised, raises
            yield from paths
            for handler in stmt.handlers:
                yield from self.block(handler.body, dict(env))
        elif isinstance(stmt, ast.Assert):
            truth = truth_of(self.expr(stmt.test, env))
            if truth is not True:
                self._raise(stmt)  # AssertionError: the branch ends
            if truth is not False:
                yield _FALL, env
        elif isinstance(stmt, ast.Raise):
            self._raise(stmt)
        elif isinstance(stmt, ast.For) and loop_target(stmt.target):
            yield from self._for(stmt, env)
        elif isinstance(stmt, (ast.Break, ast.Continue)):
            yield (_BREAK if isinstance(stmt, ast.Break) else _CONTINUE), env
        elif isinstance(stmt, (ast.Expr, ast.Import, ast.ImportFrom, ast.Pass)):
            yield _FALL, env
        else:
            yield self._unread(stmt), env

    def _raise(self, stmt: ast.stmt) -> None:
        self.hooks.raised = True
        self.hooks.raises.add(f"{self.where}: {' '.join(ast.unparse(stmt).split())[:160]}")

    def _unread(self, stmt: ast.stmt) -> object:
        """A statement not read: the branch ends with an unknown answer, and says where."""
        self.hooks.unread.add(f"{self.where}: {ast.unparse(stmt).splitlines()[0][:80]}")
        return UNKNOWN

    def _for(self, stmt: ast.For, env: dict[str, object]) -> Iterator[tuple[object, dict[str, object]]]:
        """A loop over a literal run item by item (`break`, `continue`, `else` as Python runs them)."""
        items = loop_items(self.expr(stmt.iter, env))
        if items is None:
            yield self._unread(stmt), env
            return
        paths = [env]
        for item in items:
            following = []
            for path in paths:
                inner = dict(path)
                bind(stmt.target, item, inner)
                for value, after in self.block(stmt.body, inner):
                    if value is _FALL or value is _CONTINUE:
                        following.append(after)
                    elif value is _BREAK:
                        yield _FALL, after
                    else:
                        yield value, after
            paths = following
            if len(paths) > _MAX_PATHS:
                for path in paths:
                    yield self._unread(stmt), path
                return
        for path in paths:
            yield from self.block(stmt.orelse, path)

    def expr(self, node: ast.expr, env: dict[str, object]) -> object:
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            value = env.get(node.id, UNKNOWN)
            return self.hooks.modules.resolve(value, UNKNOWN) if isinstance(value, Imported) else value
        if isinstance(node, ast.Subscript):
            owner, key = self.expr(node.value, env), self.expr(node.slice, env)
            if isinstance(owner, dict) and isinstance(key, (str, int)) and key in owner:
                return owner[key]
            return UNKNOWN
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            items = [self.expr(e, env) for e in node.elts]
            return UNKNOWN if UNKNOWN in items else tuple(items)
        if isinstance(node, ast.JoinedStr):
            return NONNULL
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            truth = truth_of(self.expr(node.operand, env))
            return UNKNOWN if truth is None else not truth
        if isinstance(node, ast.BoolOp):
            return self._bool(node, env)
        if isinstance(node, ast.IfExp):
            truth = truth_of(self.expr(node.test, env))
            if truth is None:
                body, orelse = self.expr(node.body, env), self.expr(node.orelse, env)
                return body if body == orelse and body is not UNKNOWN else UNKNOWN
            return self.expr(node.body if truth else node.orelse, env)
        if isinstance(node, ast.Compare) and len(node.ops) == 1:
            left, right = self.expr(node.left, env), self.expr(node.comparators[0], env)
            for one, other in ((left, right), (right, left)):
                if isinstance(one, str) and one.startswith(SENTINEL):
                    self._compared(other)
            return compare(node.ops[0], left, right)
        if isinstance(node, ast.Call):
            return self._call(node, env)
        return UNKNOWN

    def _compared(self, other: object) -> None:
        """A method some hook compares with (or looks up, or looks for in a literal)."""
        if isinstance(other, str) and not other.startswith(SENTINEL):
            self.hooks.literals.add(other)
        elif isinstance(other, (tuple, dict)):
            self.hooks.literals |= {o for o in other if isinstance(o, str) and not o.startswith(SENTINEL)}

    def _bool(self, node: ast.BoolOp, env: dict[str, object]) -> object:
        decisive = isinstance(node.op, ast.Or)
        unknown = False
        last: object = UNKNOWN
        for part in node.values:
            last = self.expr(part, env)
            truth = truth_of(last)
            if truth is decisive:
                return last
            unknown = unknown or truth is None
        return UNKNOWN if unknown else last

    def _call(self, node: ast.Call, env: dict[str, object]) -> object:
        func = node.func
        args = [self.expr(a, env) for a in node.args]
        if isinstance(func, ast.Name):
            if func.id in self.hooks.platform and not args:
                return self.hooks.platform[func.id]
            if func.id == "isinstance" and len(args) == 2:
                return isinstance_of(args[0], node.args[1])
            target = self.expr(func, env)
            if isinstance(target, Function) and self.depth < _MAX_DEPTH:
                return self._function(target, args)
            return UNKNOWN
        if not isinstance(func, ast.Attribute):
            return UNKNOWN
        owner = self.expr(func.value, env)
        if isinstance(owner, dict):
            return self._dict_call(owner, func.attr, args)
        if isinstance(owner, Cfg) and func.attr == "get" and args:
            if args[0] == "quant_method":
                return owner.method
            owner.keys.add(str(args[0]))
            if owner.absent:
                return args[1] if len(args) > 1 else None
            return UNKNOWN
        if isinstance(owner, Cfg):
            owner.keys.add("*")
            return UNKNOWN
        for arg in args:
            if isinstance(arg, Cfg) and not (isinstance(owner, tuple) or isinstance(func.value, ast.Name)):
                arg.keys.add("*")
        if isinstance(owner, str) and owner != NONNULL and func.attr in ("lower", "upper") and not args:
            return owner.lower() if func.attr == "lower" else owner.upper()
        if isinstance(owner, str) and func.attr in ("lower", "upper"):
            return NONNULL if owner == NONNULL else UNKNOWN
        cls_name = None
        if isinstance(owner, tuple) and len(owner) == 2 and owner[0] == "class":
            cls_name = str(owner[1])
        elif isinstance(func.value, ast.Name) and func.value.id in self.hooks.classes:
            cls_name = func.value.id
        if cls_name is None or self.depth >= _MAX_DEPTH:
            return UNKNOWN
        found = self.hooks.find(cls_name, func.attr)
        if found is None:
            return UNKNOWN
        if func.attr == "get_name":
            return NONNULL
        values = self.hooks.call(cls_name, found, args, self.depth + 1)
        return values.pop() if len(values) == 1 else UNKNOWN

    def _function(self, target: Function, args: list[object]) -> object:
        """A module-level function's value; one that may raise, or reaches a statement not
        read, answers unknown (what it raises is not followed, as for a call not followed)."""
        raised, unread, raises = self.hooks.raised, set(self.hooks.unread), set(self.hooks.raises)
        values = self.hooks.call("", (target.node, target.names), args, self.depth + 1)
        if self.hooks.raised != raised or self.hooks.unread != unread:
            self.hooks.raised, self.hooks.unread, self.hooks.raises = raised, unread, raises
            return UNKNOWN
        return values.pop() if len(values) == 1 else UNKNOWN

    def _dict_call(self, owner: dict[object, object], attr: str, args: list[object]) -> object:
        """A literal dict's `get`, `keys`, `values`, `items`."""
        if attr in ("keys", "values", "items") and not args:
            return tuple(
                owner.keys() if attr == "keys" else owner.values() if attr == "values" else owner.items()
            )
        if attr != "get" or not args or len(args) > 2:
            return UNKNOWN
        key, default = args[0], args[1] if len(args) > 1 else None
        if isinstance(key, str) and key.startswith(SENTINEL):
            self._compared(owner)
            return default
        if key is UNKNOWN or key == NONNULL or isinstance(key, (Cfg, dict)):
            return UNKNOWN
        return owner.get(key, default)
