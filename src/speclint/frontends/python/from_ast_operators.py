"""The operators of `ast` as the front-end's tree names them (`from_ast_expressions`):
`ast.Add` -> `py.Add()`, one node per name."""

from __future__ import annotations

import ast

from speclint.frontends.python import syntax as py

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


OPERATORS: dict[type, str] = {
    ast.Add: "Add",
    ast.Sub: "Subtract",
    ast.Mult: "Multiply",
    ast.MatMult: "MatrixMultiply",
    ast.Div: "Divide",
    ast.Mod: "Modulo",
    ast.Pow: "Power",
    ast.LShift: "LeftShift",
    ast.RShift: "RightShift",
    ast.BitOr: "BitOr",
    ast.BitXor: "BitXor",
    ast.BitAnd: "BitAnd",
    ast.FloorDiv: "FloorDivide",
    ast.And: "And",
    ast.Or: "Or",
    ast.Not: "Not",
    ast.USub: "Minus",
    ast.UAdd: "Plus",
    ast.Invert: "BitInvert",
    ast.Eq: "Equal",
    ast.NotEq: "NotEqual",
    ast.Lt: "LessThan",
    ast.LtE: "LessThanEqual",
    ast.Gt: "GreaterThan",
    ast.GtE: "GreaterThanEqual",
    ast.Is: "Is",
    ast.IsNot: "IsNot",
    ast.In: "In",
    ast.NotIn: "NotIn",
}
_OPERATOR_OBJECTS: dict[str, Any] = {}
"""The node made for each operator name, made once and shared."""


def operator(name: str) -> Any:
    made = _OPERATOR_OBJECTS.get(name)
    if made is None:
        made = _OPERATOR_OBJECTS[name] = getattr(py, name)()
    return made
