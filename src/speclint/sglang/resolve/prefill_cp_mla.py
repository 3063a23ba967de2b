"""--enable-prefill-cp on an MLA target (DeepSeek-V3, Kimi-K2.5): SGLang's DeepSeek model
override sets MLA context parallelism up itself (0.5.23 `model_overrides/deepseek_v2.py`,
`if cfg.enable_prefill_cp and use_mla_backend(server_args):` declaring the attention-DP and
attention-CP sizes, --dp-size 1, the MoE all-to-all backend deepep, the expert-parallel size and
the dense-MoE TP size). The fields it sets are read per release (`mla_prefill_cp` of
data/sglang_server_checks.json, tools/sglang_mla_prefill_cp.py: 0.5.14+): a literal, a field
copied (ep_size the TP size) or integer arithmetic on the fields as the block found them
(0.5.14-0.5.21 attn_cp_size `tp_size // dp_size`; 0.5.22+ attn_dp_size `attn_dp_size * dp_size`
and attn_cp_size the TP size over it).

The override runs in `handle_model_specific_adjustments`, before the data-parallelism, context-
parallelism and all-to-all handlers (0.5.14 `__post_init__`, 0.5.23 `pipeline.py`), so
`apply_mla_prefill_cp` sets its values where speclint's parallel step starts (parallel.py), and
those handlers see them: 0.5.14-0.5.21 turn its enable_dp_attention back off at dp_size 1, 0.5.23
asserts the TP size divisible by its attention-DP size, attention DP splits the chunked prefill.
Where --enable-prefill-cp is maybe given, or the release has no reading, `mark_mla_prefill_cp`
(after the steps) leaves the fields it may set unknown, with the cause.

Oracle (record.py --generator a2a_cp, seed 22005 on 0.5.21-0.5.23 and 22006 on 0.5.14, 0.5.17,
0.5.19 and 0.5.20, fake H100 and B200): DeepSeek-V3 with --enable-prefill-cp resolved
--moe-a2a-backend megamoe and none to deepep and ep_size 1 to the TP size, and its MegaMoE token
budget was not checked; --moe-dp-size draws (seed 23009 on 0.5.14, 0.5.19, 0.5.22, 0.5.23 and
24009 on 0.5.20, 0.5.21): with ep_size the TP size, the context-parallelism handler's
`ep_size * moe_dp_size <= tp_size` refusals are all said, no value difference; --generator
prefill_cp (seed 25002 on 0.5.13-0.5.23: DeepSeek-V3 and Kimi-K2.5 under --dp-size,
--attn-dp-size, --attn-cp-size): the attention CP and DP sizes as stated here."""

from __future__ import annotations

from speclint.sglang.resolve.result import MLA_PREFILL_CP, Unknown

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.resolve.state import ResolutionState

UNREAD = "set from a value speclint cannot read"
REWRITTEN = ("moe_a2a_backend", "ep_size", "attn_dp_size", "dp_size", "attn_cp_size", "moe_dense_tp_size")
"""The fields the override sets in some release: unknown where speclint cannot tell whether it
runs, or what it sets."""


SWITCHES = ("enable_prefill_cp", "enable_prefill_context_parallel")
"""The field the block tests (its reading's "switch": 0.5.13 enable_prefill_context_parallel)."""


def _switch_name(state: ResolutionState) -> str:
    from speclint.sglang.resolve.chunked_page import server_check

    read = server_check(state.checked_version, "mla_prefill_cp")
    return str(read.get("switch", SWITCHES[0])) if isinstance(read, dict) else SWITCHES[0]


def _switch(state: ResolutionState) -> bool | None:
    """Whether the override's block runs: True, False, or None (its switch maybe given)."""
    from speclint.sglang.resolve.hardware_flags import MLA_ARCHITECTURES

    name = _switch_name(state)
    if state.target_architecture not in MLA_ARCHITECTURES or not state.config.maybe_given(name):
        return False
    if not state.config.known(name):
        return None
    return state.config.value(name, False) is True


def _reason(state: ResolutionState) -> str:
    flag = "--" + _switch_name(state).replace("_", "-")
    return (
        f"{flag} on {state.target_architecture} (MLA attention): SGLang "
        f"{state.checked_version}'s DeepSeek model override sets MLA context parallelism up"
    )


