"""SGLang's parallel layout: the sizes it rewrites, rejects and the GPUs it then opens.

Read per release in `server_args.py` (`__post_init__`, `_handle_data_parallelism`,
`_handle_a2a_moe`, `check_server_args`), in 0.5.23's `arg_groups/parallel_hook.py`
(`handle_deprecated_dp_attention`, `handle_data_parallelism`), `overrides.py`
(`_a2a_backend_overrides`, `_a2a_ep_size`), `mega_moe_hook.py` and `validation_hook.py`,
and in each release's `entrypoints/engine.py` / `managers/data_parallel_controller.py` for
which GPU index every worker selects.
"""

from __future__ import annotations

from speclint.sglang import release
from speclint.sglang.resolve.parallel_a2a import a2a_moe, untracked_flag
from speclint.sglang.resolve.result import Unknown, is_known
from speclint.sglang.resolve.state import Stop
from speclint.sglang.server_checks import cli_copies

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.flags.launch_config import LaunchConfig
    from speclint.sglang.release_traits import ReleaseTraits
    from speclint.sglang.resolve.state import ResolutionState


DATA_PARALLEL_HANDLERS = ("_handle_data_parallelism", "__post_init__")
"""Where the tp/attention-DP checks raise; rules tell their rejections apart by these."""


def own_traits(version: str) -> ReleaseTraits | None:
    """`version`'s own traits, None when it is not modelled. The public helpers below get the
    linted release, not the modelled one the resolver used, and answer an unmodelled one as
    if no release matched (no spanning backends, WARNING, attention DP from `dp_size`,
    replicas offset over pp). Kept as it was; following `traits_for` may be the intent."""
    return release(version).own_traits


def cli_dest(config: LaunchConfig, name: str) -> str | None:
    """The dest argparse fills for field `name` in this release, or None when it has none."""
    if config.knows(name):
        return name
    alias = cli_copies(config.version).get(name)
    return alias if alias is not None and config.knows(alias) else None


def a2a_spanning_backends(version: str) -> tuple[str, ...]:
    traits = own_traits(version)
    return tuple(traits.a2a_spanning) if traits is not None else ()


def resolve_parallel(state: ResolutionState) -> None:
    _copy_cli_aliases(state)
    steps = state.traits.parallel_steps
    dummy = _dummy_model(state)
    if steps == "post_init":
        _post_init_0_4_10(state)
    elif steps == "post_init_dp_is_tp":
        _post_init_dp_is_tp(state)
    elif steps == "handlers":
        _moe_runner_alias(state)  # 0.5.18-0.5.22: first in `__post_init__` / the pipeline
        if state.traits.deprecated_moe_flags:
            _deprecated_moe_flags(state, "__post_init__")
        if not dummy:  # `__post_init__` returns before its handlers for a dummy model
            from speclint.sglang.moe_readings import a2a_handler

            _mla_prefill_cp(state)
            _data_parallelism_0_5(state)
            a2a_moe(state, a2a_handler(state.checked_version))  # 0.5.19+: handle_a2a_moe
    elif steps == "hooks":
        _deprecated_dp_attention(state)
        _moe_runner_alias(state)
        if not dummy:  # `run_resolution_pipeline` returns early for a dummy model
            _mla_prefill_cp(state)
            _data_parallelism_0_5_23(state)
            a2a_moe(state, "_a2a_ep_size")


def _mla_prefill_cp(state: ResolutionState) -> None:
    """`handle_model_specific_adjustments`' MLA prefill-CP block (0.5.14+), before the handlers
    below (imported only where --enable-prefill-cp may be given)."""
    if state.config.maybe_given("enable_prefill_cp") or state.config.maybe_given(
        "enable_prefill_context_parallel"
    ):
        from speclint.sglang.resolve.prefill_cp_mla import apply_mla_prefill_cp

        apply_mla_prefill_cp(state)


def _copy_cli_aliases(state: ResolutionState) -> None:
    """`from_cli_args`: `args.tp_size = args.tensor_parallel_size` (0.4.10.post2, 0.5.6.post2)."""
    for name, alias in cli_copies(state.checked_version).items():
        if state.config.knows(name) or not state.config.knows(alias):
            continue
        setting = state.config.get(alias)
        value = Unknown("set from a value speclint cannot read") if setting.dynamic else setting.value
        state.values[name] = value
        state.asked[name] = value


