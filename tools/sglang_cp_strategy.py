"""Read, statically (`ast`, never imported), the context-parallel prefill strategy check of a
release's resolution code (0.5.14+ `_handle_context_parallelism` / `handle_context_parallelism`):
a statement of that function's body, with no `return` before it,

    if X.enable_prefill_cp and X.cp_strategy is None:
        raise ValueError("...")

-> {"message", "where": the function, "legacy": the fields other functions test the same way
(`if X.<legacy> and X.cp_strategy is None:`, the older switches that set --enable-prefill-cp and
a strategy themselves)}; None where no such statement (or another form). Used by
tools/gen_sglang_server_checks.py (`cp_strategy_required`)."""

from __future__ import annotations

import ast

from sglang_moe_runner_asserts import value_error_text


def read_cp_strategy_required(sources: list[str]) -> dict[str, object] | None:
    found: dict[str, object] | None = None
    legacy: list[str] = []
    for source in (s for s in sources if "cp_strategy is None" in s):
        for function in (f for f in ast.walk(ast.parse(source)) if isinstance(f, ast.FunctionDef)):
            for index, stmt in enumerate(function.body):
                field = _tested(stmt)
                if field is None:
                    continue
                if field != "enable_prefill_cp":
                    legacy.append(field)
                    continue
                raised = stmt.body[0] if isinstance(stmt, ast.If) and len(stmt.body) == 1 else None
                message = value_error_text(raised)
                if not (
                    function.name.endswith("context_parallelism")
                    and not _returns(function.body[:index])
                    and isinstance(stmt, ast.If)
                    and not stmt.orelse
                    and message is not None
                    and found is None
                ):
                    return None
                found = {"message": message, "where": function.name}
    if found is None:
        return None
    found["legacy"] = sorted(set(legacy))
    return found


def _tested(stmt: ast.stmt) -> str | None:
    """`if X.<field> and X.cp_strategy is None:` -> field."""
    if not isinstance(stmt, ast.If):
        return None
    test = stmt.test
    if not (isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) and len(test.values) == 2):
        return None
    switch, strategy = test.values
    if not (
        isinstance(switch, ast.Attribute)
        and isinstance(switch.value, ast.Name)
        and ast.unparse(strategy) == f"{switch.value.id}.cp_strategy is None"
    ):
        return None
    return switch.attr


def _returns(body: list[ast.stmt]) -> bool:
    """A `return` among these statements (outside nested functions and lambdas)."""
    todo: list[ast.AST] = list(body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Return):
            return True
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            todo.extend(ast.iter_child_nodes(node))
    return False


_PREFIXES = ("self.", "cfg.", "view.")


def read_cp_asserts(sources: list[str]) -> dict[str, object] | None:
    """The same handler's `if P.attn_cp_size > 1:` (P: `self`, 0.5.9-0.5.18; `view`, the
    resolved values, 0.5.19+) whose body is asserts alone, each `assert <test>, "message"` (or
    no message) over the handler's fields -> {"where", "asserts": [[test with the `self.` /
    `cfg.` / `view.` prefixes dropped, message or null], ...] in order}; None where no such
    statement or a test reads anything but fields, integers, `%`, `*`, `==` and `not`."""
    for source in (s for s in sources if "attn_cp_size > 1" in s):
        for function in (f for f in ast.walk(ast.parse(source)) if isinstance(f, ast.FunctionDef)):
            if not function.name.endswith("context_parallelism"):
                continue
            for index, stmt in enumerate(function.body):
                if not (
                    isinstance(stmt, ast.If)
                    and ast.unparse(stmt.test) in {f"{p}attn_cp_size > 1" for p in _PREFIXES}
                    and not stmt.orelse
                ):
                    continue
                asserts: list[list[str | None]] = []
                for checked in stmt.body:
                    message = checked.msg if isinstance(checked, ast.Assert) else None
                    if not (
                        isinstance(checked, ast.Assert)
                        and _plain(checked.test)
                        and (
                            message is None
                            or (isinstance(message, ast.Constant) and isinstance(message.value, str))
                        )
                    ):
                        return None
                    text = ast.unparse(checked.test)
                    for prefix in _PREFIXES:
                        text = text.replace(prefix, "")
                    asserts.append([text, message.value if isinstance(message, ast.Constant) else None])
                if _returns(function.body[:index]) or not asserts:
                    return None
                return {"where": function.name, "asserts": asserts}
    return None


def _plain(node: ast.expr) -> bool:
    for part in ast.walk(node):
        if isinstance(part, ast.Attribute):
            if not (isinstance(part.value, ast.Name) and f"{part.value.id}." in _PREFIXES):
                return False
        elif isinstance(part, ast.Name):
            if part.id not in ("self", "cfg", "view"):
                return False
        elif not isinstance(
            part,
            (ast.Constant, ast.BinOp, ast.Compare, ast.UnaryOp, ast.Mod, ast.Mult, ast.Eq, ast.Not, ast.Load),
        ):
            return False
        if isinstance(part, ast.Constant) and not isinstance(part.value, int):
            return False
    return True
