"""The scheduler's conservativeness, a given chunked prefill size and the sampling backend in
releases whose GPU-dependent resolution speclint does not model (`ReleaseTraits.gpu_resolution`
false): none of them depends on the GPU's memory there.

Every release keeps --schedule-conservativeness (1.0 unless given) and multiplies it by 0.3
when attention data parallelism is on, and nowhere else: 0.4.0-0.5.14 `__post_init__` /
`_handle_data_parallelism` (`if self.enable_dp_attention: self.schedule_conservativeness =
self.schedule_conservativeness * 0.3`, 0.4.0 server_args.py L201-205, 0.4.6.post5 L329,
0.5.6.post2 L1568-1569, 0.5.14 L5050-5051), 0.5.15-0.5.18 the same on
`self._resolved().enable_dp_attention`, 0.5.19-0.5.21 `arg_groups/parallel_hook.py`
(`declare_resolution(..., schedule_conservativeness=cfg.schedule_conservativeness * 0.3)`);
checked against every recording in tests/data/oracle by tests/test_oracle_recordings.py.

A given --chunked-prefill-size is kept, in every release, unless attention DP splits it
(`// dp_size`; 0.4.0 `// 2`), --enable-mis turns chunked prefill off (0.5.14+
`_handle_multi_item_scoring`: -1), or the model cannot chunk its prefill (0.5.16+
`_handle_model_capability_adjustments`: multimodal models without chunked prefill, HRM text,
EmbeddingGemma: -1). Stated only without attention DP, without --enable-mis and for the
text-only targets in `TEXT_TARGETS`; otherwise Unknown."""

from __future__ import annotations

from speclint.sglang.resolve.result import is_known

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.resolve.state import ResolutionState


def resolve_gpu_free(state: ResolutionState, name: str, reason: str) -> bool:
    """Resolve `name` where the GPU does not change it; False: left to the caller (unknown
    with `reason`, why the GPU-dependent fields are unknown)."""
    if name == FIELD:
        resolve_conservativeness(state, reason)
        return True
    if name == SAMPLING:
        return resolve_sampling_backend(state)
    if name == CHUNKED and state.config.given(name):
        resolve_given_chunked(state, reason)
        return True
    return False


FIELD = "schedule_conservativeness"
CHUNKED = "chunked_prefill_size"
TEXT_TARGETS = ("LlamaForCausalLM", "Qwen3ForCausalLM", "DeepseekV3ForCausalLM")
"""Targets no release's capability adjustments turn chunked prefill off for."""


def resolve_conservativeness(state: ResolutionState, reason: str) -> None:
    """Set FIELD from the value given and attention DP; Unknown (with `reason`, why the
    GPU-dependent fields are unknown) when either is not readable."""
    given = state.config.value(FIELD) if state.config.known(FIELD) else None
    flag, size = state.values.get("enable_dp_attention"), state.values.get("attn_dp_size")
    if (
        isinstance(given, bool)
        or not isinstance(given, (int, float))
        or not (is_known(flag) and is_known(size))
    ):
        state.set_unknown(FIELD, reason)
    elif state.attention_dp():
        state.set(FIELD, given * 0.3, "DP attention schedules less conservatively", "__post_init__")
    else:
        state.values[FIELD] = given


def resolve_given_chunked(state: ResolutionState, reason: str) -> None:
    """Keep a given CHUNKED where no release changes it (the module docstring); else Unknown."""
    from speclint.sglang.resolve.state import given

    chunk = state.config.value(CHUNKED) if state.config.known(CHUNKED) else None
    flag, size = state.values.get("enable_dp_attention"), state.values.get("attn_dp_size")
    mis = given(state, "enable_mis")
    if (
        isinstance(chunk, int)
        and not isinstance(chunk, bool)
        and state.config.given(CHUNKED)
        and is_known(flag)
        and is_known(size)
        and not state.attention_dp()
        and mis in (None, False)
        and state.target_architecture in TEXT_TARGETS
    ):
        state.values[CHUNKED] = chunk
        return
    split = is_known(flag) and is_known(size) and state.attention_dp()
    state.set_unknown(CHUNKED, f"{reason} (attention data parallelism changes it)" if split else reason)


SAMPLING = "sampling_backend"
_DEPENDENCIES = None


def resolve_sampling_backend(state: ResolutionState) -> bool:
    """`"flashinfer" if is_flashinfer_available() else "pytorch"` (`__post_init__`, 0.5.6+
    `_handle_sampling_backend`, 0.5.15+ overrides.py `_sampling_backend_default`): flashinfer
    where the release's wheel requires flashinfer_python unconditionally (METADATA, read by
    tools/gen_sglang_dependencies.py: 0.5.3+), the launch runs on an NVIDIA GPU with
    --device cuda, SGLANG_IS_FLASHINFER_AVAILABLE is not set and deterministic inference (which
    picks pytorch) is off. False when it is not stated."""
    from speclint.sglang.resolve.state import given

    required = _flashinfer_required(state.checked_version)
    gpu = state.gpu
    if (
        not required
        or state.values.get(SAMPLING) is not None
        or gpu is None
        or gpu.vendor != "nvidia"
        or state.get("device") != "cuda"
        or "SGLANG_IS_FLASHINFER_AVAILABLE" in state.env
        or given(state, "enable_deterministic_inference") not in (None, False)
        or state.get("enable_deterministic_inference") is True
    ):
        return False
    state.set(
        SAMPLING,
        "flashinfer",
        f"FlashInfer is installed with SGLang {state.checked_version} (a requirement of its wheel) "
        "and the GPU is CUDA",
        "_handle_sampling_backend",
    )
    return True


_REQUIRED: dict[str, bool] = {}
"""`_flashinfer_required` by release, read once each."""


def _flashinfer_required(version: str) -> bool:
    """Whether the release's wheel requires flashinfer_python unconditionally (its METADATA)."""
    found = _REQUIRED.get(version)
    if found is None:
        from speclint.sglang.linedata import LineData

        global _DEPENDENCIES
        if _DEPENDENCIES is None:
            import os

            here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
            _DEPENDENCIES = LineData(os.path.join(here, "data", "sglang_dependencies.json"))
        row = _DEPENDENCIES.row(version)
        found = _REQUIRED[version] = (
            isinstance(row, dict) and _DEPENDENCIES.shared(row["flashinfer_required"]) is True
        )
    return found
