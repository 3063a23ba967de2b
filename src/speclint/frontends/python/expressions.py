"""Expression nodes of the Python front-end's tree (`nodes`), named as libcst's."""

# ruff: noqa: F403, F405
from __future__ import annotations

from ast import literal_eval

from speclint.frontends.python.nodes import *

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any, Literal


class Asynchronous(Node):
    __slots__ = ()


class Annotation(Node):
    __slots__ = ("annotation",)
    annotation: BaseExpression


class Arg(Node):
    __slots__ = ("value", "keyword", "star")
    value: BaseExpression
    keyword: Name | None
    star: Literal["", "*", "**"]


class Attribute(BaseAssignTargetExpression, BaseDelTargetExpression):
    __slots__ = ("value", "attr")
    value: BaseExpression
    attr: Name


class Await(BaseExpression):
    __slots__ = ("expression",)
    expression: BaseExpression


class BinaryOperation(BaseExpression):
    __slots__ = ("left", "operator", "right")
    left: BaseExpression
    operator: BaseBinaryOp
    right: BaseExpression


class BooleanOperation(BaseExpression):
    __slots__ = ("left", "operator", "right")
    left: BaseExpression
    operator: BaseBooleanOp
    right: BaseExpression


class Call(BaseExpression):
    __slots__ = ("func", "args")
    func: BaseExpression
    args: Sequence[Arg]


class CompFor(Node):
    __slots__ = ("target", "iter", "ifs", "inner_for_in", "asynchronous")
    target: BaseAssignTargetExpression
    iter: BaseExpression
    ifs: Sequence[CompIf]
    inner_for_in: CompFor | None
    asynchronous: Asynchronous | None


class CompIf(Node):
    __slots__ = ("test",)
    test: BaseExpression


class Comparison(BaseExpression):
    __slots__ = ("left", "comparisons")
    left: BaseExpression
    comparisons: Sequence[ComparisonTarget]


class ComparisonTarget(Node):
    __slots__ = ("operator", "comparator")
    operator: BaseCompOp
    comparator: BaseExpression


class ConcatenatedString(BaseString):
    __slots__ = ("left", "right")
    left: SimpleString | FormattedString
    right: SimpleString | FormattedString | ConcatenatedString


class Dict(BaseDict):
    __slots__ = ("elements",)
    elements: Sequence[BaseDictElement]


class DictComp(BaseDict, BaseComp):
    __slots__ = ("key", "value", "for_in")
    key: BaseExpression
    value: BaseExpression
    for_in: CompFor


class DictElement(BaseDictElement):
    __slots__ = ("key", "value")
    key: BaseExpression
    value: BaseExpression


class Element(BaseElement):
    __slots__ = ("value",)
    value: BaseExpression


class Ellipsis(BaseExpression):
    __slots__ = ()


class Float(BaseNumber):
    __slots__ = ("value",)
    value: str

    @property
    def evaluated_value(self) -> float:
        value: float = literal_eval(self.value)
        return value


class FormattedString(BaseString):
    __slots__ = ("parts", "start", "end")
    parts: Sequence[BaseFormattedStringContent]
    start: str
    end: Literal['"', "'", '"""', "'''"]

    @property
    def prefix(self) -> str:
        """`f`, `rf`, ... lowercased, as libcst's."""
        return self.start.rstrip("'\"").lower()

    @property
    def quote(self) -> str:
        return self.end


class FormattedStringExpression(BaseFormattedStringContent):
    __slots__ = ("expression", "conversion", "format_spec")
    expression: BaseExpression
    conversion: str | None
    format_spec: Sequence[BaseFormattedStringContent] | None


class FormattedStringText(BaseFormattedStringContent):
    __slots__ = ("value",)
    value: str


class From(Node):
    __slots__ = ("item",)
    item: BaseExpression


class GeneratorExp(BaseSimpleComp):
    __slots__ = ("elt", "for_in")
    elt: BaseExpression
    for_in: CompFor


class IfExp(BaseExpression):
    __slots__ = ("test", "body", "orelse")
    test: BaseExpression
    body: BaseExpression
    orelse: BaseExpression


class Imaginary(BaseNumber):
    __slots__ = ("value",)
    value: str

    @property
    def evaluated_value(self) -> complex:
        value: complex = literal_eval(self.value)
        return value


class Index(BaseSlice):
    __slots__ = ("value", "star")
    value: BaseExpression
    star: Literal["*"] | None


class Integer(BaseNumber):
    __slots__ = ("value",)
    value: str

    @property
    def evaluated_value(self) -> int:
        value: int = literal_eval(self.value)
        return value


class Lambda(BaseExpression):
    __slots__ = ("params", "body")
    params: Parameters
    body: BaseExpression


