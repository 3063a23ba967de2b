"""The checks sglang-router's Python code makes on the router's arguments when the
co-launcher starts the router (`launch_router(router_args)` in `launch_server.py`'s
`main()`), read statically (`ast`) from one release's wheel for tools/gen_sglang_router.py.

Followed: the body of `launch_router()` (`sglang_router/launch_router.py`; a `try:` body as
its own) and the `router_args._validate_router_args()` it calls (RouterArgs' method, from
0.2.0). Kept: each `raise ValueError("literal")` whose enclosing `if` tests are all
`router_args.FIELD` / `not router_args.FIELD` (`self.` in the method; an `else:` branch takes the test negated), as
`[[[option, truthy], ...], "ValueError", message]`. FIELD is the option
`--router-NAME` where `RouterArgs.from_cli_args` reads it from `f"{prefix}NAME"` (`prefill_urls`
from `--router-prefill`), else `--router-FIELD`, `_` written `-`; it must be an option of the
release. An `if` on anything else is skipped unless its branches raise ValueError or call
the validation (the reading stops then: nothing is guessed).
"""

from __future__ import annotations

import ast
import zipfile

MODULE = "sglang_router/launch_router.py"


class Unread(Exception):
    """Source this reader does not follow."""


def _function(body: list[ast.stmt], name: str) -> ast.FunctionDef | None:
    return next((s for s in body if isinstance(s, ast.FunctionDef) and s.name == name), None)


def _raises(nodes: list[ast.stmt]) -> bool:
    """A `raise ValueError(...)` among `nodes` (another exception is no argument check:
    `raise RuntimeError("Rust Router is not installed")`)."""
    return any(
        isinstance(n, ast.Raise) and n.exc is not None and "ValueError" in ast.unparse(n.exc)
        for s in nodes
        for n in ast.walk(s)
    )


def _fields(router_args: ast.ClassDef) -> dict[str, str]:
    """RouterArgs field -> the parsed name `from_cli_args` reads it from (`f"{prefix}NAME"`)."""
    method = _function(router_args.body, "from_cli_args")
    found: dict[str, str] = {}
    if method is None:
        return found
    for node in ast.walk(method):
        if not isinstance(node, ast.Assign) or len(node.targets) != 1:
            continue
        target = node.targets[0]
        if isinstance(target, ast.Name):
            field = target.id
        elif isinstance(target, ast.Subscript) and isinstance(target.slice, ast.Constant):
            field = str(target.slice.value)
        else:
            continue
        for part in ast.walk(node.value):
            if isinstance(part, ast.JoinedStr) and len(part.values) == 2:
                head, name = part.values
                if (
                    isinstance(head, ast.FormattedValue)
                    and ast.unparse(head.value) == "prefix"
                    and isinstance(name, ast.Constant)
                ):
                    found[field] = str(name.value)
    return found


class _Reader:
    def __init__(self, router_args: ast.ClassDef, options: set[str]) -> None:
        self.router_args = router_args
        self.fields = _fields(router_args)
        self.options = options
        self.found: list[list[object]] = []

    def condition(self, test: ast.expr, owner: str) -> list[object] | None:
        truthy = True
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            test, truthy = test.operand, False
        if not (isinstance(test, ast.Attribute) and ast.unparse(test.value) == owner):
            return None
        option = "--router-" + self.fields.get(test.attr, test.attr).replace("_", "-")
        if option not in self.options:
            raise Unread(f"{owner}.{test.attr}: no option {option}")
        return [option, truthy]

    def walk(self, body: list[ast.stmt], conditions: list[list[object]], owner: str) -> None:
        for stmt in body:
            if isinstance(stmt, ast.If):
                found = self.condition(stmt.test, owner)
                if found is not None:
                    self.walk(stmt.body, [*conditions, found], owner)
                    self.walk(stmt.orelse, [*conditions, [found[0], not found[1]]], owner)
                elif _raises(stmt.body) or _raises(stmt.orelse) or self.validates(stmt):
                    raise Unread(f"line {stmt.lineno}: if {ast.unparse(stmt.test)[:100]}")
                else:  # a test on anything else (`if Router is None:`): its branches hold no check
                    continue
            elif isinstance(stmt, ast.Try):
                self.walk(stmt.body, conditions, owner)
            elif isinstance(stmt, ast.Raise) and conditions:
                self.refusal(stmt, conditions)
            elif isinstance(stmt, ast.Expr) and ast.unparse(stmt.value) == f"{owner}._validate_router_args()":
                method = _function(self.router_args.body, "_validate_router_args")
                if method is None:
                    raise Unread("RouterArgs has no _validate_router_args")
                self.walk(method.body, conditions, "self")

    def validates(self, stmt: ast.If) -> bool:
        """The branches call `_validate_router_args()` (under a test this reader cannot read)."""
        return "_validate_router_args()" in ast.unparse(stmt)

    def refusal(self, stmt: ast.Raise, conditions: list[list[object]]) -> None:
        error = stmt.exc
        if not (
            isinstance(error, ast.Call)
            and isinstance(error.func, ast.Name)
            and error.func.id == "ValueError"
            and len(error.args) == 1
            and isinstance(error.args[0], ast.Constant)
        ):
            raise Unread(f"line {stmt.lineno}: {ast.unparse(stmt)[:100]}")
        self.found.append([conditions, "ValueError", error.args[0].value])


def read_refusals(
    wheel: zipfile.ZipFile, router_args: ast.ClassDef, options: list[list[object]]
) -> list[list[object]]:
    """The release's refusals (see the module), in source order."""
    tree = ast.parse(wheel.read(MODULE))
    launch = _function(tree.body, "launch_router")
    if launch is None:
        raise Unread(f"{MODULE} has no launch_router()")
    strings = {s for option in options for s in option[0]}  # type: ignore[union-attr]
    reader = _Reader(router_args, strings)
    owner = "router_args"
    reader.walk(launch.body, [], owner)
    return reader.found
