"""Turn the `add_argument` calls of one SGLang wheel into schema entries, statically.

`extract(wheel)` walks `ServerArgs.add_cli_args` in `sglang/srt/server_args.py`. In
0.5.14+ that method starts with `add_cli_args_from_dataclass(parser, ServerArgs)`,
which registers one argument per `A[T, "help"]` / `A[T, Arg(...)]` field; this module
re-implements that function's rules over the field declarations (in 0.5.23 the
fields live in `sglang/srt/arg_groups/fields/*.py`, ordered by
`POSITIONAL_FIELD_ORDER`, then the remaining fields namespace by namespace).
"""

from __future__ import annotations

import ast

from sglang_actions import MISSING as _MISSING
from sglang_actions import build_action
from sglang_moe_runner_refusals import env_switch
from sglang_static import ClassRef, Evaluator, ExtRef, FieldFactory, FuncRef, Opaque, Unresolved

SERVER_ARGS = "sglang.srt.server_args"
GROUP_METHODS = ("add_argument_group", "add_mutually_exclusive_group")


def argument_call(stmt: ast.stmt, parsers: dict) -> ast.Call | None:
    """`p.add_argument(...)` as a statement, on a parser (or group) named in `parsers`."""
    call = stmt.value if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) else None
    func = call.func if call is not None else None
    if (
        isinstance(func, ast.Attribute)
        and func.attr == "add_argument"
        and isinstance(func.value, ast.Name)
        and func.value.id in parsers
    ):
        return call
    return None


def group_title(target: str, value: ast.expr) -> str | None:
    """`target = p.add_argument_group("Title")`: the group's title (its name when the title
    is not a literal); None when `value` makes no group."""
    if not (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Attribute)
        and value.func.attr in GROUP_METHODS
    ):
        return None
    first = value.args[0] if value.args else None
    return first.value if isinstance(first, ast.Constant) else target


