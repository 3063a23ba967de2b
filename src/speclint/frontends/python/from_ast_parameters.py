"""A function's or lambda's parameters for `from_ast_expressions` (its expressions built by
the subclass's `expr`), with libcst's ranges."""

from __future__ import annotations

from speclint.frontends.python import syntax as py
from speclint.frontends.python.from_ast_positions import SourcePositions

TYPE_CHECKING = False
if TYPE_CHECKING:
    import ast
    from typing import Any


class ParameterBuilder(SourcePositions):
    """Parameters; `expr` is `ExpressionBuilder`'s."""

    def expr(self, node: ast.expr, owned: int = -1) -> Any:
        raise NotImplementedError

    def parameters(self, args: ast.arguments, empty: int = 0) -> py.Parameters:
        """A function's or lambda's parameters; `empty`: where an empty list is placed."""
        defaults: list[ast.expr | None] = [None] * (
            len(args.posonlyargs) + len(args.args) - len(args.defaults)
        )
        defaults += args.defaults
        posonly = [self.param(a, d, "") for a, d in zip(args.posonlyargs, defaults)]
        params = [self.param(a, d, "") for a, d in zip(args.args, defaults[len(posonly) :])]
        kwonly = [self.param(a, d, "") for a, d in zip(args.kwonlyargs, args.kw_defaults)]
        star_arg: Any = None
        if args.vararg is not None:
            star_arg = self.param(args.vararg, None, "*")
        elif kwonly:
            star = self.back(self.back(self.starts[kwonly[0].range[0] - 1] + kwonly[0].range[1]) - 1) - 1
            star_arg = py.ParamStar(self.rng(star, self.outer_start(kwonly[0])), None)
        star_kwarg = self.param(args.kwarg, None, "**") if args.kwarg is not None else None
        every = [*posonly, *params, *([star_arg] if star_arg is not None else []), *kwonly]
        every += [star_kwarg] if star_kwarg is not None else []
        if every:
            last = every[-1]
            last_end = self.param_ends.get(id(last), self.outer_end(last))
            last_end = self.fwd(last_end)
            while self.text[last_end : last_end + 1] in (",", "/"):  # a trailing comma, `/`
                last_end = self.fwd(last_end + 1)
            where = self.rng(self.outer_start(every[0]), last_end)
        else:
            where = self.rng(empty, empty)
        return py.Parameters(where, None, params, star_arg, kwonly, star_kwarg, posonly)

    def param(self, node: ast.arg, default: ast.expr | None, star: str) -> py.Param:
        start, end = self.span(node)
        name = py.Name(self.rng(start, start + len(node.arg)), None, self.text[start : start + len(node.arg)])
        annotation = None
        if node.annotation is not None:
            value = self.expr(node.annotation)
            annotation = py.Annotation(value.outer or value.range, None, value)
        made_default = self.expr(default) if default is not None else None
        made = py.Param(
            self.rng(start - len(star), start + len(node.arg)), None, name, annotation, made_default, star
        )
        self.param_ends[id(made)] = self.outer_end(made_default) if made_default is not None else end
        return made
