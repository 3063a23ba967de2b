"""The attention backend --enable-deterministic-inference falls back to when none is given
(`_handle_deterministic_inference`, 0.5.15+ overrides.py `_deterministic_attention_backend`):
in the releases that run it before the GPU's default is picked (0.5.12+,
traits_deterministic.py, read by tools/gen_deterministic_facts.py) it sets fa3, or on a
Blackwell GPU flashinfer (triton for DeepSeek-family models), and what follows (the page
size, NGRAM's and --enable-mis's checks) reads that backend. Set only where the recordings
of tools/oracle show no model hook picking a backend first: the architectures auto_backend.py
covers, on an SM90 or SM100 NVIDIA GPU. DeepSeek-V3 on Blackwell, whose model hook picks
trtllm_mla first in releases with `deepseek_blackwell_mla`, gets that pick here, which the
fallback refuses (refusals_deterministic.py)."""

from __future__ import annotations

from speclint.sglang.resolve.auto_backend import ARCHITECTURES, DEEPSEEK
from speclint.sglang.resolve.refusals_deterministic import (
    HANDLER,
    MODEL_HOOK,
    MODEL_HOOK_BACKEND,
    check_model_hook_backend,
)
from speclint.sglang.resolve.refusals_moe import given
from speclint.sglang.resolve.result import is_known

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from speclint.sglang.resolve.gpu_profiles import GpuProfile
    from speclint.sglang.resolve.state import ResolutionState

_DEEPSEEK_FAMILY = (DEEPSEEK,)
"""Of `ARCHITECTURES`, those `is_deepseek_model` lists in every release with the fallback."""


def fallback_backend(state: ResolutionState, gpu: GpuProfile | None) -> str | None:
    """The backend the release falls back to for this launch, or None (no fallback, or
    one speclint does not read here)."""
    if gpu is None or gpu.vendor != "nvidia" or (gpu.sm or 0) // 10 not in (9, 10):
        return None
    return fallback_on(state, (gpu.sm or 0) // 10 == 10, state.get)


def fallback_on(state: ResolutionState, blackwell: bool, value: Callable[[str], object]) -> str | None:
    """`fallback_backend` on an NVIDIA Hopper (SM90) or Blackwell (SM100) GPU, the attention
    backends read by `value` (as resolution has them, or as given where no GPU is told: what
    --gpu then decides)."""
    from speclint.sglang.traits_deterministic import DETERMINISTIC_FALLBACK

    fallback = DETERMINISTIC_FALLBACK.get(state.version, ())
    if (
        not fallback
        or given(state, "enable_deterministic_inference") is not True
        or state.config.uncertain
        or state.target_architecture not in ARCHITECTURES
        or state.get("device") != "cuda"
        or value("attention_backend") is not None
        or not is_known(value("prefill_attention_backend"))
        or not is_known(value("decode_attention_backend"))
    ):
        return None
    prefill, decode = value("prefill_attention_backend"), value("decode_attention_backend")
    if prefill is not None and prefill == decode:
        return None  # `_attention_backend_default` may set the attention backend from them
    deepseek = state.target_architecture in _DEEPSEEK_FAMILY
    if blackwell and deepseek:
        if state.traits.deepseek_blackwell_mla:
            return MODEL_HOOK_BACKEND if prefill is None and decode is None else None
        return fallback[0]
    return fallback[1] if blackwell else fallback[2]


BESIDE = frozenset(("enable_mis", "enable_deterministic_inference"))
"""Flags outside hardware_flags.MODELLED_FLAGS that leave 0.5.22+'s attention backend pick
readable: --enable-mis changes nothing before it (`_handle_multi_item_scoring` runs after
`_attention_backend_default`, attention_hook.py, and reads the backend it picked);
--enable-deterministic-inference's fallback is modelled here. Confirmed with tools/oracle
on 0.5.23 (Llama 3.1, Qwen3, DeepSeek-V3 on an H100 and a B200)."""


def resolve_deterministic_backend(state: ResolutionState, gpu: GpuProfile | None) -> None:
    """Set the fallback (or the model hook's pick before it) before the GPU's default backend
    is picked."""
    backend = fallback_backend(state, gpu)
    if backend is None:
        return
    assert gpu is not None
    if backend == MODEL_HOOK_BACKEND:
        state.set(
            "attention_backend",
            backend,
            "SGLang's default for DeepSeek-V3 on Blackwell (SM100)",
            MODEL_HOOK,
            "Use trtllm_mla as attention backend on sm100 for DeepseekV3ForCausalLM",
            "info",
        )
        check_model_hook_backend(state)  # which the fallback then refuses
        return
    state.set(
        "attention_backend",
        backend,
        f"--enable-deterministic-inference without --attention-backend: SGLang "
        f"{state.version} falls back to {backend} on {gpu.name}",
        HANDLER,
        f"Attention backend not specified. Falling back to '{backend}' for deterministic inference.",
    )