def int_or_none(value: object) -> int | None:
    """An int value (not a bool), else None (unset or unknown)."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _dummy_model(state: ResolutionState) -> bool:
    path = state.get("model_path")
    return isinstance(path, str) and path.lower() in ("none", "dummy")


_DP_ATTENTION_DEPRECATED = (
    "argparse's deprecation warning for --enable-dp-attention, at parse "
    "time (the flag's DeprecatedStoreTrueAction)"
)
"""The log of the rewrite: the flag's action warns when argparse meets it (the schema records
the action class), nothing after."""


def _deprecated_dp_attention(state: ResolutionState) -> None:
    """0.5.23 `handle_deprecated_dp_attention`: `--dp-size N --enable-dp-attention` becomes
    `--attn-dp-size N --dp-size 1`; next to `--attn-dp-size` > 1 the flag does nothing. The
    only log is argparse's `DeprecatedStoreTrueAction` line at parse time."""
    handler = "_handle_deprecated_dp_attention"
    flag = state.get("enable_dp_attention")
    if flag is not True:
        if isinstance(flag, Unknown):
            for name in ("attn_dp_size", "dp_size", "enable_dp_attention"):
                state.set_unknown(name, flag.reason)
        return
    attn = state.get("attn_dp_size")
    if not is_known(attn):
        state.set_unknown(
            "dp_size", "--attn-dp-size is not readable, so the --enable-dp-attention rewrite is unknown"
        )
    elif attn == 1:
        state.set(
            "attn_dp_size",
            state.get("dp_size"),
            "--enable-dp-attention is deprecated: its --dp-size becomes --attn-dp-size",
            handler,
        )
        state.set(
            "dp_size", 1, "--enable-dp-attention is deprecated: --dp-size counts replicas again", handler
        )
    # Resolution leaves the field False; only `resolved_dict()` reports `attn_dp_size > 1`.
    # The one log line is argparse's, at parse time (PAR003 says the same).
    state.set(
        "enable_dp_attention",
        False,
        "--enable-dp-attention is replaced by --attn-dp-size",
        handler,
        _DP_ATTENTION_DEPRECATED,
    )


def _moe_runner_alias(state: ResolutionState) -> None:
    """0.5.18+ `handle_moe_runner_backend_alias` (read per release: `moe_runner_alias`, first in
    resolution): `--moe-runner-backend megamoe` means `--moe-a2a-backend megamoe` and the auto
    runner."""
    import speclint.sglang.moe_readings as moe_readings

    read = moe_readings.moe_runner_alias(state.checked_version)
    runner = untracked_flag(state, "moe_runner_backend")
    if read is None or runner != read[0]:
        return
    backend, why = state.get("moe_a2a_backend"), f"--moe-runner-backend {runner} is an alias"
    for field, value in read[1].items():
        logged = (
            f"--moe-runner-backend {runner} is an alias for --moe-a2a-backend {value}; "
            f"overriding --moe-a2a-backend {backend}."
            if field == "moe_a2a_backend" and backend not in ("none", value)
            else None
        )
        if field == "moe_a2a_backend":
            state.set(field, value, f"{why} for --moe-a2a-backend {value}", read[2], logged)


def _data_parallelism_0_5_23(state: ResolutionState) -> None:
    """0.5.23 `handle_data_parallelism` (parallel_hook.py)."""
    handler = "_handle_data_parallelism"
    tp, dp, attn = (int_or_none(state.get(n)) for n in ("tp_size", "dp_size", "attn_dp_size"))
    if attn is None:
        return
    if attn < 1:
        raise Stop("ValueError", f"--attn-dp-size must be positive (got {attn}).", handler, ("attn_dp_size",))
    if attn > 1 and dp is not None and dp > 1:
        raise Stop(
            "ValueError",
            f"--dp-size {dp} with --attn-dp-size {attn}: data-parallel "
            "replicas combined with attention data parallelism are not supported.",
            handler,
            ("dp_size", "attn_dp_size"),
        )
    if attn > 1 and tp is not None and tp % attn:
        # `assert cfg.tp_size % cfg.attn_dp_size == 0`, with no message
        raise Stop("AssertionError", "", handler, ("tp_size", "attn_dp_size"))


def _data_parallelism_0_5(state: ResolutionState) -> None:
    """0.5.6.post2 / 0.5.14 `_handle_data_parallelism`: with `dp_size == 1` attention DP
    (and the DP LM head) is switched off without a log line."""
    handler = "_handle_data_parallelism"
    dp, tp = int_or_none(state.get("dp_size")), int_or_none(state.get("tp_size"))
    enabled = state.get("enable_dp_attention")
    if dp is None:
        if enabled is True:
            state.set_unknown("enable_dp_attention", "--dp-size is not readable")
        return
    if dp == 1:
        state.set(
            "enable_dp_attention", False, "--enable-dp-attention with --dp-size 1 is turned off", handler
        )
        if untracked_flag(state, "enable_dp_lm_head") is True:
            if state.traits.dp_lm_head_asserts:
                raise Stop(
                    "AssertionError",
                    "Please enable dp attention when setting enable_dp_lm_head. ",
                    handler,
                    ("enable_dp_lm_head", "dp_size"),
                )
            state.set(
                "enable_dp_lm_head", False, "--enable-dp-lm-head with --dp-size 1 is turned off", handler
            )
    elif enabled is True and tp is not None and tp % dp:
        # `assert self.tp_size % self.dp_size == 0`, with no message
        raise Stop("AssertionError", "", handler, ("tp_size", "dp_size"))
    elif enabled is False and untracked_flag(state, "enable_dp_lm_head") is True:
        # data-parallel replicas: the flag is kept, and asserts attention DP
        raise Stop(
            "AssertionError",
            "Please enable dp attention when setting enable_dp_lm_head. ",
            handler,
            ("enable_dp_lm_head", "dp_size"),
        )


