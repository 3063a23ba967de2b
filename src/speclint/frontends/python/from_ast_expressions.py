"""Expressions of `ast` -> the front-end's tree (`from_ast`): positions made libcst's."""

from __future__ import annotations

import ast
from operator import attrgetter

from speclint.frontends.python import syntax as py
from speclint.frontends.python.from_ast_operators import OPERATORS, operator
from speclint.frontends.python.from_ast_parameters import ParameterBuilder
from speclint.frontends.python.from_ast_strings import strings

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any


AST_RANGE = attrgetter("lineno", "col_offset", "end_lineno", "end_col_offset")
"""An ast node's (line, byte column, end line, end byte column): in an ascii file (no
f-string field parsed alone), libcst's range of the node written there."""
_BEFORE_PARENTHESIS = frozenset("( \t\f\r\n")
"""What may stand just before an expression written in its own parentheses: the `(`, or
what `back` steps over (spaces, a line end; a comment is found by where it ends)."""


class ExpressionBuilder(ParameterBuilder):
    """Expressions, with libcst's ranges (`SourcePositions`)."""

    def expr(self, node: ast.expr, owned: int = -1) -> Any:
        """`node` with its range and its own parentheses (`owned`: where a parenthesis of
        its parent's stands, never its own: a call's `(` around its only argument)."""
        local = self.local
        where: tuple[int, int, int, int] | None = None
        if local is None and self.ascii:  # ast's (line, column) are libcst's: no `span`, no `rng`
            where = AST_RANGE(node)  # (no `typing.cast`: a Python call per node)
            line, column, end_line, end_column = where
            starts = self.starts
            start, end = starts[line - 1] + column, starts[end_line - 1] + end_column
            kind = type(node)
            if kind is ast.Name or isinstance(node, ast.Constant) and type(node.value) is str:
                leaf = self._leaf(node, kind, where, start, end, owned)  # (most nodes: a leaf)
                if leaf is not None:
                    return leaf
        else:
            start, end = self.span(node)
        if local is not None and start == local[2]:  # an f-string field's tuple, in
            start, end = self.fwd(start + 1), self.back(end - 1)  # the `(...)` it was parsed in
        elif isinstance(node, ast.Tuple) and self.text[start : start + 1] == "(":
            if self._wrapped_at(start, end):
                start, end, where = self.fwd(start + 1), self.back(end - 1), None
        elif isinstance(node, ast.GeneratorExp):
            start, end, where = self.fwd(start + 1), self.back(end - 1), None
        method = _BUILDERS.get(type(node))  # (`build`, its call saved: one per node)
        made = method(self, node, start, end) if method is not None else self.build(node, start, end)
        made.range = where or self.rng(start, end)
        text, ends = self.text, self.comment_ends
        at = start
        while at > 0 and text[at - 1] == " " and at not in ends:  # (`back`'s first steps: `, x`)
            at -= 1
        if at == 0 or text[at - 1] not in _BEFORE_PARENTHESIS and at not in ends:
            made.outer = None  # no `(` before it, nor a line end or comment that may follow one
            return made
        outer_start, outer_end = start, end
        while True:
            before = self.back(outer_start) - 1
            if before < 0 or before == owned or text[before] != "(":
                break
            after = self.fwd(outer_end)  # (only after a `(`: most nodes have none)
            if text[after : after + 1] != ")":
                break
            outer_start, outer_end = before, after + 1
        made.outer = self.rng(outer_start, outer_end) if outer_start != start else None
        return made

    def _leaf(
        self, node: ast.expr, kind: type, where: tuple[int, int, int, int], start: int, end: int, owned: int
    ) -> Any:
        """A name or a plain string literal (no prefix, one literal, its quote not inside it)
        not in its own parentheses: what the general path of `expr` makes, less its calls
        (None: not such a leaf, or in parentheses)."""
        text = self.text
        if kind is not ast.Name:  # a str constant
            quote = text[start]
            if quote != '"' and quote != "'" or end - start < 2 or text.find(quote, start + 1, end - 1) >= 0:
                return None  # (a prefix, a triple quote, an escaped quote, two literals: `strings`)
            made: Any = py.SimpleString(where, None, text[start:end])
        else:
            made = py.Name(where, None, text[start:end])
        at = start
        ends = self.comment_ends
        while at > 0 and text[at - 1] == " " and at not in ends:  # (as `expr` reads what is before it)
            at -= 1
        if at > 0 and (text[at - 1] in _BEFORE_PARENTHESIS or at in ends):
            before = self.back(at) - 1
            if before >= 0 and before != owned and text[before] == "(":
                after = self.fwd(end)
                if text[after : after + 1] == ")":
                    return None  # in its own parentheses: `outer` (the general path)
        made.outer = None
        return made

    def _wrapped_at(self, start: int, end: int) -> bool:
        """Whether the tuple's `(` at `start` is its own (closed at its end, not by its
        first element: `(a), b`)."""
        return self.matching_close(start) == end - 1

    def build(self, node: ast.expr, start: int, end: int) -> Any:
        kind = type(node)
        method = _BUILDERS.get(kind)
        if method is None:  # a subclass of an ast class (`ast.parse` makes none), or no such
            method = next((_BUILDERS[base] for base in kind.__mro__ if base in _BUILDERS), None)
            if method is None and isinstance(node, ast.Slice):
                raise TypeError("a slice outside a subscript")
            if method is None:
                raise TypeError(f"no conversion of ast's {kind.__name__}")
        return method(self, node, start, end)

    def _name(self, node: ast.Name, start: int, end: int) -> Any:
        return py.Name(None, None, self.text[start:end])

    def _constant(self, node: ast.Constant, start: int, end: int) -> Any:
        value = node.value
        if isinstance(value, (str, bytes)):
            return self.strings(start, end)
        if value is None or isinstance(value, bool):
            return py.Name(None, None, self.text[start:end])
        if value is ...:
            return py.Ellipsis(None, None)
        kind = (
            py.Float
            if isinstance(value, float)
            else py.Imaginary
            if isinstance(value, complex)
            else py.Integer
        )
        return kind(None, None, self.text[start:end])

    def _joined_str(self, node: ast.JoinedStr, start: int, end: int) -> Any:
        return self.strings(start, end)

    def _attribute(self, node: ast.Attribute, start: int, end: int) -> Any:
        value = self.expr(node.value)
        attr_start = self.fwd(self.fwd(self.outer_end(value)) + 1)
        if self.local is None and self.ascii:  # the name ends the node, on its last line
            _, _, line, column = AST_RANGE(node)
            where = (line, column - (end - attr_start), line, column)
        else:
            where = self.rng(attr_start, end)
        attr = py.Name(where, None, self.text[attr_start:end])
        return py.Attribute(None, None, value, attr)

    def _call(self, node: ast.Call, start: int, end: int) -> Any:
        func = self.expr(node.func)
        paren = self.fwd(self.outer_end(func))
        return py.Call(None, None, func, self.call_args(node.args, node.keywords, paren))

    def _binary(self, node: ast.BinOp, start: int, end: int) -> Any:
        e = self.expr
        return py.BinaryOperation(None, None, e(node.left), operator(OPERATORS[type(node.op)]), e(node.right))

    def _boolean(self, node: ast.BoolOp, start: int, end: int) -> Any:
        values = [self.expr(v) for v in node.values]
        made = values[0]
        op = operator(OPERATORS[type(node.op)])
        for value in values[1:-1]:
            made = py.BooleanOperation(None, None, made, op, value)
            made.range = self.rng(self.outer_start(made.left), self.outer_end(value))
            made.outer = None
        return py.BooleanOperation(None, None, made, op, values[-1])

    def _unary(self, node: ast.UnaryOp, start: int, end: int) -> Any:
        return py.UnaryOperation(None, None, operator(OPERATORS[type(node.op)]), self.expr(node.operand))

    def _compare(self, node: ast.Compare, start: int, end: int) -> Any:
        left = self.expr(node.left)
        targets = []
        previous = self.outer_end(left)
        for op, comparator in zip(node.ops, node.comparators):
            value = self.expr(comparator)
            targets.append(
                py.ComparisonTarget(
                    self.rng(previous, self.outer_end(value)), None, operator(OPERATORS[type(op)]), value
                )
            )
            previous = self.outer_end(value)
        return py.Comparison(None, None, left, targets)

    def _if_exp(self, node: ast.IfExp, start: int, end: int) -> Any:
        e = self.expr
        return py.IfExp(None, None, e(node.test), e(node.body), e(node.orelse))

    def _lambda(self, node: ast.Lambda, start: int, end: int) -> Any:
        return py.Lambda(None, None, self.parameters(node.args, start + 6), self.expr(node.body))

    def _named(self, node: ast.NamedExpr, start: int, end: int) -> Any:
        return py.NamedExpr(None, None, self.expr(node.target), self.expr(node.value))

    def _subscript(self, node: ast.Subscript, start: int, end: int) -> Any:
        return py.Subscript(None, None, self.expr(node.value), self.subscript(node.slice))

    def _starred(self, node: ast.Starred, start: int, end: int) -> Any:
        return py.StarredElement(None, None, self.expr(node.value))

    def _sequence(self, node: ast.List | ast.Tuple | ast.Set, start: int, end: int) -> Any:
        if self.local is not None or not self.ascii:
            return getattr(py, type(node).__name__)(None, None, [self.element(x) for x in node.elts])
        made: list[Any] = []
        starts = self.starts
        for x in node.elts:  # (`element` of a leaf, its calls saved: most elements of an argv)
            kind = type(x)
            if kind is ast.Name or isinstance(x, ast.Constant) and type(x.value) is str:
                where = AST_RANGE(x)
                begin, stop = starts[where[0] - 1] + where[1], starts[where[2] - 1] + where[3]
                leaf = self._leaf(x, kind, where, begin, stop, -1)
                if leaf is not None:
                    made.append(py.Element(where, None, leaf))
                    continue
            made.append(self.element(x))
        return getattr(py, type(node).__name__)(None, None, made)

    def _dict(self, node: ast.Dict, start: int, end: int) -> Any:
        return py.Dict(None, None, [self.dict_element(k, v) for k, v in zip(node.keys, node.values)])

    def _comprehension(
        self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp, start: int, end: int
    ) -> Any:
        kind = getattr(py, type(node).__name__)
        return kind(None, None, self.expr(node.elt), self.comprehension(node.generators))

    def _dict_comprehension(self, node: ast.DictComp, start: int, end: int) -> Any:
        e = self.expr
        return py.DictComp(None, None, e(node.key), e(node.value), self.comprehension(node.generators))

    def _await(self, node: ast.Await, start: int, end: int) -> Any:
        return py.Await(None, None, self.expr(node.value))

    def _yield(self, node: ast.Yield, start: int, end: int) -> Any:
        return py.Yield(None, None, self.expr(node.value) if node.value is not None else None)

    def _yield_from(self, node: ast.YieldFrom, start: int, end: int) -> Any:
        value = self.expr(node.value)
        keyword = self.back(self.outer_start(value)) - 4
        return py.Yield(None, None, py.From(self.rng(keyword, self.outer_end(value)), None, value))

    def element(self, node: ast.expr) -> Any:
        value = self.expr(node)
        if isinstance(value, py.StarredElement):
            return value
        return py.Element(value.outer or value.range, None, value)

    def dict_element(self, key: ast.expr | None, value_node: ast.expr) -> Any:
        value = self.expr(value_node)
        if key is None:
            stars = self.back(self.outer_start(value)) - 2
            return py.StarredDictElement(self.rng(stars, self.outer_end(value)), None, value)
        made = self.expr(key)
        return py.DictElement(self.rng(self.outer_start(made), self.outer_end(value)), None, made, value)

    def call_args(self, args: list[ast.expr], keywords: list[ast.keyword], paren: int) -> list[py.Arg]:
        made = [self.arg(a, paren) for a in args] + [self.keyword(k, paren) for k in keywords]
        if keywords and args:
            made.sort(key=lambda arg: arg.range[:2])
        return made

    def arg(self, node: ast.expr, paren: int = -1) -> py.Arg:
        if isinstance(node, ast.Starred):
            start, end = self.span(node)
            value = self.expr(node.value)
            return py.Arg(self.rng(start, self.outer_end(value)), None, value, None, "*")
        value = self.expr(node, paren)
        return py.Arg(value.outer or value.range, None, value, None, "")

    def keyword(self, node: ast.keyword, paren: int = -1) -> py.Arg:
        start, end = self.span(node)
        value = self.expr(node.value, paren)
        if node.arg is None:
            return py.Arg(self.rng(start, self.outer_end(value)), None, value, None, "**")
        name = py.Name(self.rng(start, start + len(node.arg)), None, self.text[start : start + len(node.arg)])
        return py.Arg(self.rng(start, self.outer_end(value)), None, value, name, "")

    def augop(self, op: ast.operator) -> Any:
        return operator(OPERATORS[type(op)] + "Assign")

    def subscript(self, node: ast.expr) -> list[py.SubscriptElement]:
        if isinstance(node, ast.Tuple):
            start, end = self.span(node)
            if not (self.text[start : start + 1] == "(" and self._wrapped_at(start, end)):
                return [self.subscript_element(x) for x in node.elts]
        return [self.subscript_element(node)]

    def subscript_element(self, node: ast.expr) -> py.SubscriptElement:
        if isinstance(node, ast.Slice):
            lower = self.expr(node.lower) if node.lower is not None else None
            upper = self.expr(node.upper) if node.upper is not None else None
            step = self.expr(node.step) if node.step is not None else None
            start, end = self.span(node)
            if self.text[end - 1] == ":":  # libcst counts the space after a last colon in
                end = self.fwd(end)
            made: Any = py.Slice(self.rng(start, end), None, lower, upper, step)
        else:
            value = self.expr(node)
            if isinstance(value, py.StarredElement):
                made = py.Index(value.range, None, value.value, "*")
            else:
                made = py.Index(value.outer or value.range, None, value, None)
        return py.SubscriptElement(made.range, None, made)

    def comprehension(self, generators: list[ast.comprehension]) -> py.CompFor:
        made: py.CompFor | None = None
        for generator in reversed(generators):
            target = self.expr(generator.target)
            iterable = self.expr(generator.iter)
            ifs = []
            for test in generator.ifs:
                value = self.expr(test)
                keyword = self.back(self.outer_start(value)) - 2
                ifs.append(py.CompIf(self.rng(self.back(keyword), self.outer_end(value)), None, value))
            keyword = self.back(self.outer_start(target)) - 3
            asynchronous = None
            if generator.is_async:
                keyword = self.back(keyword) - 5
                asynchronous = py.Asynchronous(self.rng(keyword, keyword + 5), None)
            last = ifs[-1].range[2:] if ifs else None
            end = self.starts[last[0] - 1] + last[1] if last else self.outer_end(iterable)
            if made is not None:
                end = self.starts[made.range[2] - 1] + made.range[3]
            made = py.CompFor(
                self.rng(self.back(keyword), end), None, target, iterable, ifs, made, asynchronous
            )
        assert made is not None
        return made

    def strings(self, start: int, end: int) -> Any:
        return strings(self, start, end)


