"""Statement nodes of the Python front-end's tree (`nodes`), named as libcst's."""

# ruff: noqa: F403, F405
from __future__ import annotations

from speclint.frontends.python.nodes import *

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Literal

    from speclint.frontends.python.expressions import *  # noqa: F403


class AnnAssign(BaseSmallStatement):
    __slots__ = ("target", "annotation", "value")
    target: BaseAssignTargetExpression
    annotation: Annotation
    value: BaseExpression | None


class AsName(Node):
    __slots__ = ("name",)
    name: Name | Tuple | List


class Assert(BaseSmallStatement):
    __slots__ = ("test", "msg")
    test: BaseExpression
    msg: BaseExpression | None


class Assign(BaseSmallStatement):
    __slots__ = ("targets", "value")
    targets: Sequence[AssignTarget]
    value: BaseExpression


class AssignTarget(Node):
    __slots__ = ("target",)
    target: BaseAssignTargetExpression


class AugAssign(BaseSmallStatement):
    __slots__ = ("target", "operator", "value")
    target: BaseAssignTargetExpression
    operator: BaseAugOp
    value: BaseExpression


class Break(BaseSmallStatement):
    __slots__ = ()


class ClassDef(BaseCompoundStatement):
    __slots__ = ("name", "body", "bases", "keywords", "decorators", "type_parameters")
    name: Name
    body: BaseSuite
    bases: Sequence[Arg]
    keywords: Sequence[Arg]
    decorators: Sequence[Decorator]
    type_parameters: TypeParameters | None


class Continue(BaseSmallStatement):
    __slots__ = ()


class Decorator(Node):
    __slots__ = ("decorator",)
    decorator: BaseExpression


class Del(BaseSmallStatement):
    __slots__ = ("target",)
    target: BaseDelTargetExpression


class Else(Node):
    __slots__ = ("body",)
    body: BaseSuite


class ExceptHandler(Node):
    __slots__ = ("body", "type", "name")
    body: BaseSuite
    type: BaseExpression | None
    name: AsName | None


class ExceptStarHandler(Node):
    __slots__ = ("body", "type", "name")
    body: BaseSuite
    type: BaseExpression
    name: AsName | None


class Expr(BaseSmallStatement):
    __slots__ = ("value",)
    value: BaseExpression


class Finally(Node):
    __slots__ = ("body",)
    body: BaseSuite


class For(BaseCompoundStatement):
    __slots__ = ("target", "iter", "body", "orelse", "asynchronous")
    target: BaseAssignTargetExpression
    iter: BaseExpression
    body: BaseSuite
    orelse: Else | None
    asynchronous: Asynchronous | None


class FunctionDef(BaseCompoundStatement):
    __slots__ = ("name", "params", "body", "decorators", "returns", "asynchronous", "type_parameters")
    name: Name
    params: Parameters
    body: BaseSuite
    decorators: Sequence[Decorator]
    returns: Annotation | None
    asynchronous: Asynchronous | None
    type_parameters: TypeParameters | None


class Global(BaseSmallStatement):
    __slots__ = ("names",)
    names: Sequence[NameItem]


class If(BaseCompoundStatement):
    __slots__ = ("test", "body", "orelse")
    test: BaseExpression
    body: BaseSuite
    orelse: If | Else | None


class Import(BaseSmallStatement):
    __slots__ = ("names",)
    names: Sequence[ImportAlias]


class ImportAlias(Node):
    __slots__ = ("name", "asname")
    name: Attribute | Name
    asname: AsName | None


class ImportFrom(BaseSmallStatement):
    __slots__ = ("module", "names")
    module: Attribute | Name | None
    names: Sequence[ImportAlias] | ImportStar


class ImportStar(Node):
    __slots__ = ()


class IndentedBlock(BaseSuite):
    __slots__ = ("body",)
    body: Sequence[BaseStatement]


class LazyImport(BaseSmallStatement):
    __slots__ = ("names",)
    names: Sequence[ImportAlias]


class LazyImportFrom(BaseSmallStatement):
    __slots__ = ("module", "names")
    module: Attribute | Name | None
    names: Sequence[ImportAlias] | ImportStar


class Match(BaseCompoundStatement):
    __slots__ = ("subject", "cases")
    subject: BaseExpression
    cases: Sequence[MatchCase]


class MatchPattern(Node):
    __slots__ = ()


