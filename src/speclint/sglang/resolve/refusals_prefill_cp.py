"""0.5.14+ context-parallelism handler (`_handle_context_parallelism`, 0.5.19+
`handle_context_parallelism`): `if enable_prefill_cp and cp_strategy is None: raise
ValueError(...)`, read per release (`cp_strategy_required` of data/sglang_server_checks.json,
tools/sglang_cp_strategy.py). Judged where --enable-prefill-cp is given on, --cp-strategy is
not given, none of the older switches that set both (the reading's `legacy`) is given or maybe
given, and the target is one of the architectures hardware_flags models (no model override
of theirs writes either field)."""

from __future__ import annotations

from speclint.sglang.resolve.state import Stop, given

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.resolve.state import ResolutionState


def check_cp_strategy(state: ResolutionState) -> None:
    """Oracle (record.py --generator a2a_cp, seeds 22004 and 22005, 0.5.21-0.5.23, fake H100 and
    B200): Qwen3-8B and DeepSeek-V3 with --enable-prefill-cp and no --cp-strategy refused so,
    whatever the MoE all-to-all backend; with --cp-strategy zigzag or interleave not."""
    from speclint.sglang.resolve.chunked_page import server_check
    from speclint.sglang.resolve.hardware_flags import MODELLED_ARCHITECTURES

    read = server_check(state.checked_version, "cp_strategy_required")
    if (
        not isinstance(read, dict)
        or given(state, "enable_prefill_cp") is not True
        or state.config.maybe_given("cp_strategy")
        or any(state.config.maybe_given(name) for name in read.get("legacy") or ())
        or state.target_architecture not in MODELLED_ARCHITECTURES
    ):
        return
    raise Stop(
        "ValueError",
        f"{read['message']} (--enable-prefill-cp without --cp-strategy; pass --cp-strategy zigzag or "
        "--cp-strategy interleave)",
        str(read["where"]),
        ("enable_prefill_cp",),
    )


def check_cp_asserts(state: ResolutionState) -> None:
    """Then (0.5.9+) `if attn_cp_size > 1:` its asserts, read per release (`cp_asserts`: TP
    divisible by the attention-CP size and by the DP size times it, 0.5.22+ the attention-DP
    size; 0.5.9 no PP; no aiter all-reduce fusion), evaluated on the resolved values. Judged
    where each term is known, for the architectures hardware_flags models. Oracle (record.py
    --generator a2a_cp, seeds 22004-22005, 0.5.21-0.5.23, fake B200): Qwen3-8B TP 8 with
    --attn-cp-size 8 and --dp-size 8 --enable-dp-attention refused so (dp_size on 0.5.21,
    attn_dp_size on 0.5.22+), DeepSeek-V3 TP 8 --attn-cp-size 4 --attn-dp-size 8 too."""
    from speclint.sglang.resolve.chunked_page import server_check
    from speclint.sglang.resolve.hardware_flags import MODELLED_ARCHITECTURES

    read = server_check(state.checked_version, "cp_asserts")
    size = state.get("attn_cp_size") if "attn_cp_size" in state.values else given(state, "attn_cp_size")
    if (
        not isinstance(read, dict)
        or not isinstance(size, int)
        or isinstance(size, bool)
        or size <= 1
        or state.target_architecture not in MODELLED_ARCHITECTURES
    ):
        return
    for test, message in read["asserts"]:
        names = field_names(test)
        values = _terms(state, names)
        if values is None:
            return  # a term speclint cannot read: nothing said from here on
        if holds(test, values):
            continue
        raise _failed(message, f"--attn-cp-size {size}", test, values, str(read["where"]), sorted(names))


