"""The Python front-end's syntax tree: the node classes, their bases and the operators.

The front-end reads Python files through this tree, built from CPython's `ast` (`from_ast`:
a C parser, ~10x faster than libcst's tree and positions) or, for syntax the running Python
cannot parse, from libcst's (`from_cst`, the fallback and the reference the tests compare
with). Classes and fields are named as libcst's (only the code: no whitespace, no
punctuation), so the walker reads either the same way. Every node carries its `range`:
(line, column, end line, end column) as libcst's PositionProvider gives it (lines from 1,
columns in characters from 0, the node's own parentheses excluded), and `outer`, the same
with its own parentheses (None when it has none): the text `_source` quotes.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import FunctionType
from typing import Any, ClassVar

Range = tuple[int, int, int, int]
"""(start line, start column, end line, end column) of a node."""


class Node:
    """A node: its fields (`FIELDS`, in libcst's order), its range and its parenthesized range."""

    __slots__ = ("range", "outer")
    FIELDS: ClassVar[tuple[str, ...]] = ()
    range: Range
    outer: Range | None

    def __init__(self, *values: Any) -> None:  # replaced per class (`__init_subclass__`)
        raise TypeError(f"{type(self).__name__} is abstract")

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        names = tuple(name for kind in reversed(cls.__mro__) for name in kind.__dict__.get("__slots__", ()))
        cls.FIELDS = tuple(name for name in names if name not in ("range", "outer"))
        if "__slots__" in cls.__dict__ and cls.__dict__["__slots__"] or not cls.__name__.startswith("Base"):
            cls.__init__ = _initializer(cls.FIELDS)  # type: ignore[method-assign]

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.FIELDS)
        return f"{type(self).__name__}({fields})@{self.range}"


_TEMPLATES: dict[int, Any] = {}


def _initializer(fields: tuple[str, ...]) -> Any:
    """`__init__(self, range, outer, *fields)` setting each slot: one template compiled per
    number of fields, its attribute names replaced (a compile per class cost the import
    a tenth of a cold run)."""
    template = _TEMPLATES.get(len(fields))
    if template is None:
        names = [f"f{index}" for index in range(len(fields))]
        lines = [f"def __init__(self, range, outer{''.join(', a' + name for name in names)}):"]
        lines += ["    self.range = range", "    self.outer = outer"]
        lines += [f"    self.{name} = a{name}" for name in names]
        scope: dict[str, Any] = {}
        exec("\n".join(lines), scope)
        template = _TEMPLATES[len(fields)] = scope["__init__"]
    code = template.__code__
    assert code.co_names == ("range", "outer", *(f"f{index}" for index in range(len(fields))))
    return FunctionType(code.replace(co_names=("range", "outer", *fields)), template.__globals__, "__init__")


class Operator:
    """An operator (libcst's operator nodes; here with no range: `TEXT` is how it is written)."""

    __slots__ = ()
    TEXT: ClassVar[str] = ""


class BaseBinaryOp(Operator):
    __slots__ = ()


class Add(BaseBinaryOp):
    __slots__ = ()
    TEXT = "+"


class BaseAugOp(Operator):
    __slots__ = ()


class AddAssign(BaseAugOp):
    __slots__ = ()
    TEXT = "+="


class BaseBooleanOp(Operator):
    __slots__ = ()


class And(BaseBooleanOp):
    __slots__ = ()
    TEXT = "and"


class BaseSmallStatement(Node):
    __slots__ = ()


class BaseExpression(Node):
    __slots__ = ()


class BaseAssignTargetExpression(BaseExpression):
    __slots__ = ()


class BaseDelTargetExpression(BaseExpression):
    __slots__ = ()


class BaseComp(BaseExpression):
    __slots__ = ()


class BaseCompOp(Operator):
    __slots__ = ()


class BaseStatement(Node):
    __slots__ = ()


class BaseCompoundStatement(BaseStatement):
    __slots__ = ()


class BaseDict(BaseExpression):
    __slots__ = ()


class BaseDictElement(Node):
    __slots__ = ()


class BaseElement(Node):
    __slots__ = ()
    value: BaseExpression


class BaseFormattedStringContent(Node):
    __slots__ = ()


class BaseList(BaseExpression):
    __slots__ = ()


