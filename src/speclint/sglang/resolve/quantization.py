"""`ModelConfig._verify_quantization` (configs/model_config.py): --quantization against the
target checkpoint's `quantization_config`, and against the methods the release implements.

SGLang builds the target's ModelConfig while it resolves the arguments (every recorded
release from 0.4.10.post2 on, `ReleaseTraits.quantization_verified`), so a mismatch stops
the launch before any process starts. Modelled only where no `override_quantization_method`
hook of the release can rewrite the pair (`PLAIN_CHECKPOINT_METHODS`, the user-named
overrides in `ReleaseTraits.quantization_user_overrides`); elsewhere speclint says nothing.
0.4.9-0.5.4 build that ModelConfig only for a default --mem-fraction-static, and a method the
release's CUDA registry lacks is refused too (both read from the wheels:
`speclint.sglang.model_config_facts`).
"""

from __future__ import annotations

import os

from speclint.sglang.resolve.state import Stop

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.resolve.state import ResolutionState

PLAIN_CHECKPOINT_METHODS = ("fp8",)
"""Checkpoint `quant_method`s no release's `override_quantization_method` hook reads (read in
layers/quantization/ of 0.4.6.post5 ... 0.5.23: the hooks match awq, gptq, modelopt, mxfp4,
bare MLX configs, or a method the user names)."""
_HANDLER = "ModelConfig._verify_quantization"


def verify_quantization(state: ResolutionState) -> None:
    traits, config = state.traits, state.config
    if (
        not traits.quantization_verified
        or not config.knows("quantization")
        or not config.known("quantization")
    ):
        return
    asked = config.value("quantization")
    if not isinstance(asked, str):
        return
    from speclint.sglang.model_config_facts import (
        cuda_quantization_methods,
        verified_only_for_default_mem_fraction,
    )

    if verified_only_for_default_mem_fraction(state.checked_version) and config.knows("mem_fraction_static"):
        if not config.known("mem_fraction_static") or config.value("mem_fraction_static") is not None:
            return  # given: `if self.mem_fraction_static is None:` skips building the ModelConfig
    asked = asked.lower()
    method = _checkpoint_method(state)
    if (
        method is not None
        and asked != method
        and method in PLAIN_CHECKPOINT_METHODS
        and asked not in traits.quantization_user_overrides
        and asked not in traits.requantization_methods
        and method not in traits.quantization_compatible.get(asked, ())
    ):
        raise Stop(
            "ValueError",
            "Quantization method specified in the model config "
            f"({method}) does not match the quantization method specified in the "
            f"`quantization` argument ({asked}).",
            _HANDLER,
            ("quantization",),
        )
    if asked in traits.quantization_missing and (method is None or method == asked):
        raise Stop(
            "ValueError",
            f"Unknown quantization method: {asked}. SGLang "
            f"{state.version} does not implement it (its QUANTIZATION_METHODS lacks "
            "it although --quantization offers it).",
            _HANDLER,
            ("quantization",),
        )
    if method is None and state.target_config is not None and _missing_on_cuda(state, asked):
        methods = cuda_quantization_methods(state.checked_version) or ()
        instead = f"--quantization {asked}_marlin, " if f"{asked}_marlin" in methods else ""
        raise Stop(
            "ValueError",
            f"Unknown quantization method: {asked}. SGLang {state.checked_version} does not "
            "register it on a CUDA GPU (its QUANTIZATION_METHODS lacks it there although "
            f"--quantization offers it; use {instead}a method it registers, or drop the flag)",
            _HANDLER,
            ("quantization",),
        )


def _missing_on_cuda(state: ResolutionState, asked: str) -> bool:
    """`asked` is not in the release's QUANTIZATION_METHODS as read for CUDA, and the launch
    runs on CUDA (no other --device, no AMD GPU named)."""
    from speclint.sglang.model_config_facts import cuda_quantization_methods, quantization_compared

    methods = cuda_quantization_methods(state.checked_version)
    if methods is None or asked in methods or asked in quantization_compared(state.checked_version):
        return False  # not read, registered, or rewritten by resolution first (`unquant`)
    config = state.config
    if config.knows("device") and (
        not config.known("device") or config.value("device") not in (None, "cuda")
    ):
        return False
    return state.gpu is None or state.gpu.vendor == "nvidia"


def _checkpoint_method(state: ResolutionState) -> str | None:
    """The target config.json's `quantization_config.quant_method` (lower case), when the
    config is on disk and no ModelSlim description beside it takes precedence."""
    target = state.target_config
    if target is None:
        return None
    quant = target.raw.get("quantization_config")
    if not isinstance(quant, dict) or not isinstance(quant.get("quant_method"), str):
        return None
    folder = os.path.dirname(target.path)
    if os.path.exists(os.path.join(folder, "quant_model_description.json")):
        return None  # `_find_quant_modelslim_config` wins (0.5.8+)
    method: str = quant["quant_method"]
    return method.lower()
