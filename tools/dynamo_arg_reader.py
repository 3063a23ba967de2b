"""The option-adding code of NVIDIA Dynamo's SGLang worker, read statically (`ast`) from an
ai-dynamo wheel for tools/gen_dynamo_sglang.py: a function's `add_argument(...)` calls
(argparse's with literal strings, Dynamo's `add_argument` / `add_negatable_bool_argument`
helpers), following the functions and argument groups it hands the parser to. Anything not
read this way stops the generator (`Unread`): no option is guessed."""

from __future__ import annotations

import ast
import re
import zipfile

ARGS = "dynamo/sglang/args.py"
NO_VALUE = frozenset({"store_true", "store_false", "store_const", "version", "help", "count"})
BOOLEAN_OPTIONAL = "BooleanOptionalAction"


class Unread(Exception):
    """Source the generator does not follow (it stops rather than guess)."""


class Wheel:
    def __init__(self, path: str) -> None:
        self.zip = zipfile.ZipFile(path)
        self.names = set(self.zip.namelist())
        self._trees: dict[str, ast.Module] = {}

    def tree(self, name: str) -> ast.Module:
        if name not in self._trees:
            if name not in self.names:
                raise Unread(f"{name} is not in the wheel")
            self._trees[name] = ast.parse(self.zip.read(name).decode("utf-8"))
        return self._trees[name]

    def metadata(self) -> str:
        (name,) = [n for n in self.names if n.endswith(".dist-info/METADATA")]
        return self.zip.read(name).decode("utf-8")


def module_file(module: str, here: str, level: int) -> str:
    if level:
        base = here.rsplit("/", level)[0]
        return f"{base}/{module.replace('.', '/')}.py" if module else f"{base}/__init__.py"
    return module.replace(".", "/") + ".py"


def definition(wheel: Wheel, file: str, name: str) -> tuple[str, ast.FunctionDef | ast.ClassDef]:
    """`name` defined in `file`, or imported there by name (followed)."""
    tree = wheel.tree(file)
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)) and node.name == name:
            return file, node  # type: ignore[return-value]
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and any((a.asname or a.name) == name for a in node.names):
            real = next(a.name for a in node.names if (a.asname or a.name) == name)
            target = module_file(node.module or "", file, node.level)
            if target not in wheel.names:
                target = target[:-3] + "/__init__.py"
            if target not in wheel.names:
                raise Unread(f"{name}: {node.module} is not in the wheel")
            return definition(wheel, target, real)
    raise Unread(f"{name} is not defined or imported by name in {file}")


def literal(node: ast.expr | None) -> object:
    if node is None:
        return None
    try:
        return ast.literal_eval(node)
    except ValueError:
        raise Unread(f"not a literal at line {node.lineno}: {ast.unparse(node)}") from None


def action_name(node: ast.expr | None) -> str:
    if node is None:
        return "store"
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Attribute) and node.attr == BOOLEAN_OPTIONAL:
        return BOOLEAN_OPTIONAL
    raise Unread(f"action not read at line {node.lineno}: {ast.unparse(node)}")


def option(strings: list[str], action: str, nargs: object) -> list[object]:
    if action == BOOLEAN_OPTIONAL:
        strings = [*strings, *("--no-" + s[2:] for s in strings if s.startswith("--"))]
    takes: object = False if action in NO_VALUE or action == BOOLEAN_OPTIONAL else nargs
    return [strings, takes]