_BUILDERS: dict[type, Callable[[ExpressionBuilder, Any, int, int], Any]] = {
    ast.Name: ExpressionBuilder._name,
    ast.Constant: ExpressionBuilder._constant,
    ast.JoinedStr: ExpressionBuilder._joined_str,
    ast.Attribute: ExpressionBuilder._attribute,
    ast.Call: ExpressionBuilder._call,
    ast.BinOp: ExpressionBuilder._binary,
    ast.BoolOp: ExpressionBuilder._boolean,
    ast.UnaryOp: ExpressionBuilder._unary,
    ast.Compare: ExpressionBuilder._compare,
    ast.IfExp: ExpressionBuilder._if_exp,
    ast.Lambda: ExpressionBuilder._lambda,
    ast.NamedExpr: ExpressionBuilder._named,
    ast.Subscript: ExpressionBuilder._subscript,
    ast.Starred: ExpressionBuilder._starred,
    ast.List: ExpressionBuilder._sequence,
    ast.Tuple: ExpressionBuilder._sequence,
    ast.Set: ExpressionBuilder._sequence,
    ast.Dict: ExpressionBuilder._dict,
    ast.ListComp: ExpressionBuilder._comprehension,
    ast.SetComp: ExpressionBuilder._comprehension,
    ast.GeneratorExp: ExpressionBuilder._comprehension,
    ast.DictComp: ExpressionBuilder._dict_comprehension,
    ast.Await: ExpressionBuilder._await,
    ast.Yield: ExpressionBuilder._yield,
    ast.YieldFrom: ExpressionBuilder._yield_from,
}
"""ast class -> the method that builds its node (`build`: one lookup, not a test per class)."""
