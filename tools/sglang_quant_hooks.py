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
it may ("maybe": the answer depends on what a launch command does not say). The platform tests
are those of an NVIDIA GPU (`PLATFORM`). Loops in a hook are not read: the release's reading
is then null (nothing is said from it).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

OTHER = "*"
"""A `quant_method` (or user method) equal to no string the hooks compare with."""
_MAX_DEPTH = 6


class Unread(Exception):
    """A hook statement this reading does not follow."""


class _Unknown:
    def __repr__(self) -> str:
        return "?"


UNKNOWN = _Unknown()
_SENTINEL = "\x00"
NONNULL = "\x00value"
"""A string value whose text is not followed (`cls.get_name()`)."""


class _Cfg:
    """The checkpoint's quantization config: `quant_method` known; the other keys not
    (`absent`: known to be missing). `keys`: the other keys a hook read ("*": it passed the
    whole config to a call not followed)."""

    def __init__(self, method: str, absent: bool = False):
        self.method = method
        self.absent = absent
        self.keys: set[str] = set()


class Hooks:
    """The classes of one release's layers/quantization/ and what their modules bind."""

    def __init__(self, sources: dict[str, str], platform: dict[str, bool], requant: tuple[str, ...]):
        self.classes: dict[str, tuple[ast.ClassDef, dict[str, object]]] = {}
        self.platform = platform
        self.literals: set[str] = set()
        for source in sources.values():
            tree = ast.parse(source)
            names: dict[str, object] = {"REQUANTIZATION_METHODS": requant}
            for stmt in tree.body:
                if (
                    isinstance(stmt, ast.Assign)
                    and len(stmt.targets) == 1
                    and isinstance(stmt.targets[0], ast.Name)
                    and isinstance(stmt.value, ast.Call)
                    and isinstance(stmt.value.func, ast.Name)
                    and stmt.value.func.id in platform
                ):
                    names[stmt.targets[0].id] = platform[stmt.value.func.id]
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

    def outcome(self, cls_name: str, method: str | _Cfg, user: str) -> str:
        """One of "none", "override", "maybe": what the class's hook answers for the pair."""
        found = self.find(cls_name, "override_quantization_method")
        if found is None:
            return "none"
        values = set()
        cfg = method if isinstance(method, _Cfg) else _Cfg(method)
        for value in self.call(cls_name, found, [cfg, user], 0):
            values.add("none" if value is None else "maybe" if value is UNKNOWN else "override")
        if values == {"none"}:
            return "none"
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
        for value, _ in _Run(self, cls_name, depth).block(func.body, env):
            returned.add(None if value is _FALL else value)
        return {_frozen(v) for v in returned}


_FALL = object()


def _frozen(value: object) -> object:
    return tuple(value) if isinstance(value, list) else value


def _method(cls: ast.ClassDef, name: str) -> ast.FunctionDef | None:
    for item in cls.body:
        if isinstance(item, ast.FunctionDef) and item.name == name:
            return item
    return None


class _Run:
    def __init__(self, hooks: Hooks, cls_name: str, depth: int):
        self.hooks, self.cls_name, self.depth = hooks, cls_name, depth

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
            truth = _truth(self.expr(stmt.test, env))
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
        elif isinstance(stmt, ast.Try):
            yield from self.block(stmt.body, dict(env))
            for handler in stmt.handlers:
                yield from self.block(handler.body, dict(env))
        elif isinstance(stmt, (ast.Expr, ast.Import, ast.ImportFrom, ast.Pass)):
            yield _FALL, env
        else:
            raise Unread(ast.unparse(stmt)[:80])

    def expr(self, node: ast.expr, env: dict[str, object]) -> object:
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            return env.get(node.id, UNKNOWN)
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            items = [self.expr(e, env) for e in node.elts]
            return UNKNOWN if UNKNOWN in items else tuple(items)
        if isinstance(node, ast.JoinedStr):
            return NONNULL
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            truth = _truth(self.expr(node.operand, env))
            return UNKNOWN if truth is None else not truth
        if isinstance(node, ast.BoolOp):
            return self._bool(node, env)
        if isinstance(node, ast.IfExp):
            truth = _truth(self.expr(node.test, env))
            if truth is None:
                body, orelse = self.expr(node.body, env), self.expr(node.orelse, env)
                return body if body == orelse and body is not UNKNOWN else UNKNOWN
            return self.expr(node.body if truth else node.orelse, env)
        if isinstance(node, ast.Compare) and len(node.ops) == 1:
            left, right = self.expr(node.left, env), self.expr(node.comparators[0], env)
            for one, other in ((left, right), (right, left)):
                if isinstance(one, str) and one.startswith(_SENTINEL) and isinstance(other, str):
                    self.hooks.literals.add(other)  # a method some hook compares with
            return _compare(node.ops[0], left, right)
        if isinstance(node, ast.Call):
            return self._call(node, env)
        return UNKNOWN

    def _bool(self, node: ast.BoolOp, env: dict[str, object]) -> object:
        decisive = isinstance(node.op, ast.Or)
        unknown = False
        last: object = UNKNOWN
        for part in node.values:
            last = self.expr(part, env)
            truth = _truth(last)
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
            if func.id == "isinstance" and len(args) == 2 and isinstance(args[0], _Cfg):
                return isinstance(node.args[1], ast.Name) and node.args[1].id == "dict"
            return UNKNOWN
        if not isinstance(func, ast.Attribute):
            return UNKNOWN
        owner = self.expr(func.value, env)
        if isinstance(owner, _Cfg) and func.attr == "get" and args:
            if args[0] == "quant_method":
                return owner.method
            owner.keys.add(str(args[0]))
            if owner.absent:
                return args[1] if len(args) > 1 else None
            return UNKNOWN
        if isinstance(owner, _Cfg):
            owner.keys.add("*")
            return UNKNOWN
        for arg in args:
            if isinstance(arg, _Cfg) and not (isinstance(owner, tuple) or isinstance(func.value, ast.Name)):
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


