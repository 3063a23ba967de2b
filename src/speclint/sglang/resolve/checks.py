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
    # modules, not names: `from M import name` in a function asks the module M for a
    # `__path__` it lacks on each call, an AttributeError made and dropped (~3 K instructions)
    import speclint.sglang.resolve.refusals as refusals
    import speclint.sglang.resolve.refusals_features as features

    _deepep_auto_mode(state)
    _cuda_graph_backend_allowed(state)
    refusals.check_refusals(state)  # handlers that run before check_server_args's own asserts
    features.check_torch_compile_padding(state)
    _pipeline_parallel(state)
    _pipeline_parallel_speculative(state)
    _multinode_data_parallel(state)
    _two_batch_overlap(state)
    _eplb_needs_expert_parallelism(state)
    _lora_without_adapters(state)
    _prefill_fake_transfer(state)
    page = state.get("page_size")
    # (chunk % 1 is 0; a page size speclint cannot resolve: 0.4.4-0.4.9.post3 check the sizes
    # as given, chunked_page.py)
    if not (isinstance(page, int) and not isinstance(page, bool) and page <= 1):
        import speclint.sglang.resolve.chunked_page as chunked_page

        chunked_page.check_chunked_prefill_page(state)
    features.check_pdmux(state)
    import speclint.sglang.resolve.override_json as override_json  # (after launch: ModelConfig)

    override_json.check_override_json(state)


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


def _cuda_graph_backend_allowed(state: ResolutionState) -> None:
    """0.5.14+ `_validate_cuda_graph_config`: after the CUDA-graph config is resolved, a phase's
    backend outside the release's `ALLOWED_BACKENDS_PER_PHASE` is a ValueError (0.5.14: a
    prefill `full`); read per release by tools/gen_sglang_value_types.py (`backends`). Only
    the prefill phase, whose backend speclint resolves (`cuda_graph_backend_prefill`)."""
    backend = state.get("cuda_graph_backend_prefill")
    if not is_known(backend) or not isinstance(backend, str):
        return
    import speclint.sglang.flags.value_types as value_types

    schema = value_types.config_schema(state.checked_version)
    allowed = (schema or {}).get("backends", {}).get("prefill")
    if allowed is None or backend in allowed:
        return
    from speclint.sglang.resolve.hardware_flags import json_prefill_backend

    raise Stop(
        "ValueError",
        f"--cuda-graph-config[prefill].backend={backend!r} not allowed; allowed: {tuple(allowed)}",
        "_validate_cuda_graph_config",
        ("cuda_graph_config",) if json_prefill_backend(state) == backend else ("cuda_graph_backend_prefill",),
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


_TBO = {
    "a2a": "When enabling two batch overlap, moe_a2a_backend cannot be 'none'.",
    "a2a_or_dp_attention": "When enabling two batch overlap without an EP a2a backend "
    "(moe_a2a_backend='none'), --enable-dp-attention is required (DeepSeek-V4 non-EP DP TBO path).",
    "a2a_or_attn_dp": "When enabling two batch overlap without an EP a2a backend "
    "(moe_a2a_backend='none'), attention DP (--attn-dp-size) is required (DeepSeek-V4 non-EP DP "
    "TBO path).",
}


def _two_batch_overlap(state: ResolutionState) -> None:
    """`_check_two_batch_overlap` (`ReleaseTraits.tbo_check`): two-batch overlap without an
    all-to-all backend needs DP attention (0.5.15+) or is refused (0.5.7-0.5.14). Skipped where
    an exception speclint does not read may apply (0.5.18-0.5.19's HIP DSA context parallel,
    0.5.23's elastic-EP scale joiner)."""
    check, config = state.traits.tbo_check, state.config
    if (
        not check
        or not config.knows("enable_two_batch_overlap")
        or not config.known("enable_two_batch_overlap")
    ):
        return
    if config.value("enable_two_batch_overlap") is not True or state.get("moe_a2a_backend") != "none":
        return
    for name, value in (("enable_dsa_prefill_context_parallel", True), ("ep_join_mode", "scale")):
        if config.knows(name) and (not config.known(name) or config.value(name) == value):
            return
    if check == "a2a_or_dp_attention" and state.get("enable_dp_attention") is not False:
        return
    if check == "a2a_or_attn_dp":
        attn_dp = state.get("attn_dp_size")
        if not isinstance(attn_dp, int) or attn_dp > 1:
            return
    raise Stop("ValueError", _TBO[check], "check_server_args", ("enable_two_batch_overlap",))


def _eplb_needs_expert_parallelism(state: ResolutionState) -> None:
    """`_handle_eplb_and_dispatch` (`ReleaseTraits.eplb_check`): --enable-eplb asserts, with
    no message, that experts are spread: ep_size > 1 (0.5.x; 0.5.16+ unless --ep-join-mode
    scale), or an all-to-all backend (0.4.10.post2), or --enable-ep-moe/--enable-deepep-moe
    (0.4.10)."""
    check, config = state.traits.eplb_check, state.config
    if not check or not config.knows("enable_eplb") or not config.known("enable_eplb"):
        return
    if config.value("enable_eplb") is not True:
        return
    if check == "ep_unless_scale" and config.knows("ep_join_mode"):
        if not config.known("ep_join_mode") or config.value("ep_join_mode") == "scale":
            return
    if check == "ep_moe_flags":
        flags = [
            config.value(n) if config.knows(n) and config.known(n) else None
            for n in ("enable_ep_moe", "enable_deepep_moe")
        ]
        if None in flags or True in flags:
            return
    else:
        ep = state.get("ep_size")
        if not isinstance(ep, int) or ep > 1:
            return
        if check == "ep_or_a2a" and state.get("moe_a2a_backend") is not None:
            return
    raise Stop("AssertionError", "", "_handle_eplb_and_dispatch", ("enable_eplb",))


def _lora_without_adapters(state: ResolutionState) -> None:
    """`check_lora_server_args` (0.4.10+, `ReleaseTraits.lora_needs_rank_and_modules`):
    `assert lora_paths or (max_lora_rank and lora_target_modules)` once LoRA is enabled."""
    config = state.config
    if not state.traits.lora_needs_rank_and_modules or not config.knows("enable_lora"):
        return
    names = ("enable_lora", "lora_paths", "max_lora_rank", "lora_target_modules")
    if any(config.knows(n) and not config.known(n) for n in names):
        return
    if config.value("enable_lora") is not True or config.value("lora_paths"):
        return
    if config.value("max_lora_rank") and config.value("lora_target_modules"):
        return
    raise Stop(
        "AssertionError",
        "When no initial --lora-paths is provided, you need to specify both --max-lora-rank "
        "and --lora-target-modules for LoRA initialization.",
        "check_lora_server_args",
        ("enable_lora",),
    )


def _prefill_fake_transfer(state: ResolutionState) -> None:
    """`_handle_disaggregation` (`ReleaseTraits.prefill_refuses_fake_transfer`): the fake
    transfer backend only serves decode nodes."""
    config = state.config
    names = ("disaggregation_mode", "disaggregation_transfer_backend")
    if not state.traits.prefill_refuses_fake_transfer or not all(
        config.knows(n) and config.known(n) for n in names
    ):
        return
    if config.value(names[0]) == "prefill" and config.value(names[1]) == "fake":
        raise Stop(
            "AssertionError",
            "Prefill server does not support 'fake' as the transfer backend",
            "_handle_disaggregation",
            ("disaggregation_transfer_backend",),
        )
