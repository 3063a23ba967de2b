"""The values tools/sglang_quant_hooks.py runs an SGLang release's `override_quantization_method`
hooks with: the checkpoint's quantization config (`Cfg`: its `quant_method` known, the other keys
not), what is not known (`UNKNOWN`), and how tests, comparisons, `isinstance` and `for` loops
answer on them (an unknown answer makes the reading take both branches)."""

from __future__ import annotations

import ast

from sglang_quant_names import Function, Imported

_TYPES: dict[str, type] = {"str": str, "dict": dict, "int": int, "bool": bool, "float": float}


class Unknown:
    def __repr__(self) -> str:
        return "?"


UNKNOWN = Unknown()
SENTINEL = "\x00"
NONNULL = "\x00value"
"""A string value whose text is not followed (`cls.get_name()`)."""


class Cfg:
    """The checkpoint's quantization config: `quant_method` known; the other keys not
    (`absent`: known to be missing). `keys`: the other keys a hook read ("*": it passed the
    whole config to a call not followed)."""

    def __init__(self, method: str, absent: bool = False):
        self.method = method
        self.absent = absent
        self.keys: set[str] = set()


def loop_target(target: ast.expr) -> bool:
    return isinstance(target, ast.Name) or (
        isinstance(target, ast.Tuple) and all(isinstance(e, ast.Name) for e in target.elts)
    )


def loop_items(value: object) -> list[object] | None:
    """What a `for` runs over, when known: a literal tuple or list, a dict's keys."""
    if isinstance(value, dict):
        return list(value)
    if isinstance(value, tuple) and UNKNOWN not in value and len(value) <= 64:
        return list(value)
    return None


def bind(target: ast.expr, value: object, env: dict[str, object]) -> None:
    if isinstance(target, ast.Name):
        env[target.id] = value
    elif isinstance(target, ast.Tuple):
        parts = value if isinstance(value, tuple) and len(value) == len(target.elts) else None
        for index, element in enumerate(target.elts):
            bind(element, UNKNOWN if parts is None else parts[index], env)


def isinstance_of(value: object, types: ast.expr) -> object:
    """`isinstance(value, T)` or `(T1, T2)` for builtin types; unknown otherwise."""
    names = [e.id for e in types.elts if isinstance(e, ast.Name)] if isinstance(types, ast.Tuple) else []
    names = [types.id] if isinstance(types, ast.Name) else names
    if isinstance(value, Cfg):
        return "dict" in names
    if value is UNKNOWN or not names or any(n not in _TYPES for n in names):
        return UNKNOWN
    if isinstance(value, tuple) or isinstance(value, (Function, Imported)):
        return UNKNOWN
    if value == NONNULL:
        return "str" in names
    return isinstance(value, tuple(_TYPES[n] for n in names))


def truth_of(value: object) -> bool | None:
    if value is UNKNOWN:
        return None
    if isinstance(value, Cfg) or value == NONNULL:
        return True
    return bool(value)


def compare(op: ast.cmpop, left: object, right: object) -> object:
    if isinstance(op, (ast.Is, ast.IsNot)):
        if left is UNKNOWN or right is UNKNOWN:
            return UNKNOWN
        if right is None and (left == NONNULL or isinstance(left, Cfg)):
            return isinstance(op, ast.IsNot)
        same = left is right or (left is None) == (right is None) and left == right
        return same if isinstance(op, ast.Is) else not same
    if isinstance(op, (ast.In, ast.NotIn)):
        if isinstance(right, Cfg):
            if left == "quant_method":
                return isinstance(op, ast.In)
            right.keys.add(str(left))
            if right.absent:
                return isinstance(op, ast.NotIn)
            return UNKNOWN
        if isinstance(right, dict) and isinstance(left, (str, int)) and left != NONNULL:
            found_key = left in right
            return found_key if isinstance(op, ast.In) else not found_key
        if left is UNKNOWN or left == NONNULL or not isinstance(right, (tuple, str)):
            return UNKNOWN
        if isinstance(right, str) and not isinstance(left, str):
            return UNKNOWN
        found = left in right
        return found if isinstance(op, ast.In) else not found
    if isinstance(op, (ast.Eq, ast.NotEq)):
        if left is UNKNOWN or right is UNKNOWN or NONNULL in (left, right):
            return UNKNOWN
        return (left == right) if isinstance(op, ast.Eq) else (left != right)
    return UNKNOWN