class Reader:
    """The options a function adds to the parser or group it is handed (its first parameter,
    and any `X.add_argument_group(...)` made from one)."""

    def __init__(self, wheel: Wheel) -> None:
        self.wheel = wheel
        self._helpers_checked = False

    def _check_helpers(self, file: str) -> None:
        """Dynamo's `add_argument` helper passes `[flag_name, obsolete_flag]` to argparse."""
        if self._helpers_checked:
            return
        where, helper = definition(self.wheel, file, "add_argument")
        text = ast.unparse(helper)
        if "names = [flag_name]" not in text or "names.append(obsolete_flag)" not in text:
            raise Unread(f"{where}: add_argument does not build [flag_name, obsolete_flag]")
        if "parser.add_argument(*names, **kwargs)" not in text:
            raise Unread(f"{where}: add_argument does not call parser.add_argument(*names, **kwargs)")
        self._helpers_checked = True

    def function(
        self,
        file: str,
        node: ast.FunctionDef,
        holders: set[str],
        seen: tuple[str, ...] = (),
        bound: dict[str, object] | None = None,
    ) -> list:
        """`bound`: `self.NAME` values the instance was made with (its `__init__` keywords)."""
        found: list[list[object]] = []
        holders = set(holders)
        names = {  # `legacy_flag = "--x"` written once in the function
            stmt.targets[0].id: stmt.value
            for stmt in node.body
            if isinstance(stmt, ast.Assign)
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)
            and isinstance(stmt.value, ast.Constant)
        }
        assigned = [
            t.id
            for n in ast.walk(node)
            if isinstance(n, ast.Assign)
            for t in n.targets
            if isinstance(t, ast.Name)
        ]
        names = {k: v for k, v in names.items() if assigned.count(k) == 1}
        for call in self._calls(file, node.body, bound or {}):
            call.args = [
                names.get(a.id, a) if isinstance(a, ast.Name) and a.id not in holders else a
                for a in call.args
            ]
            self._call(file, call, holders, seen, found)
        return found

    def _calls(self, file: str, body: list[ast.stmt], bound: dict[str, object]) -> list[ast.Call]:
        """The calls of `body` in order, an `if` on `self.NAME` taking the branch its bound
        value takes; another `if` whose branches add options stops the generator."""
        calls: list[ast.Call] = []
        for stmt in body:
            if isinstance(stmt, ast.If):
                test = stmt.test
                if (
                    isinstance(test, ast.Attribute)
                    and isinstance(test.value, ast.Name)
                    and test.value.id == "self"
                    and test.attr in bound
                ):
                    calls.extend(self._calls(file, stmt.body if bound[test.attr] else stmt.orelse, bound))
                    continue
                if "add_argument" in ast.unparse(stmt) or "parser" in ast.unparse(stmt):
                    raise Unread(f"{file}:{stmt.lineno}: an option added under `if {ast.unparse(test)}`")
            calls.extend(
                sorted(
                    (c for c in ast.walk(stmt) if isinstance(c, ast.Call)),
                    key=lambda c: (c.lineno, c.col_offset),
                )
            )
        return calls

    def _call(self, file: str, call: ast.Call, holders: set[str], seen: tuple[str, ...], found: list) -> None:
        keywords = {k.arg: k.value for k in call.keywords}
        func = call.func
        handed = [a for a in call.args if isinstance(a, ast.Name) and a.id in holders]
        if isinstance(func, ast.Attribute) and func.attr in (
            "add_argument_group",
            "add_mutually_exclusive_group",
        ):
            return
        if isinstance(func, ast.Attribute) and func.attr == "add_argument":
            if not (isinstance(func.value, ast.Name) and func.value.id in holders):
                return  # another parser's (a source parser made here is read where it is used)
            strings = [literal(a) for a in call.args]
            if not strings or not all(isinstance(s, str) and s.startswith("-") for s in strings):
                raise Unread(f"{file}:{call.lineno}: option strings not literal")
            nargs = literal(keywords.get("nargs"))
            found.append(option(strings, action_name(keywords.get("action")), nargs))  # type: ignore[arg-type]
        elif isinstance(func, ast.Name) and func.id in ("add_argument", "add_negatable_bool_argument"):
            self._check_helpers(file)
            flag = literal(keywords.get("flag_name"))
            obsolete = literal(keywords.get("obsolete_flag"))
            if not isinstance(flag, str) or (obsolete is not None and not isinstance(obsolete, str)):
                raise Unread(f"{file}:{call.lineno}: flag_name not literal")
            strings = [flag, *([obsolete] if obsolete else [])]
            negatable = func.id == "add_negatable_bool_argument"
            action = BOOLEAN_OPTIONAL if negatable else action_name(keywords.get("action"))
            if "alias" in keywords or any(k.arg is None for k in call.keywords):
                raise Unread(f"{file}:{call.lineno}: alias or ** not read")
            found.append(option(strings, action, literal(keywords.get("nargs"))))
        elif handed and isinstance(func, ast.Name):
            if func.id in seen:
                raise Unread(f"{file}:{call.lineno}: recursion through {func.id}")
            where, target = definition(self.wheel, file, func.id)
            if not isinstance(target, ast.FunctionDef):
                raise Unread(f"{where}: {func.id} is not a function")
            first = target.args.args[call.args.index(handed[0])].arg
            found.extend(self.function(where, target, {first}, (*seen, func.id)))
        elif (
            handed
            and isinstance(func, ast.Attribute)
            and func.attr == "add_arguments"
            and isinstance(func.value, ast.Call)
            and isinstance(func.value.func, ast.Name)
        ):  # `Cls(k=literal, ...).add_arguments(parser)`
            made = func.value
            where, cls = definition(self.wheel, file, made.func.id)  # type: ignore[union-attr]
            method = method_of(cls, "add_arguments")
            if made.args:
                raise Unread(f"{file}:{call.lineno}: {made.func.id}(...) with positional arguments")  # type: ignore[union-attr]
            bound = {k.arg: literal(k.value) for k in made.keywords if k.arg}
            init = method_of(cls, "__init__", required=False)
            if init is not None:
                for stmt in init.body:
                    text = ast.unparse(stmt)
                    if not re.fullmatch(r"self\.(\w+) = \1", text) and not isinstance(stmt, ast.Expr):
                        raise Unread(f"{where}:{stmt.lineno}: __init__ does more than keep its keywords")
            found.extend(self.function(where, method, {method.args.args[1].arg}, seen, bound))
        elif handed:
            raise Unread(f"{file}:{call.lineno}: the parser is handed to {ast.unparse(func)}")


def method_of(cls: ast.FunctionDef | ast.ClassDef, name: str, required: bool = True) -> ast.FunctionDef:
    method = (
        next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == name), None)
        if isinstance(cls, ast.ClassDef)
        else None
    )
    if method is None and required:
        raise Unread(f"{cls.name} has no {name} of its own")
    return method  # type: ignore[return-value]
