"""The scheduler's conservativeness and a given chunked prefill size in releases whose
GPU-dependent resolution speclint does not model (`ReleaseTraits.gpu_resolution` false):
neither depends on the GPU there.

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
    from speclint.sglang.resolve.refusals_moe import given

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