def apply_mla_prefill_cp(state: ResolutionState) -> None:
    """The override's block, where it runs (before the data-parallelism handler): each field it
    sets gets the value read, with the cause (result.MLA_PREFILL_CP); a value speclint does not
    read (an "unread" entry, a term unknown) is unknown, with the cause."""
    from speclint.sglang.resolve.chunked_page import server_check

    if _switch(state) is not True:
        return
    read = server_check(state.checked_version, "mla_prefill_cp")
    if not isinstance(read, dict):
        return  # `mark_mla_prefill_cp` says what is unknown
    before = dict(state.values)  # the fields as the block finds them
    _check_asserts(state, read.get("asserts"), before)
    where = str(read["where"])
    logged = read.get("logged") if isinstance(read.get("logged"), str) else None
    reason = _reason(state)
    for entry in read["sets"]:
        name = str(entry[0])
        value = _value(before, entry)
        if value is None:
            state.mark_unknown(name, f"{reason} (a value speclint does not read)")
            continue
        if name not in state.values and state.config.knows(name):  # (a field speclint does not track)
            state.values[name] = state.asked[name] = (
                state.config.value(name) if state.config.known(name) else Unknown(UNREAD)
            )
        state.set(name, value, reason, where, logged, cause=MLA_PREFILL_CP)


def _check_asserts(state: ResolutionState, asserts: object, values: dict[str, object]) -> None:
    """The asserts of the helper the block calls (0.5.22+ `context_parallel_attn_dp_size`: not
    --dp-size and --attn-dp-size both above 1), judged where each term is a known integer."""
    from speclint.sglang.resolve.refusals_prefill_cp import field_names, holds
    from speclint.sglang.resolve.state import Stop

    for test, message, helper in asserts if isinstance(asserts, list) else ():
        if test == "unread":
            return  # what it asserts is not read: nothing said from here on
        names = field_names(str(test))
        terms: dict[str, object] = {name: _integer(values.get(name)) for name in names}
        if any(value is None for value in terms.values()):
            return
        try:
            if holds(str(test), terms):
                continue
        except ValueError:  # a comparison `holds` does not evaluate: nothing said from here on
            return
        said = str(message).format(**terms) if isinstance(message, str) else ""
        raise Stop("AssertionError", said, str(helper), tuple(sorted(names)))


def mark_mla_prefill_cp(state: ResolutionState) -> None:
    """After the steps: where the block maybe runs (--enable-prefill-cp maybe given), or runs in a
    release whose block is not read, the fields it may set are unknown, with the cause; what
    speclint's own steps said of them no longer holds."""
    from speclint.sglang.resolve.chunked_page import server_check

    switch = _switch(state)
    if switch is False:
        return
    read = server_check(state.checked_version, "mla_prefill_cp")
    if switch is True and isinstance(read, dict):
        # `apply_mla_prefill_cp` set them up; a field a later handler set back (0.5.14-0.5.21
        # enable_dp_attention, off again at dp_size 1) shows no change
        back = {a.field for a in state.adjustments if a.cause == MLA_PREFILL_CP}
        back = {name for name in back if _same(state.values.get(name), state.asked.get(name))}
        if back:
            state.adjustments[:] = [a for a in state.adjustments if a.field not in back]
        return
    sets = read.get("sets") if isinstance(read, dict) else None
    written = set(REWRITTEN) | {str(entry[0]) for entry in sets or ()}
    state.adjustments[:] = [a for a in state.adjustments if a.field not in written]
    reason = f"{_reason(state)}, which speclint does not model" + (
        f" (--{_switch_name(state).replace('_', '-')} may be given)" if switch is None else ""
    )
    for name in sorted(written):
        state.mark_unknown(name, reason)


def _value(values: dict[str, object], entry: list[object]) -> object:
    """A field the override sets: its constant, the value of the field it copies, or its integer
    arithmetic on the fields (`values`); None where speclint does not read it."""
    _, kind, value = entry
    if kind == "constant":
        return value
    if kind == "field" and isinstance(value, str):
        return _integer(values.get(value))
    if kind == "expression" and isinstance(value, str):
        return _evaluate(value, values)
    return None


def _same(value: object, asked: object) -> bool:
    return type(value) is type(asked) and value == asked and not isinstance(value, Unknown)


def _integer(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _evaluate(text: str, values: dict[str, object]) -> int | None:
    """`text` (field names, integers, `//`, `*`, as tools/sglang_mla_prefill_cp.py writes it) on
    `values`; None where a term is not a known integer or a divisor is 0."""
    import ast

    def value(node: ast.expr) -> int | None:
        if isinstance(node, ast.Constant):
            return _integer(node.value)
        if isinstance(node, ast.Name):
            return _integer(values.get(node.id))
        if isinstance(node, ast.BinOp):
            left, right = value(node.left), value(node.right)
            if left is None or right is None:
                return None
            if isinstance(node.op, ast.Mult):
                return left * right
            if isinstance(node.op, ast.FloorDiv) and right != 0:
                return left // right
        return None

    return value(ast.parse(text, mode="eval").body)
