"""The draft model's MoE runner where SGLang picks the target's for the quantization itself
(`moe_defaults.moe_runner_overrides`, `moe_runner_refusals`): asked by the defaults and by the
DeepSeek-on-Blackwell overrides, so it lives apart from both."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.resolve.state import ResolutionState


def runner_picked_for_quantization(state: ResolutionState, runner: object) -> str | None:
    """Why the draft's MoE runner is not the target's runner as given: an auto runner under a
    --quantization for which the release picks one itself (`moe_defaults.moe_runner_overrides`:
    0.5.10+ mxfp8; `moe_runner_refusals`: 0.5.14+ nvfp4_online), not modelled here (found by
    the session 13 differential: 0.5.23 gave flashinfer_trtllm to the draft, speclint auto)."""
    quantization = state.config.value("quantization")
    version = state.checked_version
    if runner != "auto" or not isinstance(quantization, str):
        return None
    from speclint.sglang.moe_defaults import moe_runner_overrides, moe_runner_refusals  # (only then)

    if quantization in moe_runner_overrides(version) or quantization in moe_runner_refusals(version):
        return (
            f"follows the MoE runner SGLang {version} picks for --quantization {quantization}, "
            "which speclint does not model"
        )
    return None
