"""Two questions the readers that look at a file through CPython's `ast` beside the walker
ask (`modal_images`, `sky_images`): where a node is written, and whether an expression names
a module's attribute."""

from __future__ import annotations

import ast

from speclint.core.spans import Span


def node_span(node: ast.expr, lines: list[str], bom: bool) -> Span:
    """Where a node is written, columns in characters (`ast` counts UTF-8 bytes, and a file's
    byte-order mark, left out of what `ast` parsed, is column 1 of line 1)."""
    end_line = node.end_lineno or node.lineno
    end_offset = node.end_col_offset if node.end_col_offset is not None else node.col_offset + 1

    def column(line: int, offset: int) -> int:
        text = lines[line - 1] if line - 1 < len(lines) else ""
        shift = 1 if bom and line == 1 else 0
        return len(text[shift:].encode("utf-8")[:offset].decode("utf-8", "replace")) + 1 + shift

    return Span(node.lineno, column(node.lineno, node.col_offset), end_line, column(end_line, end_offset))


def module_attribute(expression: ast.expr, module: str, name: str) -> bool:
    """`MODULE.NAME`, or `NAME` alone (imported from MODULE)."""
    if isinstance(expression, ast.Name):
        return expression.id == name
    return (
        isinstance(expression, ast.Attribute)
        and expression.attr == name
        and isinstance(expression.value, ast.Name)
        and expression.value.id == module
    )