class BaseNumber(BaseExpression):
    __slots__ = ()


class BaseSet(BaseExpression):
    __slots__ = ()


class BaseSimpleComp(BaseComp):
    __slots__ = ()


class BaseSlice(Node):
    __slots__ = ()


class BaseString(BaseExpression):
    __slots__ = ()


class BaseSuite(Node):
    __slots__ = ()
    body: Sequence[Any]


class BaseTemplatedStringContent(Node):
    __slots__ = ()


class BaseUnaryOp(Operator):
    __slots__ = ()


class BitAnd(BaseBinaryOp):
    __slots__ = ()
    TEXT = "&"


class BitAndAssign(BaseAugOp):
    __slots__ = ()
    TEXT = "&="


class BitInvert(BaseUnaryOp):
    __slots__ = ()
    TEXT = "~"


class BitOr(BaseBinaryOp):
    __slots__ = ()
    TEXT = "|"


class BitOrAssign(BaseAugOp):
    __slots__ = ()
    TEXT = "|="


class BitXor(BaseBinaryOp):
    __slots__ = ()
    TEXT = "^"


class BitXorAssign(BaseAugOp):
    __slots__ = ()
    TEXT = "^="


class Divide(BaseBinaryOp):
    __slots__ = ()
    TEXT = "/"


class DivideAssign(BaseAugOp):
    __slots__ = ()
    TEXT = "/="


class Equal(BaseCompOp):
    __slots__ = ()
    TEXT = "=="


class FloorDivide(BaseBinaryOp):
    __slots__ = ()
    TEXT = "//"


class FloorDivideAssign(BaseAugOp):
    __slots__ = ()
    TEXT = "//="


class GreaterThan(BaseCompOp):
    __slots__ = ()
    TEXT = ">"


class GreaterThanEqual(BaseCompOp):
    __slots__ = ()
    TEXT = ">="


class BaseLeaf(Node):
    __slots__ = ()


class In(BaseCompOp):
    __slots__ = ()
    TEXT = "in"


class Is(BaseCompOp):
    __slots__ = ()
    TEXT = "is"


class IsNot(BaseCompOp):
    __slots__ = ()
    TEXT = "is not"


class LeftShift(BaseBinaryOp):
    __slots__ = ()
    TEXT = "<<"


class LeftShiftAssign(BaseAugOp):
    __slots__ = ()
    TEXT = "<<="


class LessThan(BaseCompOp):
    __slots__ = ()
    TEXT = "<"


class LessThanEqual(BaseCompOp):
    __slots__ = ()
    TEXT = "<="


class MatrixMultiply(BaseBinaryOp):
    __slots__ = ()
    TEXT = "@"


class MatrixMultiplyAssign(BaseAugOp):
    __slots__ = ()
    TEXT = "@="


class Minus(BaseUnaryOp):
    __slots__ = ()
    TEXT = "-"


class Modulo(BaseBinaryOp):
    __slots__ = ()
    TEXT = "%"


class ModuloAssign(BaseAugOp):
    __slots__ = ()
    TEXT = "%="


class Multiply(BaseBinaryOp):
    __slots__ = ()
    TEXT = "*"


class MultiplyAssign(BaseAugOp):
    __slots__ = ()
    TEXT = "*="


class Not(BaseUnaryOp):
    __slots__ = ()
    TEXT = "not"


class NotEqual(BaseCompOp):
    __slots__ = ()
    TEXT = "!="


class NotIn(BaseCompOp):
    __slots__ = ()
    TEXT = "not in"


class Or(BaseBooleanOp):
    __slots__ = ()
    TEXT = "or"


class Plus(BaseUnaryOp):
    __slots__ = ()
    TEXT = "+"


class Power(BaseBinaryOp):
    __slots__ = ()
    TEXT = "**"


class PowerAssign(BaseAugOp):
    __slots__ = ()
    TEXT = "**="


class RightShift(BaseBinaryOp):
    __slots__ = ()
    TEXT = ">>"


class RightShiftAssign(BaseAugOp):
    __slots__ = ()
    TEXT = ">>="


class Subtract(BaseBinaryOp):
    __slots__ = ()
    TEXT = "-"


class SubtractAssign(BaseAugOp):
    __slots__ = ()
    TEXT = "-="
