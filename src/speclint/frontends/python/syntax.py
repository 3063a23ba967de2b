"""The Python front-end's syntax tree in one namespace (`nodes`, `expressions`, `statements`):
the front-end imports it as `py` and reads `py.Call`, `py.Name`, ... as it read libcst's."""

from __future__ import annotations

from speclint.frontends.python.expressions import (
    Annotation as Annotation,
)
from speclint.frontends.python.expressions import (
    Arg as Arg,
)
from speclint.frontends.python.expressions import (
    Attribute as Attribute,
)
from speclint.frontends.python.expressions import (
    Await as Await,
)
from speclint.frontends.python.expressions import (
    BinaryOperation as BinaryOperation,
)
from speclint.frontends.python.expressions import (
    BooleanOperation as BooleanOperation,
)
from speclint.frontends.python.expressions import (
    Call as Call,
)
from speclint.frontends.python.expressions import (
    Comparison as Comparison,
)
from speclint.frontends.python.expressions import (
    ComparisonTarget as ComparisonTarget,
)
from speclint.frontends.python.expressions import (
    CompFor as CompFor,
)
from speclint.frontends.python.expressions import (
    CompIf as CompIf,
)
from speclint.frontends.python.expressions import (
    ConcatenatedString as ConcatenatedString,
)
from speclint.frontends.python.expressions import (
    Dict as Dict,
)
from speclint.frontends.python.expressions import (
    DictComp as DictComp,
)
from speclint.frontends.python.expressions import (
    DictElement as DictElement,
)
from speclint.frontends.python.expressions import (
    Element as Element,
)
from speclint.frontends.python.expressions import (
    Ellipsis as Ellipsis,
)
from speclint.frontends.python.expressions import (
    Float as Float,
)
from speclint.frontends.python.expressions import (
    FormattedString as FormattedString,
)
from speclint.frontends.python.expressions import (
    FormattedStringExpression as FormattedStringExpression,
)
from speclint.frontends.python.expressions import (
    FormattedStringText as FormattedStringText,
)
from speclint.frontends.python.expressions import (
    From as From,
)
from speclint.frontends.python.expressions import (
    GeneratorExp as GeneratorExp,
)
from speclint.frontends.python.expressions import (
    IfExp as IfExp,
)
from speclint.frontends.python.expressions import (
    Imaginary as Imaginary,
)
from speclint.frontends.python.expressions import (
    Index as Index,
)
from speclint.frontends.python.expressions import (
    Integer as Integer,
)
from speclint.frontends.python.expressions import (
    Lambda as Lambda,
)
from speclint.frontends.python.expressions import (
    List as List,
)
from speclint.frontends.python.expressions import (
    ListComp as ListComp,
)
from speclint.frontends.python.expressions import (
    Name as Name,
)
from speclint.frontends.python.expressions import (
    NamedExpr as NamedExpr,
)
from speclint.frontends.python.expressions import (
    Param as Param,
)
from speclint.frontends.python.expressions import (
    Parameters as Parameters,
)
from speclint.frontends.python.expressions import (
    ParamSlash as ParamSlash,
)
from speclint.frontends.python.expressions import (
    ParamStar as ParamStar,
)
from speclint.frontends.python.expressions import (
    Set as Set,
)
from speclint.frontends.python.expressions import (
    SetComp as SetComp,
)
from speclint.frontends.python.expressions import (
    SimpleString as SimpleString,
)
from speclint.frontends.python.expressions import (
    Slice as Slice,
)
from speclint.frontends.python.expressions import (
    StarredDictComp as StarredDictComp,
)
from speclint.frontends.python.expressions import (
    StarredDictElement as StarredDictElement,
)
from speclint.frontends.python.expressions import (
    StarredElement as StarredElement,
)
from speclint.frontends.python.expressions import (
    Subscript as Subscript,
)
from speclint.frontends.python.expressions import (
    SubscriptElement as SubscriptElement,
)
from speclint.frontends.python.expressions import (
    TemplatedString as TemplatedString,
)
from speclint.frontends.python.expressions import (
    TemplatedStringExpression as TemplatedStringExpression,
)
from speclint.frontends.python.expressions import (
    TemplatedStringText as TemplatedStringText,
)
from speclint.frontends.python.expressions import (
    Tuple as Tuple,
)
from speclint.frontends.python.expressions import (
    UnaryOperation as UnaryOperation,
)
from speclint.frontends.python.expressions import (
    Yield as Yield,
)
from speclint.frontends.python.nodes import (
    Add as Add,
)
from speclint.frontends.python.nodes import (
    AddAssign as AddAssign,
)
from speclint.frontends.python.nodes import (
    And as And,
)
from speclint.frontends.python.nodes import (
    BaseAssignTargetExpression as BaseAssignTargetExpression,
)
from speclint.frontends.python.nodes import (
    BaseAugOp as BaseAugOp,
)
from speclint.frontends.python.nodes import (
    BaseBinaryOp as BaseBinaryOp,
)
from speclint.frontends.python.nodes import (
    BaseBooleanOp as BaseBooleanOp,
)
from speclint.frontends.python.nodes import (
    BaseComp as BaseComp,
)
from speclint.frontends.python.nodes import (
    BaseCompOp as BaseCompOp,
)
from speclint.frontends.python.nodes import (
    BaseCompoundStatement as BaseCompoundStatement,
)
from speclint.frontends.python.nodes import (
    BaseDelTargetExpression as BaseDelTargetExpression,
)
from speclint.frontends.python.nodes import (
    BaseDict as BaseDict,
)
from speclint.frontends.python.nodes import (
    BaseDictElement as BaseDictElement,
)
from speclint.frontends.python.nodes import (
    BaseElement as BaseElement,
)
from speclint.frontends.python.nodes import (
    BaseExpression as BaseExpression,
)
from speclint.frontends.python.nodes import (
    BaseFormattedStringContent as BaseFormattedStringContent,
)
from speclint.frontends.python.nodes import (
    BaseLeaf as BaseLeaf,
)
from speclint.frontends.python.nodes import (
    BaseList as BaseList,
)
from speclint.frontends.python.nodes import (
    BaseNumber as BaseNumber,
)
from speclint.frontends.python.nodes import (
    BaseSet as BaseSet,
)
from speclint.frontends.python.nodes import (
    BaseSimpleComp as BaseSimpleComp,
)
from speclint.frontends.python.nodes import (
    BaseSlice as BaseSlice,
)
from speclint.frontends.python.nodes import (
    BaseSmallStatement as BaseSmallStatement,
)
from speclint.frontends.python.nodes import (
    BaseStatement as BaseStatement,
)
from speclint.frontends.python.nodes import (
    BaseString as BaseString,
)
from speclint.frontends.python.nodes import (
    BaseSuite as BaseSuite,
)
from speclint.frontends.python.nodes import (
    BaseTemplatedStringContent as BaseTemplatedStringContent,
)
from speclint.frontends.python.nodes import (
    BaseUnaryOp as BaseUnaryOp,
)
from speclint.frontends.python.nodes import (
    BitAnd as BitAnd,
)
from speclint.frontends.python.nodes import (
    BitAndAssign as BitAndAssign,
)
from speclint.frontends.python.nodes import (
    BitInvert as BitInvert,
)
from speclint.frontends.python.nodes import (
    BitOr as BitOr,
)
from speclint.frontends.python.nodes import (
    BitOrAssign as BitOrAssign,
)
from speclint.frontends.python.nodes import (
    BitXor as BitXor,
)
from speclint.frontends.python.nodes import (
    BitXorAssign as BitXorAssign,
)
from speclint.frontends.python.nodes import (
    Divide as Divide,
)
from speclint.frontends.python.nodes import (
    DivideAssign as DivideAssign,
)
from speclint.frontends.python.nodes import (
    Equal as Equal,
)
from speclint.frontends.python.nodes import (
    FloorDivide as FloorDivide,
)
from speclint.frontends.python.nodes import (
    FloorDivideAssign as FloorDivideAssign,
)
from speclint.frontends.python.nodes import (
    GreaterThan as GreaterThan,
)
from speclint.frontends.python.nodes import (
    GreaterThanEqual as GreaterThanEqual,
)
from speclint.frontends.python.nodes import (
    In as In,
)
from speclint.frontends.python.nodes import (
    Is as Is,
)
from speclint.frontends.python.nodes import (
    IsNot as IsNot,
)
from speclint.frontends.python.nodes import (
    LeftShift as LeftShift,
)
from speclint.frontends.python.nodes import (
    LeftShiftAssign as LeftShiftAssign,
)
from speclint.frontends.python.nodes import (
    LessThan as LessThan,
)
from speclint.frontends.python.nodes import (
    LessThanEqual as LessThanEqual,
)
from speclint.frontends.python.nodes import (
    MatrixMultiply as MatrixMultiply,
)
from speclint.frontends.python.nodes import (
    MatrixMultiplyAssign as MatrixMultiplyAssign,
)
from speclint.frontends.python.nodes import (
    Minus as Minus,
)
from speclint.frontends.python.nodes import (
    Modulo as Modulo,
)
from speclint.frontends.python.nodes import (
    ModuloAssign as ModuloAssign,
)
from speclint.frontends.python.nodes import (
    Multiply as Multiply,
)
from speclint.frontends.python.nodes import (
    MultiplyAssign as MultiplyAssign,
)
from speclint.frontends.python.nodes import (
    Node as Node,
)
from speclint.frontends.python.nodes import (
    Not as Not,
)
from speclint.frontends.python.nodes import (
    NotEqual as NotEqual,
)
from speclint.frontends.python.nodes import (
    NotIn as NotIn,
)
from speclint.frontends.python.nodes import (
    Operator as Operator,
)
from speclint.frontends.python.nodes import (
    Or as Or,
)
from speclint.frontends.python.nodes import (
    Plus as Plus,
)
from speclint.frontends.python.nodes import (
    Power as Power,
)
from speclint.frontends.python.nodes import (
    PowerAssign as PowerAssign,
)
from speclint.frontends.python.nodes import (
    Range as Range,
)
from speclint.frontends.python.nodes import (
    RightShift as RightShift,
)
from speclint.frontends.python.nodes import (
    RightShiftAssign as RightShiftAssign,
)
from speclint.frontends.python.nodes import (
    Subtract as Subtract,
)
from speclint.frontends.python.nodes import (
    SubtractAssign as SubtractAssign,
)
from speclint.frontends.python.statements import (
    AnnAssign as AnnAssign,
)
from speclint.frontends.python.statements import (
    AsName as AsName,
)
from speclint.frontends.python.statements import (
    Assert as Assert,
)
from speclint.frontends.python.statements import (
    Assign as Assign,
)
from speclint.frontends.python.statements import (
    AssignTarget as AssignTarget,
)
from speclint.frontends.python.statements import (
    Asynchronous as Asynchronous,
)
from speclint.frontends.python.statements import (
    AugAssign as AugAssign,
)
from speclint.frontends.python.statements import (
    Break as Break,
)
from speclint.frontends.python.statements import (
    ClassDef as ClassDef,
)
from speclint.frontends.python.statements import (
    Continue as Continue,
)
from speclint.frontends.python.statements import (
    Decorator as Decorator,
)
from speclint.frontends.python.statements import (
    Del as Del,
)
from speclint.frontends.python.statements import (
    Else as Else,
)
from speclint.frontends.python.statements import (
    ExceptHandler as ExceptHandler,
)
from speclint.frontends.python.statements import (
    ExceptStarHandler as ExceptStarHandler,
)
from speclint.frontends.python.statements import (
    Expr as Expr,
)
from speclint.frontends.python.statements import (
    Finally as Finally,
)
from speclint.frontends.python.statements import (
    For as For,
)
from speclint.frontends.python.statements import (
    FunctionDef as FunctionDef,
)
from speclint.frontends.python.statements import (
    Global as Global,
)
from speclint.frontends.python.statements import (
    If as If,
)
from speclint.frontends.python.statements import (
    Import as Import,
)
from speclint.frontends.python.statements import (
    ImportAlias as ImportAlias,
)
from speclint.frontends.python.statements import (
    ImportFrom as ImportFrom,
)
from speclint.frontends.python.statements import (
    ImportStar as ImportStar,
)
from speclint.frontends.python.statements import (
    IndentedBlock as IndentedBlock,
)
from speclint.frontends.python.statements import (
    LazyImport as LazyImport,
)
from speclint.frontends.python.statements import (
    LazyImportFrom as LazyImportFrom,
)
from speclint.frontends.python.statements import (
    Match as Match,
)
from speclint.frontends.python.statements import (
    MatchAs as MatchAs,
)
from speclint.frontends.python.statements import (
    MatchCase as MatchCase,
)
from speclint.frontends.python.statements import (
    MatchClass as MatchClass,
)
from speclint.frontends.python.statements import (
    MatchKeywordElement as MatchKeywordElement,
)
from speclint.frontends.python.statements import (
    MatchList as MatchList,
)
from speclint.frontends.python.statements import (
    MatchMapping as MatchMapping,
)
from speclint.frontends.python.statements import (
    MatchMappingElement as MatchMappingElement,
)
from speclint.frontends.python.statements import (
    MatchOr as MatchOr,
)
from speclint.frontends.python.statements import (
    MatchOrElement as MatchOrElement,
)
from speclint.frontends.python.statements import (
    MatchPattern as MatchPattern,
)
from speclint.frontends.python.statements import (
    MatchSequence as MatchSequence,
)
from speclint.frontends.python.statements import (
    MatchSequenceElement as MatchSequenceElement,
)
from speclint.frontends.python.statements import (
    MatchSingleton as MatchSingleton,
)
from speclint.frontends.python.statements import (
    MatchStar as MatchStar,
)
from speclint.frontends.python.statements import (
    MatchTuple as MatchTuple,
)
from speclint.frontends.python.statements import (
    MatchValue as MatchValue,
)
from speclint.frontends.python.statements import (
    Module as Module,
)
from speclint.frontends.python.statements import (
    NameItem as NameItem,
)
from speclint.frontends.python.statements import (
    Nonlocal as Nonlocal,
)
from speclint.frontends.python.statements import (
    ParamSpec as ParamSpec,
)
from speclint.frontends.python.statements import (
    Pass as Pass,
)
from speclint.frontends.python.statements import (
    Raise as Raise,
)
from speclint.frontends.python.statements import (
    Return as Return,
)
from speclint.frontends.python.statements import (
    SimpleStatementLine as SimpleStatementLine,
)
from speclint.frontends.python.statements import (
    SimpleStatementSuite as SimpleStatementSuite,
)
from speclint.frontends.python.statements import (
    Try as Try,
)
from speclint.frontends.python.statements import (
    TryStar as TryStar,
)
from speclint.frontends.python.statements import (
    TypeAlias as TypeAlias,
)
from speclint.frontends.python.statements import (
    TypeParam as TypeParam,
)
from speclint.frontends.python.statements import (
    TypeParameters as TypeParameters,
)
from speclint.frontends.python.statements import (
    TypeVar as TypeVar,
)
from speclint.frontends.python.statements import (
    TypeVarTuple as TypeVarTuple,
)
from speclint.frontends.python.statements import (
    While as While,
)
from speclint.frontends.python.statements import (
    With as With,
)
from speclint.frontends.python.statements import (
    WithItem as WithItem,
)
