"""`match` statements for `from_ast`: the subject, the cases' guards and bodies (what the
walker reads); each case's pattern as a libcst MatchAs/MatchValue/... of its text."""

from __future__ import annotations

import ast

from speclint.frontends.python import syntax as py

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from speclint.frontends.python.from_ast_expressions import ExpressionBuilder

    class StatementBuilder(ExpressionBuilder):
        """What is used of `from_ast.StatementBuilder` (which imports this)."""

        def suite(self, nodes: list[ast.stmt]) -> py.BaseSuite: ...

        def end_of(self, node: py.Node) -> int: ...


def match_statement(builder: Any, node: ast.Match, start: int, end: int) -> py.Match:
    cases = []
    for case in node.cases:
        pattern = pattern_node(builder, case.pattern)
        guard = builder.expr(case.guard) if case.guard is not None else None
        body = builder.suite(case.body)
        keyword = builder.back(builder.back(builder.outer_start(pattern)) - 0)
        case_start = keyword - 4
        cases.append(py.MatchCase(builder.rng(case_start, builder.end_of(body)), None, pattern, body, guard))
    return py.Match(builder.rng(start, end), None, builder.expr(node.subject), cases)


def pattern_node(builder: StatementBuilder, node: ast.pattern) -> Any:
    start, end = builder.span(node)
    where = builder.rng(start, end)
    if isinstance(node, ast.MatchValue):
        return py.MatchValue(where, None, builder.expr(node.value))
    if isinstance(node, ast.MatchSingleton):
        return py.MatchSingleton(where, None, py.Name(where, None, builder.text[start:end]))
    if isinstance(node, ast.MatchAs):
        inner = pattern_node(builder, node.pattern) if node.pattern is not None else None
        name = py.Name(builder.rng(end - len(node.name), end), None, node.name) if node.name else None
        return py.MatchAs(where, None, inner, name)
    if isinstance(node, ast.MatchOr):
        items = [pattern_node(builder, p) for p in node.patterns]
        return py.MatchOr(where, None, [py.MatchOrElement(p.range, None, p) for p in items])
    raise TypeError(f"no conversion of ast's {type(node).__name__}")
