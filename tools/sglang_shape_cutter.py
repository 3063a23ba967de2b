"""The cutter behind tools/gen_sglang_gpu_resolution.py's `shape` digests (its docstring says
what they hold): each function read is dumped without its docstrings and logging calls, with
`ModelConfig.from_server_args(self)` read as `self.get_model_config()`, and with the parts of
`handle_gpu_memory_settings` that `memory` holds cut out; `Cutter.memory` is what it read there
(`tiers`, `tp_bound`, `context_clamp`, `mla_prefill`, `running_cap`, `piecewise_tokens`)."""

from __future__ import annotations

import ast

from sglang_digest_parts import piecewise_tokens
from sglang_memory_tiers import PREFILL_MAX
from sglang_memory_tiers import attr_in as _attr
from sglang_memory_tiers import is_name as _is_name
from sglang_memory_tiers import number as _number
from sglang_memory_tiers import tiers as _tiers

_CUT = ast.Name(id="__read__")
_LOGGERS = ("logger", "logging", "warnings")


class Cutter(ast.NodeTransformer):
    """Drops docstrings and logging calls, cuts out (and reads) the parts `memory` holds."""

    def __init__(self) -> None:
        self.memory: dict[str, object] = {}

    def _body(self, body: list[ast.stmt]) -> list[ast.stmt]:
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            if isinstance(body[0].value.value, str):
                body = body[1:]
        return body or [ast.Pass()]

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        node.body = self._body(node.body)
        self.generic_visit(node)
        return node

    def visit_ImportFrom(self, node: ast.ImportFrom) -> ast.AST | None:
        """`from sglang.srt.configs.model_config import ModelConfig` in a function: dropped
        with the call it serves (visit_Call)."""
        if [a.name for a in node.names] == ["ModelConfig"]:
            return None
        return node

    def visit_Call(self, node: ast.Call) -> ast.AST:
        """`ModelConfig.from_server_args(self)` (0.5.4 and older) is `self.get_model_config()`
        (0.5.4.post1+: the same ModelConfig, made once)."""
        self.generic_visit(node)
        func = node.func
        if (
            isinstance(func, ast.Attribute)
            and func.attr == "from_server_args"
            and _is_name(func.value, "ModelConfig")
            and len(node.args) == 1
            and _is_name(node.args[0], "self")
            and not node.keywords
        ):
            return ast.Call(
                ast.Attribute(ast.Name("self", ast.Load()), "get_model_config", ast.Load()), [], []
            )
        return node

    def visit_Expr(self, node: ast.Expr) -> ast.AST | None:
        call = node.value
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute):
            base = call.func.value
            if isinstance(base, ast.Name) and base.id in _LOGGERS:
                return ast.Pass()
        self.generic_visit(node)
        return node

    def visit_If(self, node: ast.If) -> ast.AST | None:
        test = node.test
        if piecewise_tokens(node):
            # 0.5.3.post2+: the token counts (read as `prefill_ranges`); 0.5.3 has none. Left
            # in place for the readers after this one, left out of the digest (`digested`)
            self.memory["piecewise_tokens"] = True
            return node
        if (
            isinstance(test, ast.Compare)
            and _is_name(test.left, "gpu_mem")
            and isinstance(test.ops[0], ast.IsNot)
            and node.body
            and isinstance(node.body[0], ast.If)
        ):
            read = _tiers(node.body[0])
            if read is not None:
                self.memory["tiers"], self.memory["tp_bound"] = read
                node.body = [ast.Expr(_CUT), *node.body[1:]]
        elif (
            isinstance(test, ast.Compare)
            and _attr(test.left, "context_length")
            and isinstance(test.ops[0], ast.IsNot)
            and len(node.body) == 1
            and isinstance(node.body[0], ast.Assign)
            and _attr(node.body[0].targets[0], PREFILL_MAX)
            and any(_attr(n, "context_length") for n in ast.walk(node.body[0].value))
        ):
            self.memory["context_clamp"] = True
            return ast.Expr(_CUT)
        elif (
            isinstance(test, ast.Compare)
            and _attr(test.left, PREFILL_MAX)
            and isinstance(test.ops[0], ast.Is)
            and any(
                isinstance(s, ast.Assign)
                and _attr(s.targets[0], PREFILL_MAX)
                and _attr(s.value, "chunked_prefill_size")
                for s in node.body
            )
        ):
            self.memory["mla_prefill"] = {"chunked": True}  # 0.5.7: no MLA branch
        elif (
            isinstance(test, ast.BoolOp)
            and any(_attr(n, "max_running_requests") for n in ast.walk(test))
            and len(node.body) == 1
            and isinstance(node.body[0], ast.Assign)
            and _attr(node.body[0].targets[0], "max_bs")
            and _attr(node.body[0].value, "max_running_requests")
        ):
            self.memory["running_cap"] = True
            return ast.Expr(_CUT)
        elif (
            isinstance(test, ast.UnaryOp)
            and isinstance(test.op, ast.Not)
            and isinstance(test.operand, ast.Call)
            and (
                _is_name(test.operand.func, "use_mla_backend") or _attr(test.operand.func, "use_mla_backend")
            )
            and len(node.orelse) == 1
            and isinstance(node.orelse[0], ast.Assign)
        ):
            value = node.orelse[0].value
            fixed = _number(value)
            if fixed is not None:
                self.memory["mla_prefill"] = {"fixed": fixed}
                node.orelse = [ast.Expr(_CUT)]
            elif (
                isinstance(value, ast.Call)
                and _is_name(value.func, "min")
                and len(value.args) == 2
                and _attr(value.args[1], "chunked_prefill_size")
                and _number(value.args[0]) is not None
            ):
                self.memory["mla_prefill"] = {"cap": _number(value.args[0])}
                node.orelse = [ast.Expr(_CUT)]
        self.generic_visit(node)
        return node
