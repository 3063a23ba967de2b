"""Read, statically (`ast`, never imported), the DeepSeek model override's MLA prefill
context-parallelism block of a release (0.5.14 `ServerArgs._handle_model_specific_adjustments`,
0.5.15-0.5.18 `arg_groups/overrides.py`, 0.5.19+ `arg_groups/model_overrides/deepseek_v2.py`):

    if P.enable_prefill_cp and P.use_mla_backend():      # or use_mla_backend(server_args)
                                                       # (0.5.13: P.enable_prefill_context_parallel)
        self.X = <value>                                   # or overrides["X"] = <value>

(P: `self`, `cfg` or `server_args`) -> {"where": the enclosing function, "switch": the field
tested (enable_prefill_cp, 0.5.13 enable_prefill_context_parallel), "sets": [[field, kind,
value], ...] in the block's order, "logged"}, where kind is "constant" (value: the literal),
"field" (value: the one ServerArgs field it copies, `P.tp_size` -> "tp_size"), "expression"
(value: integer arithmetic, `//` and `*`, on the fields as the block found them, as Python
text over the field names:
0.5.14 `self.tp_size // self.dp_size` -> "(tp_size) // (dp_size)"; a local the block assigned
before is replaced by its expression, and a call of a module-level helper of the release,
`context_parallel_attn_dp_size(cfg, "...")` (0.5.22+), by the expression its one `return`
gives, where the helper's other statements are only asserts, log calls and a docstring; the
helper's asserts are listed under "asserts": [[test over the field names, or "unread"; the
message as a format string over them, or null; the helper's name]], evaluated on the fields as the block found
them) or "unread" (anything else, or a read of a field `self.X = ...`
changed earlier in the block; value null), and "logged" the block's first
`logger.warning` with a literal message, else null. Assignments to anything but a plain field
(`self.a.b = ...`, a local) are not listed. None where no such block is found, or where the
block holds a statement that could skip the rest (`return`, `raise`, a nested `if`); a block
that sets no field is passed over. Used by tools/gen_sglang_server_checks.py (`mla_prefill_cp`)."""

from __future__ import annotations

import ast

_OWNERS = ("self", "cfg", "server_args")
SWITCHES = ("enable_prefill_cp", "enable_prefill_context_parallel")
"""The block's switch: --enable-prefill-cp, 0.5.13 --enable-prefill-context-parallel."""


def _is_test(test: ast.expr) -> bool:
    if not (isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) and len(test.values) == 2):
        return False
    switch, mla = test.values
    if not (
        isinstance(switch, ast.Attribute)
        and switch.attr in SWITCHES
        and isinstance(switch.value, ast.Name)
        and switch.value.id in _OWNERS
    ):
        return False
    if not isinstance(mla, ast.Call):
        return False
    func = mla.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    return name == "use_mla_backend"


def _field(target: ast.expr) -> str | None:
    """`self.X` -> X; `overrides["X"]` -> X; else None."""
    if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self":
        return target.attr
    if (
        isinstance(target, ast.Subscript)
        and isinstance(target.value, ast.Name)
        and target.value.id == "overrides"
        and isinstance(target.slice, ast.Constant)
        and isinstance(target.slice.value, str)
    ):
        return target.slice.value
    return None


def _value(node: ast.expr, local: dict[str, str], helpers: dict[str, ast.FunctionDef]) -> list[object]:
    if isinstance(node, ast.Constant) and isinstance(node.value, (bool, int, str)):
        return ["constant", node.value]
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in _OWNERS:
        return ["field", node.attr]
    text = _expression(node, local, helpers)
    return ["unread", None] if text is None else ["expression", text]


def _expression(node: ast.expr, local: dict[str, str], helpers: dict[str, ast.FunctionDef]) -> str | None:
    """`node` as Python text over field names (integers, `//`, `*`), else None."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return str(node.value)
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in _OWNERS:
        return node.attr
    if isinstance(node, ast.Name) and node.id in local:
        return local[node.id]
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.FloorDiv, ast.Mult)):
        left, right = _expression(node.left, local, helpers), _expression(node.right, local, helpers)
        if left is None or right is None:
            return None
        return f"({left}) {'//' if isinstance(node.op, ast.FloorDiv) else '*'} ({right})"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in helpers:
        return _returned(helpers[node.func.id], helpers)
    return None


def _returned(helper: ast.FunctionDef, helpers: dict[str, ast.FunctionDef]) -> str | None:
    """The expression a helper's one `return` gives (its parameters read as `cfg`), where its
    other statements are asserts, log calls, a docstring or an `if` of those only."""
    returns = [stmt for stmt in helper.body if isinstance(stmt, ast.Return)]
    if len(returns) != 1 or returns[0].value is None or helper.body[-1] is not returns[0]:
        return None

    def harmless(stmt: ast.stmt) -> bool:
        if isinstance(stmt, (ast.Assert, ast.Expr, ast.Pass)):
            return True
        return isinstance(stmt, ast.If) and all(map(harmless, stmt.body + stmt.orelse))

    if not all(map(harmless, helper.body[:-1])):
        return None
    owners = {arg.arg for arg in helper.args.args[:1]}
    value = returns[0].value
    if not owners or not all(
        n.value.id in owners
        for n in ast.walk(value)
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)
    ):
        return None
    renamed = ast.fix_missing_locations(_Rename(owners).visit(ast.parse(ast.unparse(value), mode="eval")))
    return _expression(renamed.body, {}, {})


def _condition(node: ast.expr, owners: set[str]) -> str | None:
    """An assert's test over the helper's parameter's fields as Python text over the field names
    (`cfg.dp_size > 1` -> "dp_size > 1"), else None."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Attribute):
            if not (isinstance(sub.value, ast.Name) and sub.value.id in owners):
                return None
        elif not isinstance(
            sub,
            (ast.Name, ast.Constant, ast.Compare, ast.BoolOp, ast.UnaryOp, ast.BinOp, ast.cmpop, ast.boolop)
            + (ast.operator, ast.unaryop, ast.expr_context),
        ) or (isinstance(sub, ast.Constant) and type(sub.value) is not int):
            return None
    text = ast.unparse(node)
    for owner in owners:
        text = text.replace(f"{owner}.", "")
    return text


