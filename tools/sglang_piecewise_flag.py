"""Prefill CUDA graphs before `cuda_graph_config` (0.5.13.post1 and older): one flag,
--disable-piecewise-cuda-graph (0.5.10-0.5.13.post1), that `_handle_piecewise_cuda_graph` sets
by a run of `if <condition>: self.disable_piecewise_cuda_graph = True`, or, before,
--enable-piecewise-cuda-graph (0.5.9 and older: off unless given). Read statically (`ast`) for
tools/gen_sglang_gpu_resolution.py:

- `piecewise_flag`: the `ServerArgs` field of the two that the release has, and the backend
  its default gives: "tc_piecewise" (torch.compile piecewise graphs, 0.5.14's tc_piecewise)
  where `disable_piecewise_cuda_graph` defaults to False or `enable_piecewise_cuda_graph` to
  True, "disabled" otherwise; None where there is neither (`piecewise_default`: the backend);
- `piecewise_rules`: each such `if`'s condition as written (`ast.unparse`), in order: the
  rule's name, as `disable_tc_piecewise_cudagraph_if_incompatible`'s names are later;
- `speculative_reserve`: in `handle_gpu_memory_settings`, what
  `if self.speculative_algorithm is not None:` adds to `reserved_mem` (MiB): for STANDALONE,
  for NGRAM and for any other algorithm ({"STANDALONE": 6144, "NGRAM": 0, "other": 4096} in
  0.5.13.post1), None where there is no such block.
"""

from __future__ import annotations

import ast

FLAG = "disable_piecewise_cuda_graph"
ENABLE = "enable_piecewise_cuda_graph"


def _sets_flag(body: list[ast.stmt]) -> bool:
    for node in (n for stmt in body for n in ast.walk(stmt)):
        if (
            isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Attribute) and t.attr == FLAG for t in node.targets)
            and isinstance(node.value, ast.Constant)
            and node.value.value is True
        ):
            return True
    return False


def piecewise_flag(trees: list[ast.Module]) -> tuple[str, str] | None:
    for tree in trees:
        for node in ast.walk(tree):
            if not (isinstance(node, ast.ClassDef) and node.name == "ServerArgs"):
                continue
            for name in (FLAG, ENABLE):
                for field in node.body:
                    if (
                        isinstance(field, ast.AnnAssign)
                        and isinstance(field.target, ast.Name)
                        and field.target.id == name
                        and isinstance(field.value, ast.Constant)
                        and isinstance(field.value.value, bool)
                    ):
                        on = field.value.value is (name == ENABLE)
                        return name, "tc_piecewise" if on else "disabled"
    return None


def piecewise_default(trees: list[ast.Module]) -> str | None:
    found = piecewise_flag(trees)
    return None if found is None else found[1]


def piecewise_rules(function: ast.FunctionDef) -> list[str]:
    return [
        ast.unparse(stmt.test) for stmt in function.body if isinstance(stmt, ast.If) and _sets_flag(stmt.body)
    ]


def _constant_mib(stmt: ast.stmt) -> int | None:
    """`reserved_mem += N` or `+= A * B` (constants)."""
    if not (
        isinstance(stmt, ast.AugAssign)
        and isinstance(stmt.target, ast.Name)
        and stmt.target.id == "reserved_mem"
    ):
        return None
    value = stmt.value
    if isinstance(value, ast.Constant) and type(value.value) is int:
        return value.value
    if (
        isinstance(value, ast.BinOp)
        and isinstance(value.op, ast.Mult)
        and isinstance(value.left, ast.Constant)
        and isinstance(value.right, ast.Constant)
        and type(value.left.value) is int
        and type(value.right.value) is int
    ):
        return value.left.value * value.right.value
    return None


def _algorithm_test(test: ast.expr) -> tuple[str, str] | None:
    """`self.speculative_algorithm == "X"` -> ("==", "X"); `!=` likewise."""
    if (
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Attribute)
        and test.left.attr == "speculative_algorithm"
        and len(test.ops) == 1
        and isinstance(test.ops[0], (ast.Eq, ast.NotEq))
        and isinstance(test.comparators[0], ast.Constant)
        and isinstance(test.comparators[0].value, str)
    ):
        return ("==" if isinstance(test.ops[0], ast.Eq) else "!="), test.comparators[0].value
    return None


