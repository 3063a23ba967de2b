"""MegaMoE's prefill token budget (0.5.21+ `validate_mega_moe_token_budget`) where the launch is
not the plain-TP one refusals_megamoe_budget.py judges: the chain splitting the tokens is read
per release with each branch's assignments (`megamoe_token_budget.branches`: `if
cfg.enable_prefill_cp:` over `cfg.attn_cp_size`, then 0.5.21 `elif cfg.enable_dp_attention:`
over `cfg.dp_size` or 0.5.22+ `elif attn_dp_enabled_of(cfg):` over `cfg.attn_dp_size`, then the
`else` with no partition, aligned to the TP size over the attention-CP size), and the branch
taken is evaluated here on the launch's values: the chunk the handler sees (already split by
attention DP in `_handle_data_parallelism`), divided by the partition size, aligned up to the
branch's alignment. Judged where every term is known and each test before the branch taken is
known false; else nothing."""

from __future__ import annotations

from speclint.sglang.resolve.state import Stop, given

TYPE_CHECKING = False
if TYPE_CHECKING:
    import ast
    from typing import Any

    from speclint.sglang.resolve.state import ResolutionState

_ATTENTION_DP = {"cfg.enable_dp_attention": "dp_size", "attn_dp_enabled_of(cfg)": "attn_dp_size"}
"""The branch tests read, and the field each one's attention DP is sized by."""
_BEFORE = {"cfg.enable_prefill_cp": "enable_prefill_cp"}
"""The context-parallel prefill test: taken with the switch on, known not taken with it off."""
_OFF = ("enable_mis", "enable_cp_decode_attn_tp", "encoder_only")
_PARTITION = ("token_partition_size", "token_alignment", "local_chunked_prefill_size")
_DECODE_RETURNS = "cfg.disaggregation_mode == 'decode'"
_PP_RETURNS = "cfg.pp_size > 1 and cfg.enable_dynamic_chunking"


def attention_dp_budget(
    state: ResolutionState, read: dict[str, Any], label: str, limit: int, how: str, fields: tuple[str, ...]
) -> None:
    from speclint.sglang.resolve.ep_join import ep_scale_joiner
    from speclint.sglang.resolve.refusals_a2a_budget import chunk_at_handler

    branch = _branch(state, read.get("branches") or [])
    if (
        branch is None
        or any(given(state, name) not in (None, False) for name in _OFF)
        or given(state, "json_model_override_args") not in (None, "", "{}")
        or ep_scale_joiner(state) is not False
        or not reaches_partition(state, read)
    ):
        return
    size_field, assigned = branch
    chunk = chunk_at_handler(state)
    values: dict[str, int | None] = {
        "cfg.chunked_prefill_size": chunk[0] if chunk is not None else None,
        "cfg.tp_size": _integer(state.get("tp_size")),
        "cfg.attn_cp_size": _cp_size(state),
    }
    if size_field in _ATTENTION_DP.values():
        values[f"cfg.{size_field}"] = _integer(state.get(size_field))
    for name in _PARTITION:
        values[name] = _evaluate(assigned.get(name), values)
    size, alignment, local = (values[name] for name in _PARTITION)
    name = assigned.get("token_partition_name", "")
    if chunk is None or size is None or alignment is None or local is None or local <= 0 or alignment < 1:
        return
    required = (local + alignment - 1) // alignment * alignment
    if limit >= required:
        return
    message = str(read["message"]).format(
        label=label,
        chunk=chunk[0],
        partition=name.strip("'\""),
        partition_size=size,
        alignment=alignment,
        required=required,
        limit=limit,
    )
    split = {
        "attn_cp_size": f"context-parallel prefill over {size} ranks: chunked prefill {chunk[0]} "
        f"({chunk[1]}), split over {size}",
        "": f"no token partition (TP {values['cfg.tp_size']}, attention CP {values['cfg.attn_cp_size']}): "
        f"chunked prefill {chunk[0]} ({chunk[1]})",
    }.get(
        size_field, f"attention DP {size}: chunked prefill {chunk[0]} ({chunk[1]}), split again over {size}"
    )
    raise Stop(
        "ValueError",
        f"{message} (--moe-a2a-backend megamoe with {split} and aligned up to {alignment}, needs {required} "
        f"tokens per rank, {how}; set {read['env']}={required} or more, or lower --chunked-prefill-size)",
        str(read["where"]),
        fields,
    )


