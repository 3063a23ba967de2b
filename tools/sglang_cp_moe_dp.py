"""Read, statically (`ast`, never imported), the MoE data-parallel asserts of a release's
context-parallelism handler (0.5.14+ `_handle_context_parallelism`, 0.5.19+
`handle_context_parallelism`): statements of its body, with no `return` before them, of the form

    if P.moe_dp_size > 1:                         # and `if P.attn_cp_size != P.moe_dp_size:`
        assert <test>, "message"
        if P.ep_size > 1:
            assert <test>, "message"

(P: `self`, `cfg` or `view`) -> [{"test", "where": the function, "asserts": [[test, message or null, guard or null],
...]}, ...] in order, the `P.` prefixes dropped; None where the handler has neither block, or a
test reads anything but fields, integers, `%`, `*`, `==`, `!=`, `>`, `<=` and `not`. Used by
tools/gen_sglang_server_checks.py (`cp_moe_dp_asserts`)."""

from __future__ import annotations

import ast

_PREFIXES = ("self.", "cfg.", "view.")
_TESTS = {f"{p}moe_dp_size > 1" for p in _PREFIXES} | {
    f"{a}attn_cp_size != {b}moe_dp_size" for a in _PREFIXES for b in _PREFIXES
}
_NODES = (
    ast.Constant,
    ast.BinOp,
    ast.Compare,
    ast.UnaryOp,
    ast.Mod,
    ast.Mult,
    ast.Eq,
    ast.NotEq,
    ast.Gt,
    ast.LtE,
    ast.Not,
    ast.Load,
)


def _text(node: ast.expr) -> str | None:
    for part in ast.walk(node):
        if isinstance(part, ast.Attribute):
            if not (isinstance(part.value, ast.Name) and f"{part.value.id}." in _PREFIXES):
                return None
        elif isinstance(part, ast.Name):
            if part.id not in ("self", "cfg", "view"):
                return None
        elif not isinstance(part, _NODES) or (
            isinstance(part, ast.Constant) and not isinstance(part.value, int)
        ):
            return None
    text = ast.unparse(node)
    for prefix in _PREFIXES:
        text = text.replace(prefix, "")
    return text


def _asserts(body: list[ast.stmt], guard: str | None) -> list[list[str | None]] | None:
    out: list[list[str | None]] = []
    for stmt in body:
        if isinstance(stmt, ast.Assert):
            message = stmt.msg
            test = _text(stmt.test)
            if test is None or not (
                message is None or (isinstance(message, ast.Constant) and isinstance(message.value, str))
            ):
                return None
            out.append([test, message.value if isinstance(message, ast.Constant) else None, guard])
        elif isinstance(stmt, ast.If) and guard is None and not stmt.orelse:
            inner_guard = _text(stmt.test)
            inner = None if inner_guard is None else _asserts(stmt.body, inner_guard)
            if inner is None:
                return None
            out.extend(inner)
        else:
            return None
    return out


def read_cp_moe_dp_asserts(sources: list[str]) -> list[dict[str, object]] | None:
    for source in (s for s in sources if "moe_dp_size" in s and "context_parallelism" in s):
        for function in (f for f in ast.walk(ast.parse(source)) if isinstance(f, ast.FunctionDef)):
            if not function.name.endswith("context_parallelism"):
                continue
            blocks: list[dict[str, object]] = []
            for index, stmt in enumerate(function.body):
                if not (isinstance(stmt, ast.If) and ast.unparse(stmt.test) in _TESTS and not stmt.orelse):
                    continue
                asserts = _asserts(stmt.body, None)
                returns = any(isinstance(n, ast.Return) for s in function.body[:index] for n in ast.walk(s))
                if asserts is None or returns or not asserts:
                    return None
                test = _text(stmt.test)
                assert test is not None
                blocks.append({"test": test, "asserts": asserts, "where": function.name})
            if blocks:
                return blocks
    return None


_CP, _A2A = "handle_context_parallelism", "handle_a2a_moe"


def _handler(node: ast.AST) -> str | None:
    name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else None
    bare = None if name is None else name.lstrip("_")
    return bare if bare in (_CP, _A2A) else None


def read_cp_before_a2a(sources: list[str]) -> bool | None:
    """Whether the release calls its context-parallelism handler before its all-to-all handler
    (whose ep_size = tp_size the handler's asserts then do not see): the first function that calls
    both `..._handle_context_parallelism()` and `..._handle_a2a_moe()` (or passes them to another
    call, 0.5.19+ `run_hook(handle_..., server_args)`) -> true where the CP handler's call comes
    first; None where no function calls both."""
    for source in (s for s in sources if _CP in s and _A2A in s):
        for function in (f for f in ast.walk(ast.parse(source)) if isinstance(f, ast.FunctionDef)):
            first: dict[str, tuple[int, int]] = {}
            for node in ast.walk(function):
                if not isinstance(node, ast.Call):
                    continue
                for candidate in (node.func, *node.args[:1]):
                    name = _handler(candidate)
                    if name is not None:
                        place = (node.lineno, node.col_offset)
                        first[name] = min(first.get(name, place), place)
            if len(first) == 2:
                return first[_CP] < first[_A2A]
    return None