def speculative_reserve(function: ast.FunctionDef) -> dict[str, int] | None:
    """`if X == "A": += a` / `elif X != "B": += b` under `if ....speculative_algorithm is not None:`."""
    for node in ast.walk(function):
        test = node.test if isinstance(node, ast.If) else None
        if not (
            isinstance(test, ast.Compare)
            and isinstance(test.left, ast.Attribute)
            and test.left.attr == "speculative_algorithm"
            and isinstance(test.ops[0], ast.IsNot)
        ):
            continue
        assert isinstance(node, ast.If)
        inner = node.body[0] if len(node.body) == 1 and isinstance(node.body[0], ast.If) else None
        if inner is None or len(inner.body) != 1 or len(inner.orelse) != 1:
            return None
        first, second = _algorithm_test(inner.test), inner.orelse[0]
        if first is None or first[0] != "==" or not isinstance(second, ast.If) or second.orelse:
            return None
        other = _algorithm_test(second.test)
        a, b = _constant_mib(inner.body[0]), _constant_mib(second.body[0]) if len(second.body) == 1 else None
        if other is None or other[0] != "!=" or a is None or b is None:
            return None
        return {first[1]: a, other[1]: 0, "other": b}
    return None


def _conjunct(node: ast.expr) -> dict[str, object]:
    """One operand of a late rule's `and`: {"field": F, "in": [values]} for `self.F in (...)`,
    `self.F == v`, `not self.F` (False or None) and `self.F` (True); {"architecture_not": X}
    for `....architectures[0] != "X"`; else {"written": the operand as written}."""
    if (
        isinstance(node, ast.UnaryOp)
        and isinstance(node.op, ast.Not)
        and isinstance(node.operand, ast.UnaryOp)
        and isinstance(node.operand.op, ast.Not)
    ):
        return _conjunct(node.operand.operand)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not) and _self_field(node.operand):
        return {"field": _self_field(node.operand), "in": [False, None]}
    if _self_field(node):
        return {"field": _self_field(node), "in": [True]}
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        op, right = node.ops[0], node.comparators[0]
        field = _self_field(node.left)
        if field and isinstance(op, ast.Eq) and isinstance(right, ast.Constant):
            return {"field": field, "in": [right.value]}
        if field and isinstance(op, ast.In) and isinstance(right, (ast.Tuple, ast.List)):
            if all(isinstance(e, ast.Constant) for e in right.elts):
                return {"field": field, "in": [e.value for e in right.elts if isinstance(e, ast.Constant)]}
        if (
            isinstance(op, ast.NotEq)
            and isinstance(right, ast.Constant)
            and ast.unparse(node.left).endswith(".hf_config.architectures[0]")
        ):
            return {"architecture_not": right.value}
    return {"written": ast.unparse(node)}


def _self_field(node: ast.expr) -> str | None:
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
        return node.attr
    return None


def _parts(test: ast.expr) -> list[ast.expr]:
    return list(test.values) if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) else [test]


def _chains(body: list[ast.stmt], tests: list[ast.expr], out: list[list[ast.expr]]) -> None:
    """The `if` tests around each `self.disable_piecewise_cuda_graph = True` in `body`."""
    for stmt in body:
        if isinstance(stmt, ast.If) and not stmt.orelse and isinstance(stmt.body[-1], ast.Return):
            tests = tests + [ast.UnaryOp(op=ast.Not(), operand=stmt.test)]  # `if <test>: return`
            continue
        if _sets_flag([stmt]) and not isinstance(stmt, (ast.If, ast.For, ast.While, ast.With, ast.Try)):
            out.append(tests)
        elif isinstance(stmt, ast.If):
            _chains(stmt.body, tests + _parts(stmt.test), out)
            negated = ast.UnaryOp(op=ast.Not(), operand=stmt.test)
            _chains(stmt.orelse, tests + [negated], out)
        elif isinstance(stmt, (ast.For, ast.While, ast.With, ast.Try)):
            inner = [getattr(stmt, n, []) for n in ("body", "orelse", "finalbody")]
            for block in inner:
                _chains(block, tests + [ast.Name(id="__loop_or_block__")], out)


def late_piecewise_rules(trees: list[ast.Module]) -> list[dict[str, object]]:
    """Each `self.disable_piecewise_cuda_graph = True` of `ServerArgs` outside
    `_handle_piecewise_cuda_graph` (which runs before the memory settings; these run after,
    so they change the switch, not the memory reserved), as the `and`-ed conjuncts of the
    `if` tests around it (an `else` branch: `not (<test>)`, as written): {"function": the
    method's name, "when": [conjunct, ...]}."""
    rules: list[dict[str, object]] = []
    for tree in trees:
        for function in ast.walk(tree):
            if (
                isinstance(function, ast.FunctionDef)
                and function.name.lstrip("_") != "handle_piecewise_cuda_graph"
            ):
                chains: list[list[ast.expr]] = []
                _chains(function.body, [], chains)
                rules += [{"function": function.name, "when": [_conjunct(t) for t in c]} for c in chains]
    return rules
