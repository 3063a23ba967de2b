"""CPython's `ast` tree -> the front-end's tree (`syntax`), with libcst's ranges.

`ast.parse` is C: a fraction of libcst's parse and positions, and no ~150 ms import. Its
positions differ from libcst's in ways fixed here: columns count UTF-8 bytes (made
characters), a parenthesized tuple or generator includes its parentheses (libcst's range
does not: the parentheses are counted as the node's `outer`), implicit concatenation is one
constant (split into libcst's right-nested ConcatenatedString by a string scanner), an
f-string's parts have no exact positions on 3.11 (split by `fstrings`, each field's
expression parsed on its own and shifted). tests/test_python_syntax_parity.py compares the
result with libcst's (`from_cst`) node by node.
"""

from __future__ import annotations

import ast
from typing import cast

from speclint.core import patterns
from speclint.frontends.python import syntax as py
from speclint.frontends.python.from_ast_expressions import AST_RANGE, ExpressionBuilder
from speclint.frontends.python.from_ast_patterns import match_statement
from speclint.frontends.python.nodes import Node

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

_SIMPLE = (
    ast.Expr,
    ast.Assign,
    ast.AnnAssign,
    ast.AugAssign,
    ast.Return,
    ast.Raise,
    ast.Assert,
    ast.Delete,
    ast.Pass,
    ast.Break,
    ast.Continue,
    ast.Global,
    ast.Nonlocal,
    ast.Import,
    ast.ImportFrom,
)
_IDENT = patterns.compile(r"\w+")
_TRY_STAR: tuple[type, ...] = tuple(getattr(ast, name) for name in ("TryStar",) if hasattr(ast, name))
"""`try: ... except* E:` (Python 3.11)."""


def build(source: str, tree: ast.Module, starts: list[int] | None = None) -> py.Module:
    """The front-end's tree of `source`, which `ast.parse` read as `tree` (`starts`: its
    line starts, where the caller has them)."""
    return StatementBuilder(source, starts).module(tree)


