"""Parallelism fields SGLang rewrites before anything reads the data-parallel layout."""

from __future__ import annotations

from speclint.resolve.state import ResolutionState


def resolve_parallel(state: ResolutionState) -> None:
    if state.version == "0.5.23":
        _deprecated_dp_attention(state)
    elif state.version == "0.5.6.post2":
        if state.get("enable_dp_attention") is True and state.get("dp_size") == 1:
            state.set("enable_dp_attention", False, "--enable-dp-attention with --dp-size 1 is "
                      "turned off", "_handle_data_parallelism")


def _deprecated_dp_attention(state: ResolutionState) -> None:
    """0.5.23 `handle_deprecated_dp_attention`: `--dp-size N --enable-dp-attention` becomes
    `--attn-dp-size N --dp-size 1`."""
    if state.get("enable_dp_attention") is not True:
        return
    handler = "_handle_deprecated_dp_attention"
    if state.get("attn_dp_size") == 1:
        dp_size = state.get("dp_size")
        state.set("attn_dp_size", dp_size, "--enable-dp-attention is deprecated: its --dp-size "
                  "moves to --attn-dp-size", handler)
        state.set("dp_size", 1, "--enable-dp-attention is deprecated: --dp-size counts replicas "
                  "again", handler)
    # `resolved_dict()` reports the deprecated field as "attention DP is on"
    size = state.get("attn_dp_size")
    state.set("enable_dp_attention", isinstance(size, int) and size > 1,
              "--enable-dp-attention is replaced by --attn-dp-size", handler)
