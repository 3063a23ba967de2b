"""SGLang's all-to-all MoE backends and the expert parallel size they set (`_handle_a2a_moe`;
0.5.23's `overrides.py` `_a2a_backend_overrides` and `_a2a_ep_size`), read per release
(`ReleaseTraits`: `a2a_spanning`, `deepep_ep_is_dp`, `flashinfer_a2a_needs_dp_attention`,
`a2a_ep_size_hook`, `waterfill`). `parallel.resolve_parallel` calls it in the release's order."""

from __future__ import annotations

from speclint.sglang.resolve.result import Unknown, is_known
from speclint.sglang.resolve.state import Stop

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.resolve.state import ResolutionState


def untracked_flag(state: ResolutionState, dest: str) -> object:
    """A field the resolver does not track: its parsed value, Unknown, or None if absent."""
    if not state.config.knows(dest):
        return None
    setting = state.config.get(dest)
    return Unknown("set from a value speclint cannot read") if setting.dynamic else setting.value


def a2a_moe(state: ResolutionState, handler: str) -> None:
    """The all-to-all backends that span every rank set `ep_size = tp_size`; then a value the
    release rewrites on every platform (`moe_readings.a2a_rewrites`, 0.5.16+: ascend_tp ->
    none, after the expert parallel size; recorded: seed a2a-16005, 0.5.18-0.5.23) is set."""
    _spanning(state, handler)
    import speclint.sglang.moe_readings as moe_readings

    backend, rewrites = state.get("moe_a2a_backend"), moe_readings.a2a_rewrites(state.checked_version)
    if isinstance(backend, str) and backend in rewrites:
        to, where = rewrites[backend]
        state.set("moe_a2a_backend", to, f"SGLang sets --moe-a2a-backend {backend} to {to!r}", where)


def _moe_kernel_first(state: ResolutionState) -> None:
    """The MoE-kernel handler's refusals, where SGLang calls it before this one
    (`moe_readings.moe_kernel_first`): its assert is the one a launch both refuse meets.
    Oracle (seed a2a-16212, 0.5.18, H100): DeepSeek-V3 fp8 with FlashInfer all-to-all and the
    flashinfer_cutlass runner, without attention DP, refused for the quantization."""
    import speclint.sglang.moe_readings as moe_readings

    if moe_readings.moe_kernel_first(state.checked_version):
        from speclint.sglang.resolve.refusals import moe_kernel_defaults
        from speclint.sglang.resolve.refusals_moe import check_moe_kernel

        check_moe_kernel(state)
        moe_kernel_defaults(state)


def _spanning(state: ResolutionState, handler: str) -> None:
    traits = state.traits
    _a2a_backend_overrides(state)
    backend = state.get("moe_a2a_backend")
    if not is_known(backend):
        state.set_unknown("ep_size", "--moe-a2a-backend is not readable")
        return
    if traits.deepep_ep_is_dp and backend == "deepep":  # 0.4.4.post2: within DP attention only
        on, dp = state.get("enable_dp_attention"), state.get("dp_size")
        if not is_known(on):
            state.set_unknown(
                "ep_size", "--enable-dp-attention is not readable (with it, DeepEP sets ep_size = dp_size)"
            )
        elif on is True:
            message = f"DeepEP MoE is enabled. The expert parallel size is adjusted to be the same as the data parallel size[{dp}]."
            state.set("ep_size", dp, "DeepEP with DP attention sets ep_size = dp_size", handler, message)
        return
    spanning = traits.a2a_spanning
    if backend not in spanning:
        return
    tp, ep = state.get("tp_size"), state.get("ep_size")
    if traits.flashinfer_a2a_needs_dp_attention and backend == "flashinfer":
        enabled, dp = state.get("enable_dp_attention"), state.get("dp_size")
        if is_known(enabled) and is_known(dp) and is_known(tp) and not (enabled is True and dp == tp):
            _moe_kernel_first(state)
            raise Stop(
                "AssertionError",
                "Flashinfer MoE A2A is only supported with dp_size == tp_size and --enable-dp-attention",
                handler,
                ("moe_a2a_backend", "dp_size"),
            )
    if traits.a2a_ep_size_hook:
        logged = (
            (
                f"{backend} MoE is enabled. The expert parallel size is adjusted from {ep} "
                f"to the tensor parallel size [{tp}]."
            )
            if ep != tp
            else None
        )
    else:
        logged = (
            f"{spanning[backend]} MoE is enabled. The expert parallel size is adjusted "
            f"to be the same as the tensor parallel size[{tp}]."
        )
    state.set(
        "ep_size",
        tp,
        f"--moe-a2a-backend {backend} spans every rank: SGLang sets the "
        "expert parallel size to the tensor parallel size",
        handler,
        logged,
        # the level SGLang logs it at (`_a2a_ep_size` and 0.5.14's Mega MoE: INFO), as PAR004 says
        "info" if traits.a2a_ep_size_hook or backend in traits.a2a_info_backends else "warning",
    )


def _a2a_backend_overrides(state: ResolutionState) -> None:
    """Waterfill forces DeepEP (0.5.14 `--enable-deepep-waterfill`, 0.5.23 `--enable-waterfill`)."""
    backend, waterfill = state.get("moe_a2a_backend"), state.traits.waterfill
    if (
        waterfill == "deepep_waterfill"
        and untracked_flag(state, "enable_deepep_waterfill") is True
        and backend != "deepep"
    ):
        state.set(
            "moe_a2a_backend",
            "deepep",
            "DeepEP Waterfill requires the DeepEP backend",
            "_handle_a2a_moe",
            "moe_a2a_backend is overridden to 'deepep' because DeepEP Waterfill requires the DeepEP backend.",
        )
    elif (
        waterfill == "waterfill"
        and untracked_flag(state, "enable_waterfill") is True
        and backend not in ("deepep", "megamoe")
    ):
        state.set(
            "moe_a2a_backend",
            "deepep",
            "Waterfill requires the DeepEP or MegaMOE backend",
            "_a2a_backend_overrides",
            "moe_a2a_backend is overridden to "
            "'deepep' because Waterfill requires the DeepEP or MegaMOE backend.",
        )