def reaches_partition(state: ResolutionState, read: dict[str, Any]) -> bool:
    """The early returns (read) do not return: a prefill-only disaggregation server and
    pipeline parallelism without dynamic chunking reach the partition too."""
    returns = read.get("returns") or []
    mode, pp = given(state, "disaggregation_mode"), given(state, "pp_size")
    if mode not in (None, "null") and not (mode == "prefill" and _DECODE_RETURNS in returns):
        return False
    return pp in (None, 1) or (
        isinstance(pp, int)
        and _PP_RETURNS in returns
        and given(state, "enable_dynamic_chunking") in (None, False)
    )


def _branch(state: ResolutionState, branches: list[Any]) -> tuple[str, dict[str, str]] | None:
    """The branch of the chain the launch takes, with the field sizing its partition ("" for
    the last, `else`, branch); None: a test whose terms are not known, or one not read. A
    context-parallel prefill test is taken with --enable-prefill-cp on, an attention-DP one with
    attention DP on (enabled, or its size above 1); each known off goes on to the next."""
    for test, assigned in branches:
        if not isinstance(assigned, dict):
            return None
        if test is None:
            return "", assigned
        if test in _BEFORE:
            switch = given(state, _BEFORE[test])
            if switch is True:
                return "attn_cp_size", assigned
            if switch not in (None, False):
                return None
            continue
        field = _ATTENTION_DP.get(test)
        if field is None:
            return None
        size = state.get(field)
        enabled = state.get("enable_dp_attention") if field == "dp_size" else size
        if enabled is True or (isinstance(enabled, int) and not isinstance(enabled, bool) and enabled > 1):
            return field, assigned
        if enabled is False or (field != "dp_size" and enabled == 1):
            continue
        return None
    return None


def _integer(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _cp_size(state: ResolutionState) -> int | None:
    size = state.get("attn_cp_size")
    if size is None:
        size = given(state, "attn_cp_size")
    if size is None and not state.config.knows("attn_cp_size"):
        return None
    return size if isinstance(size, int) and not isinstance(size, bool) else None


def _evaluate(text: str | None, values: dict[str, int | None]) -> int | None:
    """An integer expression read from SGLang's source (`a // b`, `+`, `-`, `*`, `max(...)`,
    `cfg.<field>`, a name assigned before it); None where a term is unknown or another form."""
    if text is None:
        return None
    import ast

    try:
        node = ast.parse(text, mode="eval").body
    except SyntaxError:
        return None
    return _value(node, values)


def _value(node: ast.expr, values: dict[str, int | None]) -> int | None:
    import ast

    if isinstance(node, ast.Constant):
        return node.value if isinstance(node.value, int) and not isinstance(node.value, bool) else None
    if isinstance(node, (ast.Name, ast.Attribute)):
        found = values.get(ast.unparse(node))
        return found if isinstance(found, int) and not isinstance(found, bool) else None
    if isinstance(node, ast.BinOp):
        left, right = _value(node.left, values), _value(node.right, values)
        if left is None or right is None:
            return None
        if isinstance(node.op, ast.FloorDiv):
            return left // right if right else None
        operations = {ast.Add: left + right, ast.Sub: left - right, ast.Mult: left * right}
        return operations.get(type(node.op))
    if isinstance(node, ast.Call) and ast.unparse(node.func) == "max" and node.args and not node.keywords:
        terms = [_value(arg, values) for arg in node.args]
        return None if any(t is None for t in terms) else max(t for t in terms if t is not None)
    return None
