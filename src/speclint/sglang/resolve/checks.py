"""`check_server_args`: the checks a launch runs right after resolution, before any process
starts (engine.py `_launch_subprocesses`). Recorded per release by tools/oracle; the node
split (`node_split_rejection`, PAR005) is reported by its rule instead."""

from __future__ import annotations

from speclint.sglang.resolve.result import is_known
from speclint.sglang.resolve.state import Stop

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.resolve.state import ResolutionState


def deprecated_actions(state: ResolutionState) -> None:
    """Releases whose argparse `DeprecatedAction` raises `ValueError(help)` while parsing
    (`ReleaseTraits.deprecated_action_raises`): a retired flag on the command line stops
    the launch before any resolution."""
    if not state.traits.deprecated_action_raises:
        return
    for use in state.config.parsed.uses:
        spec = use.spec
        if (
            spec is not None
            and spec.action_class == "DeprecatedAction"
            and use.how not in ("ambiguous", "unknown")
        ):
            raise Stop("ValueError", spec.help, "DeprecatedAction (argparse)", (spec.dest,))


def check_server_args(state: ResolutionState) -> None:
    _deepep_auto_mode(state)
    _pipeline_parallel(state)
    _pipeline_parallel_speculative(state)
    _multinode_data_parallel(state)


_MULTINODE_DP = {
    "any": "multi-node data parallel is not supported",
    "unless_dp_attention": "multi-node data parallel is not supported unless dp attention!",
    "replicas": "multi-node data-parallel replicas are not supported; use attention DP "
    "(--attn-dp-size) across nodes",
}


def _multinode_data_parallel(state: ResolutionState) -> None:
    """`assert not (dp_size > 1 and nnodes != 1 [and not enable_dp_attention])`, on the
    resolved values (`ReleaseTraits.multinode_dp_check`; confirmed by tools/oracle on 0.4.0,
    0.4.6, 0.5.14, 0.5.21, 0.5.23)."""
    check = state.traits.multinode_dp_check
    dp, nnodes = state.get("dp_size"), state.get("nnodes")
    if not isinstance(dp, int) or not isinstance(nnodes, int) or dp <= 1 or nnodes == 1:
        return
    fields: tuple[str, ...] = ("dp_size", "nnodes")
    if check == "unless_dp_attention":
        attention = state.get("enable_dp_attention")
        if attention is not False:  # on, or unknown
            return
    raise Stop("AssertionError", _MULTINODE_DP[check], "check_server_args", fields)


def _pipeline_parallel_speculative(state: ResolutionState) -> None:
    """0.5.23 validation_hook.py `check_pipeline_parallel_compat`: with --pp-size > 1 only
    EAGLE (not multi-layer) drafts, and (without SGLANG_ENABLE_PP_SPEC) only on prefill
    nodes (`ReleaseTraits.pp_speculative_prefill_only`)."""
    pp, algorithm = state.get("pp_size"), state.get("speculative_algorithm")
    if (
        not state.traits.pp_speculative_prefill_only
        or not isinstance(pp, int)
        or pp <= 1
        or algorithm is None
        or not is_known(algorithm)
        or algorithm == "DSPARK"
    ):
        return
    config = state.config
    names = ("enable_multi_layer_eagle", "disaggregation_mode")
    if any(config.knows(n) and not config.known(n) for n in names) or "SGLANG_ENABLE_PP_SPEC" in state.env:
        return
    if str(algorithm).upper() != "EAGLE" or config.value("enable_multi_layer_eagle") is True:
        raise Stop(
            "AssertionError",
            "Pipeline parallelism currently only supports EAGLE (non-multi-layer) speculative decoding",
            "check_server_args",
            ("pp_size", "speculative_algorithm"),
        )
    if config.value("disaggregation_mode", "null") != "prefill":
        raise Stop(
            "AssertionError",
            "PP + speculative decoding (MTP) is only supported on "
            "prefill nodes (disaggregation-mode=prefill)",
            "check_server_args",
            ("pp_size", "speculative_algorithm"),
        )


def _deepep_auto_mode(state: ResolutionState) -> None:
    """0.4.6 `__post_init__`: `--enable-deepep-moe` in `--deepep-mode auto` (the default)
    asserts that DP attention is off (`ReleaseTraits.deepep_auto_refuses_dp_attention`)."""
    if not state.traits.deepep_auto_refuses_dp_attention:
        return
    config = state.config
    if not all(config.knows(n) and config.known(n) for n in ("enable_deepep_moe", "deepep_mode")):
        return
    if (
        config.value("enable_deepep_moe") is True
        and config.value("deepep_mode") == "auto"
        and state.get("enable_dp_attention") is True
    ):
        raise Stop(
            "AssertionError",
            "DeepEP MoE `auto` mode is not supported with DP Attention.",
            "__post_init__",
            ("enable_deepep_moe", "enable_dp_attention"),
        )


def _pipeline_parallel(state: ResolutionState) -> None:
    """`assert disable_overlap_schedule and speculative_algorithm is None [and not
    enable_mixed_chunk]` when pp_size > 1 (0.4.x - 0.5.14; `ReleaseTraits.pp_refuses`)."""
    refused = state.traits.pp_refuses
    pp = state.get("pp_size")
    if not refused or not isinstance(pp, int) or pp <= 1:
        return
    given = []
    for name in refused:
        value = state.get(name)
        if not is_known(value):
            return
        if (value is not None) if name == "speculative_algorithm" else value is True:
            given.append(name)
    if given:
        parts = {
            "speculative_algorithm": "speculative decoding",
            "enable_mixed_chunk": "mixed chunked prefill",
        }
        listed = ", ".join(["overlap schedule"] + [parts[n] for n in refused])
        raise Stop(
            "AssertionError",
            f"Pipeline parallelism is not compatible with {listed}"
            + ("." if "enable_mixed_chunk" in refused else ""),
            "check_server_args",
            ("pp_size", *given),
        )
