"""Predict the configuration SGLang really runs with: its resolution steps, in its order."""

from __future__ import annotations

from speclint.sglang.resolve.result import Adjustment, Resolution, Unknown, is_known
from speclint.sglang.resolve.state import ResolutionState, Stop

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.checkpoints.model_config import ModelConfig
    from speclint.sglang.flags.launch_config import LaunchConfig
    from speclint.sglang.resolve.gpu_profiles import GpuProfile
    from speclint.sglang.resolve.rejection import Rejection as Rejection


def resolve(
    config: LaunchConfig,
    env: dict[str, str | None] | None = None,
    target_architecture: str | None = None,
    gpu: GpuProfile | None = None,
    target_config: ModelConfig | None = None,
    draft_config: ModelConfig | None = None,
    co_launched: bool = False,
) -> Resolution:
    """Run SGLang's resolution for `config`'s release. `env` maps the variables the launch
    sets to their values (None when not readable); `target_architecture` is
    `architectures[0]` of the target's config.json when it is on disk; `gpu` the
    `GpuProfile` it runs on (None: the GPU-dependent fields are unknown); `target_config` and
    `draft_config` the two models' config.json when on disk; `co_launched`: the launch is
    sglang-router's co-launcher, resolved as one of its workers."""
    import speclint.sglang.resolve.steps as steps  # (a module: no failed lookup on each call)

    state = ResolutionState(config, dict(env or {}), target_architecture)
    state.target_config = target_config
    state.draft_config = draft_config
    try:
        steps.run_steps(state, gpu, co_launched)
    except Stop as stop:
        return state.result(stop.rejection)
    return state.result()


__all__ = ["Adjustment", "Rejection", "Resolution", "Unknown", "is_known", "resolve"]


def __getattr__(name: str) -> object:
    """`Rejection`, made when first asked for (`result.__getattr__`)."""
    if name == "Rejection":
        from speclint.sglang.resolve.rejection import Rejection

        return Rejection
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