class StatementBuilder(ExpressionBuilder):
    """Statements: grouped in lines and blocks as libcst does."""

    def module(self, tree: ast.Module) -> py.Module:
        body = self.statements(tree.body)
        return py.Module(self.rng(0, len(self.text)), None, body)

    def statements(self, nodes: Sequence[ast.stmt]) -> list[Any]:
        out: list[Any] = []
        line: list[Any] = []
        previous_end = -1
        text, starts, direct = self.text, self.starts, self.ascii and self.local is None
        for node in nodes:
            if isinstance(node, _SIMPLE):
                if direct:  # (`span` without its call: ast's columns are the text's)
                    where = AST_RANGE(node)
                    start, end = starts[where[0] - 1] + where[1], starts[where[2] - 1] + where[3]
                else:
                    start, end = self.span(node)
                small = self.small(node, start, end)
                if line and text[(after := self.fwd(previous_end)) : after + 1] == ";":
                    line.append(small)
                else:
                    if line:
                        out.append(self._line(line))
                    line = [small]
                previous_end = end
                continue
            if line:
                out.append(self._line(line))
                line = []
            out.append(self.compound(node))
        if line:
            out.append(self._line(line))
        return out

    def _line(self, smalls: list[Any]) -> py.SimpleStatementLine:
        return py.SimpleStatementLine(smalls[0].range[:2] + smalls[-1].range[2:], None, smalls)

    def suite(self, nodes: Sequence[ast.stmt]) -> py.BaseSuite:
        first = self.span(nodes[0])[0]
        before = first
        while before > 0 and self.text[before - 1] in " \t\f":
            before -= 1
        inline = before > 0 and self.text[before - 1] == ":" or self.text[before - 1 : before] == ";"
        statements = self.statements(nodes)
        where = statements[0].range[:2] + statements[-1].range[2:]
        if inline and all(isinstance(s, py.SimpleStatementLine) for s in statements):
            return py.SimpleStatementSuite(where, None, [x for s in statements for x in s.body])
        return py.IndentedBlock(where, None, statements)

    def first(self, node: ast.stmt) -> int:
        """Where a statement starts, its decorators included."""
        start = self.span(node)[0]
        for decorator in getattr(node, "decorator_list", ()):
            start = min(start, self.back(self.span(decorator)[0]) - 1)
        return start

    def clause(self, kind: type, keyword: str, nodes: Sequence[ast.stmt]) -> Any:
        """`else:` / `finally:` and its block, the range from the keyword."""
        body = self.suite(nodes)
        colon = self.back(self.first(nodes[0]))  # after the `:`
        start = self.back(colon - 1) - len(keyword)
        return kind(self.rng(start, self.end_of(body)), None, body)

    def end_of(self, node: Node) -> int:
        line, column = node.range[2:]
        return self.starts[line - 1] + column

    def offset(self, where: tuple[int, ...]) -> int:
        return self.starts[where[0] - 1] + where[1]

    def name_after(self, at: int) -> py.Name:
        start = self.fwd(at)
        match = _IDENT.match(self.text, start)
        end = match.end() if match else start
        return py.Name(self.rng(start, end), None, self.text[start:end])

    def dotted(self, start: int, end: int) -> Any:
        """`a.b.c` written between start and end (spaces allowed around the dots)."""
        node: Any = None
        for match in _IDENT.finditer(self.text, start, end):
            name = py.Name(self.rng(match.start(), match.end()), None, match.group())
            if node is None:
                node = name
            else:
                node = py.Attribute(self.rng(self.offset(node.range), match.end()), None, node, name)
        return node

    def alias(self, node: ast.alias) -> py.ImportAlias:
        start, end = self.span(node)
        if node.asname is None:
            return py.ImportAlias(self.rng(start, end), None, self.dotted(start, end), None)
        name_end = start
        for match in _IDENT.finditer(self.text, start, end):
            if match.group() == "as":
                break
            name_end = match.end()
        name = self.dotted(start, name_end)
        target = py.Name(self.rng(end - len(node.asname), end), None, self.text[end - len(node.asname) : end])
        asname = py.AsName(self.rng(name_end, end), None, target)
        return py.ImportAlias(self.rng(start, end), None, name, asname)

    def small(self, node: ast.stmt, start: int, end: int) -> Any:
        where = AST_RANGE(node) if self.ascii and self.local is None else self.rng(start, end)  # (`expr`)
        e = self.expr
        if isinstance(node, ast.Expr):
            return py.Expr(where, None, e(node.value))
        if isinstance(node, ast.Assign):
            targets = [e(t) for t in node.targets]
            return py.Assign(
                where, None, [py.AssignTarget(t.outer or t.range, None, t) for t in targets], e(node.value)
            )
        if isinstance(node, ast.AnnAssign):
            annotation = e(node.annotation)
            value = e(node.value) if node.value is not None else None
            return py.AnnAssign(
                where,
                None,
                e(node.target),
                py.Annotation(annotation.outer or annotation.range, None, annotation),
                value,
            )
        if isinstance(node, ast.AugAssign):
            return py.AugAssign(where, None, e(node.target), self.augop(node.op), e(node.value))
        if isinstance(node, ast.Return):
            return py.Return(where, None, e(node.value) if node.value is not None else None)
        if isinstance(node, ast.Raise):
            exc = e(node.exc) if node.exc is not None else None
            cause = e(node.cause) if node.cause is not None else None
            if cause is not None:
                keyword = self.back(self.offset(cause.outer or cause.range)) - 4
                cause = py.From(self.rng(keyword, self.end_of_outer(cause)), None, cause)
            return py.Raise(where, None, exc, cause)
        if isinstance(node, ast.Assert):
            return py.Assert(where, None, e(node.test), e(node.msg) if node.msg is not None else None)
        if isinstance(node, ast.Delete):
            targets = [e(t) for t in node.targets]
            if len(targets) == 1:
                return py.Del(where, None, targets[0])
            items = [py.Element(t.outer or t.range, None, t) for t in targets]
            return py.Del(where, None, py.Tuple(items[0].range[:2] + items[-1].range[2:], None, items))
        if isinstance(node, (ast.Pass, ast.Break, ast.Continue)):
            return getattr(py, type(node).__name__)(where, None)
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            names = [m for m in _IDENT.finditer(self.text, start, end)][1:]
            named = [
                py.NameItem(
                    self.rng(m.start(), m.end()), None, py.Name(self.rng(m.start(), m.end()), None, m.group())
                )
                for m in names
            ]
            return getattr(py, type(node).__name__)(where, None, named)
        if isinstance(node, ast.Import):
            return py.Import(where, None, [self.alias(a) for a in node.names])
        assert isinstance(node, ast.ImportFrom)
        at = self.fwd(start + 4)
        while self.text[at] == ".":
            at = self.fwd(at + 1)
        module = None
        if node.module is not None:
            keyword = at
            for match in _IDENT.finditer(self.text, at, end):
                if match.group() == "import" and match.start() > at:
                    keyword = match.start()
                    break
            module = self.dotted(at, keyword)
        if len(node.names) == 1 and node.names[0].name == "*":
            star_end = end
            return py.ImportFrom(where, None, module, py.ImportStar(self.rng(star_end - 1, star_end), None))
        return py.ImportFrom(where, None, module, [self.alias(a) for a in node.names])

    def compound(self, node: ast.stmt) -> Any:
        start, end = self.span(node)
        e = self.expr
        if isinstance(node, ast.If):
            return self.if_(node, start, end)
        if isinstance(node, (ast.For, ast.AsyncFor)):
            asynchronous = self.asynchronous(node, start)
            orelse = self.clause(py.Else, "else", node.orelse) if node.orelse else None
            return py.For(
                self.rng(start, end),
                None,
                e(node.target),
                e(node.iter),
                self.suite(node.body),
                orelse,
                asynchronous,
            )
        if isinstance(node, ast.While):
            orelse = self.clause(py.Else, "else", node.orelse) if node.orelse else None
            return py.While(self.rng(start, end), None, e(node.test), self.suite(node.body), orelse)
        if isinstance(node, (ast.Try, *_TRY_STAR)):
            star = not isinstance(node, ast.Try)
            node = cast("ast.Try", node)  # ast.TryStar: the same fields
            handlers = [self.handler(h, star) for h in node.handlers]
            orelse = self.clause(py.Else, "else", node.orelse) if node.orelse else None
            final = self.clause(py.Finally, "finally", node.finalbody) if node.finalbody else None
            kind = py.TryStar if star else py.Try
            return kind(self.rng(start, end), None, self.suite(node.body), handlers, orelse, final)
        if isinstance(node, (ast.With, ast.AsyncWith)):
            asynchronous = self.asynchronous(node, start)
            paren = self.fwd(self.fwd(start + 5) + 4 if asynchronous is not None else start + 4)
            colon = self.back(self.first(node.body[0]))
            close = self.back(colon - 1) - 1
            owned = paren if self.text[paren] == "(" and self.matching_close(paren) == close else -1
            items = [self.with_item(item, owned) for item in node.items]
            return py.With(self.rng(start, end), None, items, self.suite(node.body), asynchronous)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            asynchronous = self.asynchronous(node, start)
            keyword = self.fwd(start + 5) if asynchronous is not None else start
            name = self.name_after(keyword + 3)
            params = self.parameters(node.args, self.fwd(self.fwd(self.end_of(name)) + 1))
            returns = None
            if node.returns is not None:
                annotation = e(node.returns)
                returns = py.Annotation(annotation.outer or annotation.range, None, annotation)
            decorators = [self.decorator(d) for d in node.decorator_list]
            return py.FunctionDef(
                self.rng(start, end),
                None,
                name,
                params,
                self.suite(node.body),
                decorators,
                returns,
                asynchronous,
                None,
            )
        if isinstance(node, ast.ClassDef):
            name = self.name_after(start + 5)
            paren = self.fwd(self.end_of(name))
            bases = [self.arg(b, paren) for b in node.bases]
            keywords = [self.keyword(k, paren) for k in node.keywords]
            decorators = [self.decorator(d) for d in node.decorator_list]
            return py.ClassDef(
                self.rng(start, end), None, name, self.suite(node.body), bases, keywords, decorators, None
            )
        if isinstance(node, ast.Match):
            return match_statement(self, node, start, end)
        raise TypeError(f"no conversion of ast's {type(node).__name__}")

    def if_(self, node: ast.If, start: int, end: int) -> py.If:
        orelse: Any = None
        if node.orelse:
            first = node.orelse[0]
            if (
                len(node.orelse) == 1
                and isinstance(first, ast.If)
                and self.text.startswith("elif", self.span(first)[0])
            ):
                first_start, first_end = self.span(first)
                orelse = self.if_(first, first_start, first_end)
            else:
                orelse = self.clause(py.Else, "else", node.orelse)
        return py.If(self.rng(start, end), None, self.expr(node.test), self.suite(node.body), orelse)

    def asynchronous(self, node: ast.stmt, start: int) -> py.Asynchronous | None:
        if not isinstance(node, (ast.AsyncFor, ast.AsyncWith, ast.AsyncFunctionDef)):
            return None
        return py.Asynchronous(self.rng(start, start + 5), None)

    def handler(self, node: ast.ExceptHandler, star: bool) -> Any:
        start, end = self.span(node)
        kind_ = self.expr(node.type) if node.type is not None else None
        name = None
        if node.name is not None and kind_ is not None:
            after = self.end_of_outer(kind_)
            keyword = self.fwd(after)
            target = self.name_after(keyword + 2)
            name = py.AsName(self.rng(after, self.end_of(target)), None, target)
        kind = py.ExceptStarHandler if star else py.ExceptHandler
        return kind(self.rng(start, end), None, self.suite(node.body), kind_, name)

    def end_of_outer(self, node: Node) -> int:
        where = node.outer or node.range
        return self.starts[where[2] - 1] + where[3]

    def with_item(self, item: ast.withitem, owned: int) -> py.WithItem:
        value = self.expr(item.context_expr, owned)
        start = self.offset(value.outer or value.range)
        if item.optional_vars is None:
            return py.WithItem(value.outer or value.range, None, value, None)
        target = self.expr(item.optional_vars)
        after = self.end_of_outer(value)
        asname = py.AsName(self.rng(after, self.end_of_outer(target)), None, target)
        return py.WithItem(self.rng(start, self.end_of_outer(target)), None, value, asname)

    def decorator(self, node: ast.expr) -> py.Decorator:
        value = self.expr(node)
        at = self.back(self.offset(value.outer or value.range)) - 1
        return py.Decorator(self.rng(at, self.end_of_outer(value)), None, value)
