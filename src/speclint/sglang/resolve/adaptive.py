"""--speculative-adaptive (0.5.23): SGLang moves among candidate step counts at run time;
resolution sets and checks only the starting parameters (`ReleaseTraits.models_adaptive`)."""

from __future__ import annotations

from speclint.sglang.resolve.result import is_known
from speclint.sglang.resolve.state import Stop

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.resolve.state import ResolutionState

_ADAPTIVE_CANDIDATE_STEPS = (0, 1, 3, 5, 7)
"""0.5.23 `DEFAULT_ADAPTIVE_CONFIG` (speculative/adaptive_spec_params.py): the union of
every batch-size slot's candidate steps, sorted."""


def resolve_adaptive(state: ResolutionState, algorithm: str) -> None:
    """0.5.23 `handle_speculative_decoding`: `_maybe_disable_adaptive` then
    `_init_adaptive_speculative_params`, before the algorithm's own handler. Confirmed by the
    oracle (tests/test_oracle_differential.py): STANDALONE + --speculative-adaptive falls
    back to the static parameters and their partial-triple AssertionError / TypeError."""
    adaptive = state.get("speculative_adaptive")
    if not is_known(adaptive):
        return  # the eagle handler marks the parameters unknown
    topk = state.get("speculative_eagle_topk")
    others = {
        name: state.config.value(name, False)
        for name in ("enable_multi_layer_eagle", "enable_two_batch_overlap", "enable_pdmux")
    }
    reason = None
    if algorithm not in ("EAGLE", "EAGLE3"):
        reason = f"speculative_algorithm={algorithm} (only EAGLE/EAGLE3 are supported)"
    elif not is_known(topk) or any(not is_known(v) or not state.config.known(n) for n, v in others.items()):
        state.set_unknown("speculative_adaptive", "depends on a value speclint cannot read")
        return
    elif topk is not None and topk != 1:
        reason = f"speculative_eagle_topk={topk} (only topk=1 is supported)"
    elif state.attention_dp():
        reason = "attention DP is not supported"
    elif any(v is True for v in others.values()):
        reason = next(f"{n}=True is not supported" for n, v in others.items() if v is True)
    if reason is not None:
        state.set(
            "speculative_adaptive",
            False,
            f"adaptive speculative decoding is off: {reason}",
            "_maybe_disable_adaptive",
            f"speculative_adaptive disabled: {reason}. Falling back to static speculative params.",
        )
        return
    handler = "_init_adaptive_speculative_params"
    if state.config.value("speculative_adaptive_config") is not None or not state.config.known(
        "speculative_adaptive_config"
    ):
        state.set_unknown("speculative_adaptive", "candidate steps come from --speculative-adaptive-config")
        return
    if topk is None:
        state.set("speculative_eagle_topk", 1, "adaptive speculative decoding uses topk 1", handler)
    steps = state.get("speculative_num_steps")
    if steps is None:
        steps = _ADAPTIVE_CANDIDATE_STEPS[len(_ADAPTIVE_CANDIDATE_STEPS) // 2]
        state.set(
            "speculative_num_steps",
            steps,
            "adaptive speculative decoding starts at the middle candidate step count",
            handler,
        )
    if not is_known(steps):
        return
    if steps not in _ADAPTIVE_CANDIDATE_STEPS:
        raise Stop(
            "ValueError",
            f"--speculative-num-steps={steps} is not in the adaptive config "
            f"candidate_steps {list(_ADAPTIVE_CANDIDATE_STEPS)}. Pass one of those values.",
            handler,
            ("speculative_num_steps",),
        )
    state.set(
        "speculative_num_draft_tokens",
        steps + 1,
        "adaptive speculative decoding verifies steps + 1 tokens",
        handler,
    )
