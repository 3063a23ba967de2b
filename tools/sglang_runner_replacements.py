"""Read, statically (`ast`, never imported), the MoE runner a release puts in place of the
one given under a --quantization that picks its own (0.5.10+ mxfp8); used by
tools/gen_sglang_moe_defaults.py (`moe_runner_replacements`, beside `moe_runner_overrides`,
the runners kept, tools/sglang_moe_runner_asserts.py).

Under `if ....quantization == "V"` (`... and ...` after it), the `if ....moe_runner_backend ==
"auto":` and the `elif ....moe_runner_backend not in [...]:` each set the runner to a value:
- a string;
- a local name (0.5.17+ `mxfp8_default`): its assignments in the branch, each a string or
  `"A" if <a ROCm test: its text names hip or gfx> else "B"` (B, the CUDA value); one inside
  `if ....moe_a2a_backend == "C":` (0.5.23: flashinfer_megamoe) is that backend's, the others
  the default.
-> {V: {"auto": runner, "other": runner, "a2a": {C: runner}}}; a value of another form, or a
name assigned under another test, is not read (V left out). A branch (on the quantization alone) whose
last statement sets the runner to a string (0.5.9 mxfp8: `cutlass`, after a warning for any other runner) puts it in
the place of every runner, `auto` too."""

from __future__ import annotations

import ast

from sglang_moe_runner_asserts import Sources, _quantization_branches, attribute_equals


def _cuda(expr: ast.expr) -> str | None:
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        return expr.value
    if isinstance(expr, ast.IfExp) and any(w in ast.unparse(expr.test) for w in ("hip", "gfx")):
        return _cuda(expr.orelse)
    return None


def _assigns(body: list[ast.stmt], name: str) -> bool:
    return any(
        isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in n.targets)
        for stmt in body
        for n in ast.walk(stmt)
    )


def _local_values(body: list[ast.stmt], name: str, under: str | None, out: dict[str | None, str]) -> bool:
    """Each assignment to `name` in `body` by the all-to-all backend it sits under (None: any
    other); False where one is not read."""
    for stmt in body:
        if isinstance(stmt, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == name for t in stmt.targets
        ):
            value = _cuda(stmt.value)
            if value is None:
                return False
            out[under] = value
        elif isinstance(stmt, ast.If) and _assigns([stmt], name):
            backend = attribute_equals(stmt.test, "moe_a2a_backend")
            if backend is None or under is not None:
                return False
            if not _local_values(stmt.body, name, backend, out) or not _local_values(
                stmt.orelse, name, None, out
            ):
                return False
    return True


def _set_to(body: list[ast.stmt]) -> ast.expr | None:
    for stmt in body:
        if isinstance(stmt, ast.Assign) and any(
            (isinstance(t, ast.Attribute) and t.attr == "moe_runner_backend")
            or (isinstance(t, ast.Name) and t.id == "moe_runner_backend")
            for t in stmt.targets
        ):
            return stmt.value
    return None


def _runner_test(test: ast.expr) -> str | None:
    """ "auto" for `....moe_runner_backend == "auto"`, "other" for `... not in ...`."""
    if not (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and "moe_runner_backend" in ast.unparse(test.left)
    ):
        return None
    right = test.comparators[0]
    if isinstance(test.ops[0], ast.Eq) and isinstance(right, ast.Constant) and right.value == "auto":
        return "auto"
    return "other" if isinstance(test.ops[0], ast.NotIn) else None


def read_runner_replacements(sources: Sources) -> dict[str, dict] | None:
    found: dict[str, dict] = {}
    for value, node, _ in _quantization_branches(sources):
        if value in found:
            continue
        sets: dict[str, ast.expr] = {}
        last = _set_to(node.body[-1:])  # (0.5.9: `self.moe_runner_backend = "cutlass"` ends the branch)
        if last is not None and _cuda(last) is not None and isinstance(node.test, ast.Compare):
            sets = {"auto": last, "other": last}
        else:
            for inner in (n for stmt in node.body for n in ast.walk(stmt)):
                kind = _runner_test(inner.test) if isinstance(inner, ast.If) else None
                to = _set_to(inner.body) if kind is not None and isinstance(inner, ast.If) else None
                if kind is not None and to is not None:
                    sets.setdefault(kind, to)
        if set(sets) != {"auto", "other"}:
            continue
        read: dict[str, str] = {}
        a2a: dict[str, str] = {}
        for kind, expr in sets.items():
            direct = _cuda(expr)
            if direct is not None:
                read[kind] = direct
                continue
            values: dict[str | None, str] = {}
            if not isinstance(expr, ast.Name) or not _local_values(node.body, expr.id, None, values):
                break
            if None not in values:
                break
            read[kind] = values.pop(None)
            a2a.update((k, v) for k, v in values.items() if k is not None)
        else:
            found[value] = {"auto": read["auto"], "other": read["other"], "a2a": dict(sorted(a2a.items()))}
    return found or None
