"""`match` statements for `from_ast`: cases and their patterns as libcst's Match* nodes (an
element's range runs to the next element: its comma or `|` belongs to it, as in libcst)."""

from __future__ import annotations

import ast

from speclint.frontends.python import syntax as py

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def match_statement(builder: Any, node: ast.Match, start: int, end: int) -> py.Match:
    cases = []
    for case in node.cases:
        pattern = pattern_node(builder, case.pattern)
        guard = builder.expr(case.guard) if case.guard is not None else None
        body = builder.suite(case.body)
        case_start = builder.back(builder.outer_start(pattern)) - 4
        cases.append(py.MatchCase(builder.rng(case_start, builder.end_of(body)), None, pattern, body, guard))
    return py.Match(builder.rng(start, end), None, builder.expr(node.subject), cases)


def _through(builder: Any, end: int, separator: str) -> int:
    """`end`, or past the separator that follows it and the space after that."""
    after = builder.fwd(end)
    if builder.text[after : after + 1] == separator:
        following = int(builder.fwd(after + 1))  # the space before a closing bracket is the
        return (
            after + 1 if builder.text[following : following + 1] in (")", "]", "}") else following
        )  # bracket's
    return end


def _name(builder: Any, end: int, name: str) -> py.Name:
    return py.Name(builder.rng(end - len(name), end), None, name)


def _elements(builder: Any, patterns: list[ast.pattern]) -> list[Any]:
    out: list[Any] = []
    for item in patterns:
        made = pattern_node(builder, item)
        if isinstance(made, py.MatchStar):
            made.range = builder.rng(
                builder.outer_start(made), _through(builder, builder.outer_end(made), ",")
            )
            out.append(made)
            continue
        where = builder.rng(builder.outer_start(made), _through(builder, builder.outer_end(made), ","))
        out.append(py.MatchSequenceElement(where, None, made))
    return out


def pattern_node(builder: Any, node: ast.pattern) -> Any:
    start, end = builder.span(node)
    where = builder.rng(start, end)
    text = builder.text
    if isinstance(node, ast.MatchValue):
        value = builder.expr(node.value)
        return py.MatchValue(value.outer or value.range, value.outer, value)
    if isinstance(node, ast.MatchSingleton):
        return py.MatchSingleton(where, None, py.Name(where, None, text[start:end]))
    if isinstance(node, ast.MatchAs):
        inner = pattern_node(builder, node.pattern) if node.pattern is not None else None
        name = _name(builder, end, node.name) if node.name else None
        return py.MatchAs(where, None, inner, name)
    if isinstance(node, ast.MatchStar):
        return py.MatchStar(where, None, _name(builder, end, node.name) if node.name else None)
    if isinstance(node, ast.MatchOr):
        items = []
        for item in node.patterns:
            made = pattern_node(builder, item)
            stop = _through(builder, builder.outer_end(made), "|")
            items.append(py.MatchOrElement(builder.rng(builder.outer_start(made), stop), None, made))
        return py.MatchOr(where, None, items)
    if isinstance(node, ast.MatchSequence):
        elements = _elements(builder, node.patterns)
        if text[start] == "[":
            return py.MatchList(where, None, elements)
        if text[start] == "(" and (not elements or builder.outer_start(elements[0]) > start):
            inner = builder.rng(builder.fwd(start + 1), builder.back(end - 1))
            matched = py.MatchTuple(inner, None, elements)
            matched.outer = where
            return matched
        return py.MatchList(where, None, elements)
    if isinstance(node, ast.MatchMapping):
        entries = []
        for key, value in zip(node.keys, node.patterns):
            made_key = builder.expr(key)
            made_value = pattern_node(builder, value)
            stop = _through(builder, builder.outer_end(made_value), ",")
            entries.append(
                py.MatchMappingElement(
                    builder.rng(builder.outer_start(made_key), stop), None, made_key, made_value
                )
            )
        rest = None
        if node.rest is not None:
            stars = text.rfind("**", start, end)
            rest_start = builder.fwd(stars + 2)
            rest = py.Name(builder.rng(rest_start, rest_start + len(node.rest)), None, node.rest)
        return py.MatchMapping(where, None, entries, rest)
    if isinstance(node, ast.MatchClass):
        cls = builder.expr(node.cls)
        positional = _elements(builder, node.patterns)
        keywords = []
        for attribute, value in zip(node.kwd_attrs, node.kwd_patterns):
            made_value = pattern_node(builder, value)
            key_end = builder.back(builder.back(builder.outer_start(made_value)) - 1)
            stop = _through(builder, builder.outer_end(made_value), ",")
            keywords.append(
                py.MatchKeywordElement(
                    builder.rng(key_end - len(attribute), stop),
                    None,
                    _name(builder, key_end, attribute),
                    made_value,
                )
            )
        return py.MatchClass(where, None, cls, positional, keywords)
    raise TypeError(f"no conversion of ast's {type(node).__name__}")
