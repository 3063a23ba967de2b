"""Predict the configuration SGLang really runs with: its resolution steps, in its order."""

from __future__ import annotations

from speclint.sglang.resolve.result import Adjustment, Rejection, Resolution, Unknown, is_known
from speclint.sglang.resolve.state import ResolutionState, Stop

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.checkpoints.model_config import ModelConfig
    from speclint.sglang.flags.launch_config import LaunchConfig
    from speclint.sglang.resolve.gpu_profiles import GpuProfile


def resolve(
    config: LaunchConfig,
    env: dict[str, str | None] | None = None,
    target_architecture: str | None = None,
    gpu: GpuProfile | None = None,
    target_config: ModelConfig | None = None,
) -> Resolution:
    """Run SGLang's resolution for `config`'s release. `env` maps the variables the launch
    sets to their values (None when not readable); `target_architecture` is
    `architectures[0]` of the target's config.json when it is on disk; `gpu` the
    `GpuProfile` it runs on (None: the GPU-dependent fields are unknown)."""
    from speclint.sglang.resolve.attention import resolve_attention
    from speclint.sglang.resolve.checks import check_server_args, deprecated_actions
    from speclint.sglang.resolve.hardware import resolve_hardware
    from speclint.sglang.resolve.parallel import resolve_parallel
    from speclint.sglang.resolve.quantization import verify_quantization
    from speclint.sglang.resolve.speculative import resolve_speculative

    state = ResolutionState(config, dict(env or {}), target_architecture)
    state.target_config = target_config
    try:
        deprecated_actions(state)
        verify_quantization(state)
        resolve_parallel(state)
        resolve_aux_capture(state)
        resolve_hardware(state, gpu)
        resolve_speculative(state)
        resolve_attention(state)
        check_server_args(state)
    except Stop as stop:
        return state.result(stop.rejection)
    return state.result()


def resolve_aux_capture(state: ResolutionState) -> None:
    """0.5.23 `handle_aux_hidden_state_capture`: the algorithm only names a capture convention."""
    methods = state.traits.aux_capture_algorithms
    if not methods or state.get("enable_return_aux_hidden_states") is not True:
        return
    algorithm = state.get("speculative_algorithm")
    method = None if isinstance(algorithm, Unknown) else str(algorithm or "").upper()  # a name
    if method is None:
        return
    handler = "_handle_aux_hidden_state_capture"
    if method not in methods:
        named = " or ".join(filter(None, (", ".join(methods[:-1]), methods[-1])))
        raise Stop(
            "ValueError",
            "--enable-return-aux-hidden-states needs --speculative-algorithm "
            f"{named} to name the capture convention, got {algorithm!r}.",
            handler,
            ("enable_return_aux_hidden_states",),
        )
    if state.get("speculative_draft_model_path") is not None:
        raise Stop(
            "ValueError",
            "--enable-return-aux-hidden-states captures without a draft; "
            "drop --speculative-draft-model-path.",
            handler,
            ("speculative_draft_model_path",),
        )
    state.set(
        "speculative_algorithm",
        None,
        "--enable-return-aux-hidden-states turns speculative "
        "decoding off: the algorithm only names the capture convention",
        handler,
    )


__all__ = ["Adjustment", "Rejection", "Resolution", "Unknown", "is_known", "resolve"]