class MatchAs(MatchPattern):
    __slots__ = ("pattern", "name")
    pattern: MatchPattern | None
    name: Name | None


class MatchCase(Node):
    __slots__ = ("pattern", "body", "guard")
    pattern: MatchPattern
    body: BaseSuite
    guard: BaseExpression | None


class MatchClass(MatchPattern):
    __slots__ = ("cls", "patterns", "kwds")
    cls: BaseExpression
    patterns: Sequence[MatchSequenceElement]
    kwds: Sequence[MatchKeywordElement]


class MatchKeywordElement(Node):
    __slots__ = ("key", "pattern")
    key: Name
    pattern: MatchPattern


class MatchSequence(MatchPattern):
    __slots__ = ()


class MatchList(MatchSequence):
    __slots__ = ("patterns",)
    patterns: Sequence[MatchSequenceElement | MatchStar]


class MatchMapping(MatchPattern):
    __slots__ = ("elements", "rest")
    elements: Sequence[MatchMappingElement]
    rest: Name | None


class MatchMappingElement(Node):
    __slots__ = ("key", "pattern")
    key: BaseExpression
    pattern: MatchPattern


class MatchOr(MatchPattern):
    __slots__ = ("patterns",)
    patterns: Sequence[MatchOrElement]


class MatchOrElement(Node):
    __slots__ = ("pattern",)
    pattern: MatchPattern


class MatchSequenceElement(Node):
    __slots__ = ("value",)
    value: MatchPattern


class MatchSingleton(MatchPattern):
    __slots__ = ("value",)
    value: Name


class MatchStar(Node):
    __slots__ = ("name",)
    name: Name | None


class MatchTuple(MatchSequence):
    __slots__ = ("patterns",)
    patterns: Sequence[MatchSequenceElement | MatchStar]


class MatchValue(MatchPattern):
    __slots__ = ("value",)
    value: BaseExpression


class Module(Node):
    __slots__ = ("body",)
    body: Sequence[SimpleStatementLine | BaseCompoundStatement]


class NameItem(Node):
    __slots__ = ("name",)
    name: Name


class Nonlocal(BaseSmallStatement):
    __slots__ = ("names",)
    names: Sequence[NameItem]


class ParamSpec(Node):
    __slots__ = ("name",)
    name: Name


class Pass(BaseSmallStatement):
    __slots__ = ()


class Raise(BaseSmallStatement):
    __slots__ = ("exc", "cause")
    exc: BaseExpression | None
    cause: From | None


class Return(BaseSmallStatement):
    __slots__ = ("value",)
    value: BaseExpression | None


class SimpleStatementLine(BaseStatement):
    __slots__ = ("body",)
    body: Sequence[BaseSmallStatement]


class SimpleStatementSuite(BaseSuite):
    __slots__ = ("body",)
    body: Sequence[BaseSmallStatement]


class Try(BaseCompoundStatement):
    __slots__ = ("body", "handlers", "orelse", "finalbody")
    body: BaseSuite
    handlers: Sequence[ExceptHandler]
    orelse: Else | None
    finalbody: Finally | None


class TryStar(BaseCompoundStatement):
    __slots__ = ("body", "handlers", "orelse", "finalbody")
    body: BaseSuite
    handlers: Sequence[ExceptStarHandler]
    orelse: Else | None
    finalbody: Finally | None


class TypeAlias(BaseSmallStatement):
    __slots__ = ("name", "value", "type_parameters")
    name: Name
    value: BaseExpression
    type_parameters: TypeParameters | None


class TypeParam(Node):
    __slots__ = ("param", "star", "default")
    param: TypeVar | TypeVarTuple | ParamSpec
    star: Literal["", "*"]
    default: BaseExpression | None


class TypeParameters(Node):
    __slots__ = ("params",)
    params: Sequence[TypeParam]


class TypeVar(Node):
    __slots__ = ("name", "bound")
    name: Name
    bound: BaseExpression | None


class TypeVarTuple(Node):
    __slots__ = ("name",)
    name: Name


class While(BaseCompoundStatement):
    __slots__ = ("test", "body", "orelse")
    test: BaseExpression
    body: BaseSuite
    orelse: Else | None


class With(BaseCompoundStatement):
    __slots__ = ("items", "body", "asynchronous")
    items: Sequence[WithItem]
    body: BaseSuite
    asynchronous: Asynchronous | None


class WithItem(Node):
    __slots__ = ("item", "asname")
    item: BaseExpression
    asname: AsName | None
