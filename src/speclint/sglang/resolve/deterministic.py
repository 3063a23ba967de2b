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
    turned_on_by,
)
from speclint.sglang.resolve.refusals_moe import deterministic_inference
from speclint.sglang.resolve.result import is_known
from speclint.sglang.resolve.state import given

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
        or not deterministic_inference(state)
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


def resolve_rl_on_policy(state: ResolutionState) -> None:
    """`_handle_deterministic_inference`'s first branch: --rl-on-policy-target turns on what
    the release's source sets for it (`RL_ON_POLICY`, read by tools/gen_deterministic_facts.py:
    --enable-deterministic-inference in 0.5.4+), before anything reads those fields."""
    from speclint.sglang.traits_deterministic import RL_ON_POLICY

    target = given(state, "rl_on_policy_target")
    read = RL_ON_POLICY.get(state.version)
    if target is None or read is None:
        return
    handler, sets, logged = read
    for field, value in sets:
        if not is_known(target):
            state.mark_unknown(field, "--rl-on-policy-target is set from a value speclint cannot read")
            continue
        if field not in state.values and state.config.knows(field) and state.config.known(field):
            state.values[field] = state.config.value(field)  # its default (not given)
        state.set(
            field,
            value,
            f"--rl-on-policy-target {target}: SGLang {state.version} turns it on",
            handler,
            logged,
        )


BESIDE = frozenset(
    ("enable_mis", "enable_deterministic_inference", "moe_runner_backend", "dtype", "moe_a2a_backend")
)
"""Flags outside hardware_flags.MODELLED_FLAGS that leave 0.5.22+'s attention backend pick
readable: --enable-mis changes nothing before it (`_handle_multi_item_scoring` runs after
`_attention_backend_default`, attention_hook.py, and reads the backend it picked);
--enable-deterministic-inference's fallback is modelled here. Confirmed with tools/oracle
on 0.5.23 (Llama 3.1, Qwen3, DeepSeek-V3 on an H100 and a B200). --moe-runner-backend and
--dtype: no function that picks the attention backend reads them in 0.5.15-0.5.23
(`_get_default_attn_backend` / `get_default_attn_backend`, `_attention_backend_default`,
`_handle_attention_backend_compatibility`, `_deepseek_family_overrides`, whose only
moe_runner_backend read, 0.5.20+, sets HYV4's MoE runner), so DeepSeek-V3 and Kimi-K2.5 get
trtllm_mla on Blackwell with them too (oracle: 0.5.23 refused `--moe-runner-backend intel_xpu`
and `--dtype float16` launches for trtllm_mla's KV-cache dtype check, seeds 12022 and 13021).
--moe-a2a-backend: those functions and the page-size ones (`_handle_page_size`,
`_page_size_default`, `_mla_backend_page_constraints`) test it in 0.5.4.post1-0.5.23 only to
pick the MoE runner (`moe_a2a_backend == "none" and moe_runner_backend == "auto"`) or the
all-reduce fusion, and write it (MLA context parallelism), so the backend and its page size are
the GPU's with it too (oracle: seed a2a-16005, 0.5.18-0.5.23, the page size recorded on every
launch agrees, and its chunked-prefill/page refusals are found)."""


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
        f"{turned_on_by(state)} without --attention-backend: SGLang "
        f"{state.version} falls back to {backend} on {gpu.name}",
        HANDLER,
        f"Attention backend not specified. Falling back to '{backend}' for deterministic inference.",
    )


_GPUS = (("Hopper (SM90)", False), ("Blackwell (SM100)", True))


def multi_item_scoring_by_gpu(state: ResolutionState) -> None:
    """No --gpu: where the fallback `_multi_item_scoring` reads differs between Hopper and
    Blackwell (fa3 and flashinfer for most models), the launch is refused on some GPUs only;
    a doubt names them, and --gpu decides."""
    from speclint.sglang.traits_deterministic import MIS_SEES_FALLBACK

    if (
        not state.traits.mis_needs_flashinfer
        or given(state, "enable_mis") is not True
        or state.version not in MIS_SEES_FALLBACK
    ):
        return
    refused: list[str] = []
    accepted: list[str] = []
    for name, blackwell in _GPUS:
        backend = fallback_on(state, blackwell, lambda field: given(state, field))
        if backend is None:
            return
        if backend == MODEL_HOOK_BACKEND:  # refused by the fallback's own check first
            refused.append(f"{name}: {MODEL_HOOK} picks {backend}, which deterministic inference refuses")
            continue
        prefill = given(state, "prefill_attention_backend") or backend
        decode = given(state, "decode_attention_backend") or backend
        on_gpu = f"{name}: prefill={prefill}, decode={decode}"
        (accepted if prefill == decode == "flashinfer" else refused).append(on_gpu)
    if not refused:
        return
    state.doubt(
        "AssertionError",
        "Multi-item scoring requires flashinfer attention backend for custom attention mask "
        "support. Please set --attention-backend flashinfer when using --enable-mis. "
        f"({turned_on_by(state)} without --attention-backend: SGLang {state.version} "
        f"falls back to a backend that depends on the GPU; refused on {'; '.join(refused)}"
        + (f"; accepted on {'; '.join(accepted)}" if accepted else "")
        + "; pass --gpu to know, or add --attention-backend flashinfer)",
        "_handle_multi_item_scoring",
        ("enable_mis", "enable_deterministic_inference", "rl_on_policy_target"),
    )