def _message(node: ast.expr | None, owners: set[str]) -> str | None:
    """An assert's message: a literal, or an f-string whose parts are literals and the
    parameter's fields (`{cfg.dp_size}` -> "{dp_size}"); else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.replace("{", "{{").replace("}", "}}")
    if not isinstance(node, ast.JoinedStr):
        return None
    out = []
    for part in node.values:
        if isinstance(part, ast.Constant) and isinstance(part.value, str):
            out.append(part.value.replace("{", "{{").replace("}", "}}"))
        elif (
            isinstance(part, ast.FormattedValue)
            and part.format_spec is None
            and part.conversion == -1
            and isinstance(part.value, ast.Attribute)
            and isinstance(part.value.value, ast.Name)
            and part.value.value.id in owners
        ):
            out.append("{" + part.value.attr + "}")
        else:
            return None
    return "".join(out)


def _helper_asserts(body: list[ast.stmt], helpers: dict[str, ast.FunctionDef]) -> list[list[object]]:
    """The top-level asserts of each helper the block calls, in the block's order: [test,
    message template, helper] (test "unread" where it is not fields and integers)."""
    out: list[list[object]] = []
    for stmt in body:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in helpers:
                helper = helpers[node.func.id]
                owners = {arg.arg for arg in helper.args.args[:1]}
                for check in (s for s in helper.body if isinstance(s, ast.Assert)):
                    test = _condition(check.test, owners) or "unread"
                    out.append([test, _message(check.msg, owners), helper.name])
    return out


class _Rename(ast.NodeTransformer):
    """A helper's parameter (`cfg`) read as the override's `cfg`."""

    def __init__(self, owners: set[str]) -> None:
        self.owners = owners

    def visit_Name(self, node: ast.Name) -> ast.Name:
        return ast.Name(id="cfg", ctx=node.ctx) if node.id in self.owners else node


def _logged(body: list[ast.stmt]) -> str | None:
    """The block's first `logger.warning("...")` with a literal message (what it logs first)."""
    for stmt in body:
        call = stmt.value if isinstance(stmt, ast.Expr) else None
        if (
            isinstance(call, ast.Call)
            and ast.unparse(call.func) == "logger.warning"
            and call.args
            and isinstance(call.args[0], ast.Constant)
            and isinstance(call.args[0].value, str)
        ):
            return call.args[0].value
    return None


def _reads(text: str) -> set[str]:
    return {n.id for n in ast.walk(ast.parse(text, mode="eval")) if isinstance(n, ast.Name)}


def _sets(body: list[ast.stmt], helpers: dict[str, ast.FunctionDef]) -> list[list[object]] | None:
    out: list[list[object]] = []
    local: dict[str, str] = {}
    mutated: set[str] = set()  # the fields `self.X = ...` changed so far (`overrides[...]` does not)
    for stmt in body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target = stmt.targets[0]
            field = _field(target)
            if field is not None:
                value = _value(stmt.value, local, helpers)
                if value[0] in ("field", "expression") and _reads(str(value[1])) & mutated:
                    value = ["unread", None]  # it reads what the block already changed
                out.append([field, *value])
                if isinstance(target, ast.Attribute):
                    mutated.add(field)
            elif isinstance(target, ast.Name):
                text = _expression(stmt.value, local, helpers)
                if text is None:
                    local.pop(target.id, None)
                else:
                    local[target.id] = text
        elif isinstance(stmt, (ast.Expr, ast.Assign, ast.AnnAssign, ast.AugAssign)):
            continue  # a log call, a local, a nested attribute (`self.cuda_graph_config.prefill...`)
        else:
            return None
    return out


def _helpers(sources: list[str]) -> dict[str, ast.FunctionDef]:
    """The release's module-level functions of one name only (a name defined twice: neither)."""
    found: dict[str, ast.FunctionDef] = {}
    twice: set[str] = set()
    for source in sources:
        for node in ast.parse(source).body:
            if isinstance(node, ast.FunctionDef):
                if node.name in found:
                    twice.add(node.name)
                found[node.name] = node
    return {name: node for name, node in found.items() if name not in twice}


def read_mla_prefill_cp(sources: list[str]) -> dict[str, object] | None:
    blocks = [s for s in sources if any(name in s for name in SWITCHES) and "use_mla_backend" in s]
    helpers = _helpers(sources) if blocks else {}
    for source in blocks:
        tree = ast.parse(source)
        for function in (f for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)):
            for node in ast.walk(function):
                if isinstance(node, ast.If) and _is_test(node.test) and not node.orelse:
                    sets = _sets(node.body, helpers)
                    if sets is None:
                        return None
                    if sets:  # (0.5.22+ model_hook.py's block only declares the CUDA-graph phase)
                        switch = node.test.values[0]  # type: ignore[attr-defined]
                        found = {
                            "where": function.name,
                            "switch": switch.attr,
                            "sets": sets,
                            "logged": _logged(node.body),
                        }
                        asserts = _helper_asserts(node.body, helpers)
                        return {**found, "asserts": asserts} if asserts else found
    return None