def _post_init_0_4_10(state: ResolutionState) -> None:
    """0.4.10.post2 `ServerArgs.__post_init__`, in its order: the deprecated MoE flags, the
    DP-attention block, then DeepEP."""
    handler = "__post_init__"
    tp = state.get("tp_size")
    _deprecated_moe_flags(state, handler)
    dp = int_or_none(state.get("dp_size"))
    if state.get("enable_dp_attention") is True and dp is not None:
        if dp <= 1:
            raise Stop(
                "AssertionError",
                "Please set a dp-size > 1. You can use 1 < dp-size <= tp-size ",
                handler,
                ("enable_dp_attention", "dp_size"),
            )
        if (tp_size := int_or_none(tp)) is not None and tp_size % dp:
            raise Stop("AssertionError", "", handler, ("tp_size", "dp_size"))
    a2a_moe(state, handler)


def _post_init_dp_is_tp(state: ResolutionState) -> None:
    """0.4.0 `ServerArgs.__post_init__`: the backend is FlashInfer's when it is installed
    (`is_flashinfer_available()`), else triton; DP attention makes the DP size the TP size
    and turns the overlap scheduler off (one warning); then --enable-ep-moe (0.4.0.post1+)
    sets the EP size to the TP size."""
    handler = "__post_init__"
    if state.get("attention_backend") is None:
        state.set_unknown(
            "attention_backend",
            f"SGLang {state.version} picks flashinfer when FlashInfer is installed, else triton",
        )
    if state.get("enable_dp_attention") is True:
        _dp_attention_is_tp(state, handler)
    ep_moe = untracked_flag(state, "enable_ep_moe")
    if isinstance(ep_moe, Unknown):
        state.set_unknown("ep_size", "--enable-ep-moe is not readable")
    elif ep_moe is True and state.traits.ep_moe_sets_ep_size:
        tp = state.get("tp_size")
        state.set(
            "ep_size",
            tp,
            "--enable-ep-moe sets the expert parallel size to the tensor parallel size",
            handler,
            "EP MoE is enabled. The expert parallel size is adjusted to be the same as the "
            f"tensor parallel size[{tp}].",
        )


def _dp_attention_is_tp(state: ResolutionState, handler: str) -> None:
    off = state.traits.dp_attention_disables_overlap  # 0.4.1.post7+ keep the overlap scheduler
    message = "DP attention is enabled. ... Data parallel size is adjusted to be the same as tensor " + (
        "parallel size. Overlap scheduler is disabled." if off else "parallel size. "
    )
    state.set(
        "dp_size", state.get("tp_size"), "DP attention sets the DP size to the TP size", handler, message
    )
    if off:
        state.set(
            "disable_overlap_schedule", True, "DP attention turns the overlap scheduler off", handler, message
        )


def _deprecated_moe_flags(state: ResolutionState, handler: str) -> None:
    """`__post_init__`'s first lines (0.4.x, 0.5.2: `ReleaseTraits.deprecated_moe_flags`):
    --enable-ep-moe sets ep_size = tp_size (not in 0.4.10: `ep_moe_sets_ep_size`; 0.4.10.post1:
    only with --enable-flashinfer-cutlass-moe, `cutlass_moe_ep_size`), --enable-deepep-moe the
    deepep all-to-all."""
    cutlass = (
        state.traits.cutlass_moe_ep_size and untracked_flag(state, "enable_flashinfer_cutlass_moe") is True
    )
    if untracked_flag(state, "enable_ep_moe") is True and (state.traits.ep_moe_sets_ep_size or cutlass):
        state.set(
            "ep_size",
            state.get("tp_size"),
            ("with --enable-flashinfer-cutlass-moe, " if cutlass else "")
            + "--enable-ep-moe sets the expert parallel size to the tensor parallel size",
            handler,
            f"Flashinfer cutlass MoE and EP MoE are enabled. ... tensor parallel size[{state.get('tp_size')}]."
            if cutlass
            else "NOTE: --enable-ep-moe is deprecated. Please set `--ep-size` to the same value as `--tp-size` instead.",
        )
    if untracked_flag(state, "enable_deepep_moe") is True:
        state.set(
            "moe_a2a_backend",
            "deepep",
            "--enable-deepep-moe selects the deepep all-to-all backend",
            handler,
            "NOTE: --enable-deepep-moe is deprecated. Please set `--moe-a2a-backend` to 'deepep' instead.",
        )


def a2a_log_level(version: str, backend: str) -> str:
    """The level of the ep_size line: 0.5.23 `_a2a_ep_size` and 0.5.14's Mega MoE log INFO."""
    traits = own_traits(version)
    if traits is None:
        return "warning"
    return "info" if traits.a2a_ep_size_hook or backend in traits.a2a_info_backends else "warning"