class Extractor:
    def __init__(self, wheel):
        self.wheel = wheel
        self.mod = wheel.module(SERVER_ARGS)
        node = next(s for s in self.mod.tree.body if isinstance(s, ast.ClassDef) and s.name == "ServerArgs")
        self.cls = ClassRef(self.mod, node)
        self.mod._values["ServerArgs"] = self.cls  # 0.5.23 rebinds the name to a defstruct
        self.fields = None
        self.notes: dict[str, str] = {}
        self.flags: list[dict] = []
        self.env_choices: dict[str, list[dict]] = {}
        """A local set of choices -> the values added to it only under an environment switch."""
        self.hooks = {"class_attr": self._class_attr, "call": self._call_hook}

    # --- field declarations (dataclass / msgspec record) -------------------------------
    def record_fields(self):
        """[(name, annotation node, default node or None, module)] in record order."""
        if self.fields is not None:
            return self.fields
        own = self._class_fields(self.cls)
        if "_INPUT_NAMESPACES" in self.mod.defs:  # 0.5.23: fields assembled from namespaces
            namespaces = Evaluator(self.mod).eval(self.mod.defs["_INPUT_NAMESPACES"][1])
            collected = {}
            for ns in namespaces:
                for f in self._class_fields(ns):
                    collected[f[0]] = f
            order = self.wheel.module("sglang.srt.arg_groups.fields").lookup("POSITIONAL_FIELD_ORDER")
            names = [n for n in order if n in collected]
            names += [n for n in collected if n not in set(order)]
            fields = [collected[n] for n in names]
            fields += [f for f in own if f[0] not in collected]
        else:
            fields = own
        self.fields = fields
        return fields

    @staticmethod
    def _class_fields(cls: ClassRef):
        """A field declared twice (0.5.15-0.5.16 declare `dcp_size` twice) is one field, as
        in `__annotations__`: the first declaration's position, the last one's annotation
        and default."""
        out: dict[str, tuple] = {}
        for stmt in cls.node.body:
            if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                if "ClassVar" in ast.unparse(stmt.annotation):
                    continue
                out[stmt.target.id] = (stmt.target.id, stmt.annotation, stmt.value, cls.mod)
        return list(out.values())

    def field_default(self, name):
        for fname, _, value, mod in self.record_fields():
            if fname == name:
                if value is None:
                    return _MISSING
                result = Evaluator(mod, hooks=self.hooks).eval(value)
                if isinstance(result, FieldFactory):
                    factory = result.kwargs.get("default_factory")
                    result = factory() if callable(factory) else Evaluator(mod).call_value(factory, [], {})
                return result
        raise Unresolved(f"ServerArgs.{name}")

    def _class_attr(self, cls, attr):
        if cls.node is self.cls.node and attr in {f[0] for f in self.record_fields()}:
            value = self.field_default(attr)
            if value is _MISSING:
                raise Unresolved(f"ServerArgs.{attr} (no default)")
            return True, value
        return False, None

    def _call_hook(self, func: FuncRef, args, kwargs):
        if func.name == "_declared_default" and len(args) == 1:
            return True, self.field_default(args[0])
        return False, None

    # --- add_cli_args ------------------------------------------------------------------
    def run(self):
        method = next(
            s for s in self.cls.node.body if isinstance(s, ast.FunctionDef) and s.name == "add_cli_args"
        )
        parser_name = method.args.args[0].arg
        self._walk(method.body, Evaluator(self.mod, hooks=self.hooks), {parser_name: None})
        return self.flags

    def _walk(self, body, ev, parsers):
        for stmt in body:
            call = argument_call(stmt, parsers)
            if call is not None:
                assert isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name)
                self.flags.append(self.from_call(call, ev, parsers[call.func.value.id]))
            elif (
                isinstance(stmt, ast.Expr)
                and isinstance(stmt.value, ast.Call)
                and isinstance(stmt.value.func, ast.Name)
                and stmt.value.func.id == "add_cli_args_from_dataclass"
            ):
                self.flags.extend(self.from_dataclass())
            elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
                self.notes.setdefault("skipped_statements", "")
                self.notes["skipped_statements"] += ast.unparse(stmt)[:120] + "; "
            elif (
                isinstance(stmt, ast.Assign)
                and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name)
            ):
                target, value = stmt.targets[0].id, stmt.value
                title = group_title(target, value)
                if title is not None:
                    parsers[target] = title
                    continue
                try:
                    ev.local[target] = ev.eval(value)
                except Unresolved:
                    ev.local[target] = Opaque(ast.unparse(value))
            elif isinstance(stmt, ast.If):
                if self._env_choice(stmt):
                    continue
                try:
                    branch = stmt.body if ev.eval(stmt.test) else stmt.orelse
                except Unresolved:
                    self.notes["conditional_registration"] = (
                        f"`if {ast.unparse(stmt.test)}:` depends on the runtime environment; "
                        "read as false (the default environment), so its body was skipped: "
                        + ast.unparse(stmt.body[0])[:160]
                    )
                    branch = stmt.orelse
                self._walk(branch, ev, parsers)
            else:
                self.notes.setdefault("skipped_statements", "")
                self.notes["skipped_statements"] += ast.unparse(stmt)[:120] + "; "

    def _env_choice(self, stmt: ast.If) -> bool:
        """`if envs.X.get(): choices.add("value")` (0.5.19+ `--sampling-backend`'s
        `token_oracle`): the value is a choice only when the boolean environment variable X is
        true; recorded with X's default and `EnvBool.parse`'s values (`env_switch`), for the
        `add_argument` that takes `choices=choices`. False when `stmt` is not of that form."""
        environ = self.wheel.module("sglang.srt.environ")
        switch = env_switch(stmt.test, environ.src if environ is not None else None)
        adds = [
            s.value
            for s in stmt.body
            if isinstance(s, ast.Expr)
            and isinstance(s.value, ast.Call)
            and isinstance(s.value.func, ast.Attribute)
            and s.value.func.attr == "add"
            and isinstance(s.value.func.value, ast.Name)
            and len(s.value.args) == 1
            and not s.value.keywords
            and isinstance(s.value.args[0], ast.Constant)
        ]
        if switch is None or stmt.orelse or not adds or len(adds) != len(stmt.body):
            return False
        for call in adds:
            assert isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name)
            value = call.args[0]
            assert isinstance(value, ast.Constant)
            self.env_choices.setdefault(call.func.value.id, []).append({"choice": value.value, "env": switch})
        return True

    def from_call(self, call: ast.Call, ev: Evaluator, group):
        options = [ev.eval(a) for a in call.args]
        kwargs, unresolved = {}, {}
        for kw in call.keywords:
            try:
                kwargs[kw.arg] = ev.eval(kw.value)
            except Unresolved:
                unresolved[kw.arg] = ast.unparse(kw.value)
        entry = build_action(options, kwargs, unresolved, group)
        chosen = next((kw.value for kw in call.keywords if kw.arg == "choices"), None)
        if (
            isinstance(chosen, ast.Name)
            and chosen.id in self.env_choices
            and entry.get("choices") is not None
        ):
            entry["env_choices"] = self.env_choices[chosen.id]
        return entry

    # --- add_cli_args_from_dataclass, re-implemented ---------------------------------
    def from_dataclass(self):
        out = []
        for name, ann, _default, mod in self.record_fields():
            ev = Evaluator(mod, hooks=self.hooks)
            raw_type, meta, unresolved = self._unwrap_annotated(ann, ev)
            if meta is None or meta.get("no_cli"):
                continue
            cli_name = meta.get("cli_name") or "--" + name.replace("_", "-")
            names = [cli_name] + list(meta.get("aliases") or [])
            kwargs = {"help": meta.get("help", "")}
            if cli_name.lstrip("-").replace("-", "_") != name:
                kwargs["dest"] = name
            try:
                default = self.field_default(name)
            except Unresolved as exc:
                default, unresolved["default"] = _MISSING, str(exc)
            if default is not _MISSING:
                kwargs["default"] = default
            elif "default" not in unresolved:
                # no default: required unless Arg(required=False)
                pass
            if meta.get("action") is not None or "action" in unresolved:
                if "action" in meta:
                    kwargs["action"] = meta["action"]
                kwargs.update(meta.get("action_kwargs") or {})
                out.append(build_action(names, kwargs, unresolved, None))
                continue
            inner, _ = self._unwrap_optional(raw_type)
            literal = self._literal(inner, ev)
            const = meta.get("const")
            type_parser = meta.get("type_parser")
            if literal is not None:
                kwargs["type"] = type_parser or ExtRef(
                    self._infer(type(literal[0]).__name__ if literal else "str")
                )
                kwargs["choices"] = meta.get("choices") or literal
            elif self._origin(inner) == "list" and type_parser is None and "type_parser" not in unresolved:
                elem = inner.slice if isinstance(inner, ast.Subscript) else None
                kwargs["type"] = ExtRef(self._infer(ast.unparse(elem) if elem is not None else "str"))
                kwargs["nargs"] = meta.get("nargs") or "+"
                if meta.get("choices"):
                    kwargs["choices"] = meta["choices"]
            elif isinstance(inner, ast.Name) and inner.id == "bool":
                kwargs["action"] = "store_true"
                out.append(build_action(names, kwargs, unresolved, None))
                continue
            else:
                kwargs["type"] = type_parser or ExtRef(self._infer(ast.unparse(inner)))
                if meta.get("choices"):
                    kwargs["choices"] = meta["choices"]
                if meta.get("nargs"):
                    kwargs["nargs"] = meta["nargs"]
                required = meta.get("required")
                if required is True or (
                    required is None and default is _MISSING and "default" not in unresolved
                ):
                    kwargs["required"] = True
            if const is not None:
                kwargs["const"] = const
            out.append(build_action(names, kwargs, unresolved, None))
        return out

    @staticmethod
    def _infer(type_name: str) -> str:
        return type_name if type_name in ("str", "int", "float") else "str"

    @staticmethod
    def _origin(node):
        if isinstance(node, ast.Subscript):
            base = ast.unparse(node.value)
            return {"List": "list", "list": "list", "typing.List": "list"}.get(base, base)
        return None

    def _unwrap_annotated(self, ann, ev):
        unresolved = {}
        if not (
            isinstance(ann, ast.Subscript)
            and ast.unparse(ann.value) in ("A", "Annotated", "typing.Annotated")
        ):
            return ann, None, unresolved
        elts = ann.slice.elts if isinstance(ann.slice, ast.Tuple) else [ann.slice]
        for item in elts[1:]:
            if isinstance(item, ast.Call) and ast.unparse(item.func) in ("Arg", "arg_utils.Arg"):
                meta = {}
                for kw in item.keywords:
                    try:
                        meta[kw.arg] = ev.eval(kw.value)
                    except Unresolved:
                        unresolved[kw.arg] = ast.unparse(kw.value)
                        if kw.arg == "help":
                            meta["help"] = ast.unparse(kw.value)
                return elts[0], meta, unresolved
            if isinstance(item, ast.Call):
                continue  # NS(...), Derived(...)
            try:
                value = ev.eval(item)
            except Unresolved:
                continue
            if isinstance(value, str):
                return elts[0], {"help": value}, unresolved
        return elts[0], None, unresolved

    @staticmethod
    def _unwrap_optional(node):
        if isinstance(node, ast.Subscript) and ast.unparse(node.value) in ("Optional", "typing.Optional"):
            return node.slice, True
        parts = None
        if isinstance(node, ast.Subscript) and ast.unparse(node.value) in ("Union", "typing.Union"):
            parts = list(node.slice.elts) if isinstance(node.slice, ast.Tuple) else [node.slice]
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            parts, stack = [], [node]
            while stack:
                item = stack.pop()
                if isinstance(item, ast.BinOp) and isinstance(item.op, ast.BitOr):
                    stack += [item.right, item.left]
                else:
                    parts.append(item)
        if parts is not None:
            rest = [p for p in parts if ast.unparse(p) != "None"]
            if len(rest) == 1:
                return rest[0], True
        return node, False

    @staticmethod
    def _literal(node, ev):
        if isinstance(node, ast.Subscript) and ast.unparse(node.value) in ("Literal", "typing.Literal"):
            elts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            return [ev.eval(e) for e in elts]
        return None