def check_cp_moe_dp(state: ResolutionState) -> None:
    """Then (0.5.9+) the handler's `if moe_dp_size > 1:` asserts (TP divisible by the MoE DP
    size, ep_size times it within TP and, with expert parallelism, equal to it, no PP, no aiter
    all-reduce fusion) and 0.5.13+'s `if attn_cp_size != moe_dp_size: assert moe_dp_size == 1`,
    read per release (`cp_moe_dp_asserts`, tools/sglang_cp_moe_dp.py) and evaluated on the
    resolved values (ep_size as speclint resolves it), in the release's order. Judged where each
    term is known, for the architectures hardware_flags models. Oracle (--moe-dp-size draws, seed
    23009 on 0.5.14, 0.5.19, 0.5.22 and 0.5.23, fake H100 and B200): missed refusals 324 -> 76 of
    400, no false refusal; then (session 24) 76 -> 0 with the DeepSeek override's MLA prefill-CP
    ep_size (prefill_cp_mla) and ep_size as before the all-to-all handler (`_before_a2a`)."""
    from speclint.sglang.resolve.chunked_page import server_check
    from speclint.sglang.resolve.hardware_flags import MODELLED_ARCHITECTURES

    read = server_check(state.checked_version, "cp_moe_dp_asserts")
    if not isinstance(read, list) or state.target_architecture not in MODELLED_ARCHITECTURES:
        return
    before = _before_a2a(state) if server_check(state.checked_version, "cp_before_a2a") is True else {}
    for block in read:
        test = str(block["test"])
        values = _terms(state, field_names(test), before)
        if values is None:
            return
        if not holds(test, values):
            continue
        for check, message, guard in block["asserts"]:
            names = field_names(check) | (field_names(guard) if guard else set())
            values = _terms(state, names, before)
            if values is None:
                return
            if (guard and not holds(guard, values)) or holds(check, values):
                continue
            fields = sorted(names, key=lambda name: (name != "moe_dp_size", name))
            raise _failed(message, f"`{test}`", check, values, str(block["where"]), fields)


def _failed(
    message: object, under: str, check: str, values: dict[str, object], where: str, fields: list[str]
) -> Stop:
    """SGLang's `assert check, message` failing under `under` (the block's test or flag), with
    the value of each term speclint judged it on."""
    terms = ", ".join(f"{name} {values[name]}" for name in sorted(values))
    return Stop(
        "AssertionError",
        f"{message or ''} ({under}: `{check}` fails with {terms})".lstrip(),
        where,
        tuple(fields),
    )


def field_names(test: str) -> set[str]:
    import ast

    return {n.id for n in ast.walk(ast.parse(test, mode="eval")) if isinstance(n, ast.Name)}


_A2A_HANDLERS = ("handle_a2a_moe", "a2a_ep_size")


def _before_a2a(state: ResolutionState) -> dict[str, object]:
    """The fields as they were before the all-to-all handler changed them (its ep_size = tp_size):
    0.5.9+ call the context-parallelism handler first (`cp_before_a2a`, tools/sglang_cp_moe_dp.py).
    Oracle (seed 24011 on 0.5.14, 0.5.19, 0.5.23, and 24010 on 0.5.15.post1-0.5.18): Qwen3 TP 8
    --moe-dp-size 2 --moe-a2a-backend deepep accepted (ep_size 1 -> 8 after the asserts)."""
    return {a.field: a.asked for a in state.adjustments if a.handler.lstrip("_") in _A2A_HANDLERS}


def _terms(
    state: ResolutionState, names: set[str], before: dict[str, object] | None = None
) -> dict[str, object] | None:
    """Each field's resolved (else given, else default) integer value, or its value `before` a
    later handler changed it; None where one is not known."""
    from speclint.sglang.resolve.result import is_known

    values: dict[str, object] = {}
    for name in names:
        if before and name in before:
            value = before[name]
            if not is_known(value) or not isinstance(value, int) or isinstance(value, bool):
                return None
            values[name] = value
            continue
        value = state.get(name) if name in state.values else given(state, name)
        if value is None and name not in state.values:
            value = state.config.value(name) if state.config.known(name) else None
        if not is_known(value) or not isinstance(value, int):
            return None
        values[name] = value
    return values


def holds(test: str, values: dict[str, object]) -> bool:
    """`test` (fields, integers, `%`, `*`, `==`, `!=`, `>`, `<=`, `not`, `and`, `or`: as read) on
    `values`."""
    import ast

    def value(node: ast.expr) -> int:
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            return node.value
        if isinstance(node, ast.Name):
            found = values[node.id]
            assert isinstance(found, int)
            return found
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return int(not value(node.operand))
        if isinstance(node, ast.BoolOp):
            parts = [bool(value(part)) for part in node.values]
            return int(all(parts) if isinstance(node.op, ast.And) else any(parts))
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mod, ast.Mult)):
            left, right = value(node.left), value(node.right)
            if isinstance(node.op, ast.Mult):
                return left * right
            return left % right if right else 1
        if isinstance(node, ast.Compare) and len(node.ops) == 1:
            left, right, op = value(node.left), value(node.comparators[0]), node.ops[0]
            if isinstance(op, ast.Eq):
                return int(left == right)
            if isinstance(op, ast.NotEq):
                return int(left != right)
            if isinstance(op, ast.Gt):
                return int(left > right)
            if isinstance(op, ast.LtE):
                return int(left <= right)
        raise ValueError(ast.unparse(node))

    return bool(value(ast.parse(test, mode="eval").body))