class List(BaseList, BaseAssignTargetExpression, BaseDelTargetExpression):
    __slots__ = ("elements",)
    elements: Sequence[BaseElement]


class ListComp(BaseList, BaseSimpleComp):
    __slots__ = ("elt", "for_in")
    elt: BaseExpression
    for_in: CompFor


class Name(BaseAssignTargetExpression, BaseDelTargetExpression):
    __slots__ = ("value",)
    value: str


class Known(BaseExpression):
    """Not Python's: a value speclint already read, standing where the file hands it on
    (`Thread(target=subprocess.run, args=ARGS)`: `ARGS`'s elements as the call's arguments,
    `handed`); it evaluates to `known` (a `values.Val`: not imported here, which `values`
    imports)."""

    __slots__ = ("known",)
    known: Any


class NamedExpr(BaseExpression):
    __slots__ = ("target", "value")
    target: BaseExpression
    value: BaseExpression


class Param(Node):
    __slots__ = ("name", "annotation", "default", "star")
    name: Name
    annotation: Annotation | None
    default: BaseExpression | None
    star: str | None


class ParamSlash(Node):
    __slots__ = ()


class ParamStar(Node):
    __slots__ = ()


class Parameters(Node):
    __slots__ = ("params", "star_arg", "kwonly_params", "star_kwarg", "posonly_params")
    params: Sequence[Param]
    star_arg: Param | ParamStar | None
    kwonly_params: Sequence[Param]
    star_kwarg: Param | None
    posonly_params: Sequence[Param]


class Set(BaseSet):
    __slots__ = ("elements",)
    elements: Sequence[BaseElement]


class SetComp(BaseSet, BaseSimpleComp):
    __slots__ = ("elt", "for_in")
    elt: BaseExpression
    for_in: CompFor


def string_parts(value: str) -> tuple[str, str]:
    """A string literal's prefix, lowercased, and its quotes, as written in `value`
    (`SimpleString`'s `prefix` and `quote`, both at once)."""
    first = value[:1]
    if (first == '"' or first == "'") and value[1:3] != first * 2:  # no prefix, one quote (most)
        return "", first
    size = len(value) - len(value.lstrip("rRbBuU"))
    body = value[size:]
    triple = len(body) >= 6 and body[:3] in ("'''", '"""') and body.endswith(body[:3])
    return value[:size].lower(), body[:3] if triple else body[:1]


class SimpleString(BaseString):
    __slots__ = ("value",)
    value: str

    @property
    def prefix(self) -> str:
        """The prefix before the quote, lowercased (`r`, `b`, `rb`, ...), as libcst's."""
        return string_parts(self.value)[0]

    @property
    def quote(self) -> str:
        """The quotes: one or three of the same, as libcst's."""
        return string_parts(self.value)[1]

    @property
    def evaluated_value(self) -> str | bytes:
        """What Python reads from the literal (`ast.literal_eval`, as libcst's)."""
        value: str | bytes = literal_eval(self.value)
        return value


class Slice(BaseSlice):
    __slots__ = ("lower", "upper", "step")
    lower: BaseExpression | None
    upper: BaseExpression | None
    step: BaseExpression | None


class StarredDictComp(BaseDict, BaseComp):
    __slots__ = ("value", "for_in")
    value: BaseExpression
    for_in: CompFor


class StarredDictElement(BaseDictElement):
    __slots__ = ("value",)
    value: BaseExpression


class StarredElement(BaseElement, BaseExpression):
    __slots__ = ("value",)
    value: BaseExpression


class Subscript(BaseAssignTargetExpression, BaseDelTargetExpression):
    __slots__ = ("value", "slice")
    value: BaseExpression
    slice: Sequence[SubscriptElement]


class SubscriptElement(Node):
    __slots__ = ("slice",)
    slice: BaseSlice


class TemplatedString(BaseString):
    __slots__ = ("parts", "start", "end")
    parts: Sequence[BaseTemplatedStringContent]
    start: str
    end: Literal['"', "'", '"""', "'''"]


class TemplatedStringExpression(BaseTemplatedStringContent):
    __slots__ = ("expression", "conversion", "format_spec")
    expression: BaseExpression
    conversion: str | None
    format_spec: Sequence[BaseTemplatedStringContent] | None


class TemplatedStringText(BaseTemplatedStringContent):
    __slots__ = ("value",)
    value: str


class Tuple(BaseAssignTargetExpression, BaseDelTargetExpression):
    __slots__ = ("elements",)
    elements: Sequence[BaseElement]


class UnaryOperation(BaseExpression):
    __slots__ = ("operator", "expression")
    operator: BaseUnaryOp
    expression: BaseExpression


class Yield(BaseExpression):
    __slots__ = ("value",)
    value: BaseExpression | From | None
