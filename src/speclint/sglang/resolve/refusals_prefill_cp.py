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