def _truth(value: object) -> bool | None:
    if value is UNKNOWN:
        return None
    if isinstance(value, _Cfg) or value == NONNULL:
        return True
    return bool(value)


def _compare(op: ast.cmpop, left: object, right: object) -> object:
    if isinstance(op, (ast.Is, ast.IsNot)):
        if left is UNKNOWN or right is UNKNOWN:
            return UNKNOWN
        if right is None and (left == NONNULL or isinstance(left, _Cfg)):
            return isinstance(op, ast.IsNot)
        same = left is right or (left is None) == (right is None) and left == right
        return same if isinstance(op, ast.Is) else not same
    if isinstance(op, (ast.In, ast.NotIn)):
        if isinstance(right, _Cfg):
            if left == "quant_method":
                return isinstance(op, ast.In)
            right.keys.add(str(left))
            if right.absent:
                return isinstance(op, ast.NotIn)
            return UNKNOWN
        if left is UNKNOWN or left == NONNULL or not isinstance(right, (tuple, str)):
            return UNKNOWN
        if isinstance(right, str) and not isinstance(left, str):
            return UNKNOWN
        found = left in right
        return found if isinstance(op, ast.In) else not found
    if isinstance(op, (ast.Eq, ast.NotEq)):
        if left is UNKNOWN or right is UNKNOWN or NONNULL in (left, right):
            return UNKNOWN
        return (left == right) if isinstance(op, ast.Eq) else (left != right)
    return UNKNOWN


def overrides_reading(hooks: Hooks, users: list[str]) -> dict[str, object] | None:
    """{"methods": the checkpoint methods the hooks compare with, "users": user method ->
    {"override": [checkpoint methods], "maybe": {checkpoint method: {"keys": the other keys of
    its quantization_config the hooks read, "absent": the answer when none of them is there}}}},
    for every user method named in `users` or compared with by a hook; `OTHER` stands for every
    method (user or checkpoint) not listed. None when a hook is not read."""
    reading: dict[str, dict[str, object]] = {}
    try:
        for user in [_SENTINEL + "user", *users]:  # first: the methods the hooks compare with
            for name in hooks.hook_classes():
                hooks.outcome(name, _SENTINEL + "method", user)
        for user in sorted(hooks.literals):  # and those compared once a user method is named
            for name in hooks.hook_classes():
                hooks.outcome(name, _SENTINEL + "method", user)
        methods = sorted(hooks.literals | {OTHER})
        for user in sorted(set(users) | hooks.literals | {OTHER}):
            found: dict[str, object] = {}
            asked = _SENTINEL + "user" if user == OTHER else user
            for method in methods:
                given = _SENTINEL + "method" if method == OTHER else method
                keys: set[str] = set()
                outcomes = set()
                for name in hooks.hook_classes():
                    cfg = _Cfg(given)
                    outcomes.add(hooks.outcome(name, cfg, asked))
                    if hooks.outcome(name, cfg, asked) == "maybe":
                        keys |= cfg.keys  # the keys a hook that may rewrite the pair reads
                kind = _kind(outcomes)
                if kind == "override":
                    overridden = found.setdefault("override", [])
                    assert isinstance(overridden, list)
                    overridden.append(method)
                elif kind == "maybe":
                    bare = _Cfg(given, absent=True)
                    absent = _kind({hooks.outcome(name, bare, asked) for name in hooks.hook_classes()})
                    doubts = found.setdefault("maybe", {})
                    assert isinstance(doubts, dict)
                    doubts[method] = {"absent": absent, "keys": sorted(keys)}
            reading[user] = found
    except Unread:
        return None
    return {"methods": [m for m in methods if m != OTHER], "users": reading}


def _kind(outcomes: set[str]) -> str:
    return "override" if "override" in outcomes else "maybe" if "maybe" in outcomes else "none"
