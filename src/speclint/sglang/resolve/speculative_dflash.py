"""SGLang's DFLASH speculative decoding resolution (`_handle_dflash`), per release."""

from __future__ import annotations

from speclint.sglang.resolve.result import is_known
from speclint.sglang.resolve.speculative_common import max_running_requests
from speclint.sglang.resolve.state import Stop

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.resolve.state import ResolutionState


def resolve_dflash(state: ResolutionState) -> None:
    handler = "_handle_dflash"
    if state.traits.dflash_full_handler:
        _dflash_0_5_23_checks(state, handler)
    else:
        _dflash_checks(state, handler)
    if state.get("speculative_draft_model_path") is None:
        raise Stop(
            "ValueError",
            "DFLASH speculative decoding requires setting --speculative-draft-model-path.",
            handler,
            ("speculative_algorithm",),
        )
    for name in ("speculative_num_steps", "speculative_eagle_topk"):
        value = state.get(name)
        if value != 1:
            state.set(
                name,
                1,
                f"DFLASH only supports {name} == 1",
                handler,
                None if value is None else f"DFLASH only supports {name} == 1; overriding",
            )
    block = state.get("speculative_dflash_block_size")
    draft = state.get("speculative_num_draft_tokens")
    if block is not None and is_known(block):
        if draft is not None and draft != block:
            raise Stop(
                "ValueError",
                "Both --speculative-num-draft-tokens and "
                "--speculative-dflash-block-size are set but they differ.",
                handler,
                ("speculative_num_draft_tokens",),
            )
        state.set("speculative_num_draft_tokens", block, "DFLASH block size", handler)
    elif draft is None:
        _draft_tokens_from_draft_config(state, handler)
    if state.traits.dflash_draft_backend:
        _dflash_draft_backend(state)
    if state.traits.dflash_disables_overlap:
        state.set("disable_overlap_schedule", True, "DFLASH runs without the overlap scheduler", handler)
    if state.traits.dflash_disables_mixed_chunk and state.get("enable_mixed_chunk") is True:
        state.set("enable_mixed_chunk", False, "DFLASH does not run with mixed chunked prefill", handler)
    # `_handle_dflash` ends like the other handlers in every DFLASH release: 48 unless
    # --max-running-requests is given (0.5.11-0.5.12 server_args.py, 0.5.13-0.5.18
    # speculative_hook.py `if server_args.max_running_requests is None: ... = 48`, 0.5.19+
    # `declare_resolution`; tests/test_oracle_differential.py: the oracle reports 48).
    max_running_requests(state, handler, True)


DFLASH_DEFAULT_BLOCK = 16
"""`_handle_dflash` (0.5.11+): without --speculative-num-draft-tokens, the block size of the
draft's config (`parse_dflash_draft_config`: `dflash_config.block_size`, else a top-level
`block_size`), and 16 when it states none (or cannot be read)."""


def _draft_tokens_from_draft_config(state: ResolutionState, handler: str) -> None:
    """16 where the draft's config.json is on disk and names no block size; a stated one is
    not read (SGLang reads it through transformers' `get_config`, which may fail: then 16)."""
    config = state.draft_config
    if config is None:
        state.set_unknown("speculative_num_draft_tokens", "taken from the DFLASH draft's config, not on disk")
        return
    nested = config.raw.get("dflash_config")
    if "block_size" in config.raw or (isinstance(nested, dict) and "block_size" in nested):
        state.set_unknown(
            "speculative_num_draft_tokens", "taken from the block size the DFLASH draft's config states"
        )
        return
    state.set(
        "speculative_num_draft_tokens",
        DFLASH_DEFAULT_BLOCK,
        f"the DFLASH draft's config.json states no block size: SGLang's default {DFLASH_DEFAULT_BLOCK}",
        handler,
        f"speculative_num_draft_tokens is not set; defaulting to {DFLASH_DEFAULT_BLOCK} for DFLASH.",
    )


_DFLASH_DRAFT_BACKENDS = ("flashinfer", "triton")
"""Draft backends speclint states for DFLASH: both in 0.5.23's DRAFT_ATTENTION_BACKEND_CHOICES
(speculative_hook.py `_resolve_dflash_draft_attention_backend`; recorded)."""


def _dflash_draft_backend(state: ResolutionState) -> None:
    """0.5.23 `_resolve_dflash_draft_attention_backend`: the draft backend, else the decode
    backend SGLang resolved, else flashinfer on CUDA; unsupported ones fall back. speclint
    states the plain cases and leaves the GPU-picked ones unknown."""
    name = "speculative_draft_attention_backend"
    if name not in state.values:
        return
    draft = state.get(name)
    decode = state.get("decode_attention_backend") or state.get("attention_backend")
    chosen = draft if draft is not None else decode
    if chosen in _DFLASH_DRAFT_BACKENDS:
        state.set(
            name,
            chosen,
            "DFLASH drafts with the decode attention backend",
            "_resolve_dflash_draft_attention_backend",
        )
    else:
        state.set_unknown(
            name, "DFLASH's draft backend follows the attention backend SGLang picks, or its fallback"
        )


def _dflash_checks(state: ResolutionState, handler: str) -> None:
    """`_handle_dflash` before 0.5.23 opens with two refusals, in this order: attention DP
    ("Currently DFLASH speculative decoding does not support dp attention.", 0.5.11-0.5.12
    server_args.py, 0.5.13-0.5.19 speculative_hook.py; 0.5.20-0.5.22 add "on non-NPU
    devices" and let NPU through: not refused here on NPU) and pp_size != 1 (every release)."""
    device = state.get("device")
    if (
        state.traits.dflash_device_check
        and isinstance(device, str)
        and not (device.startswith("cuda") or device in ("npu", "xpu"))
    ):
        raise Stop(
            "ValueError",
            f"DFLASH speculative decoding does not run on --device {device}: it runs on CUDA and NPU devices only.",
            handler,
            ("device",),
        )
    if state.attention_dp() and is_known(device) and device != "npu":
        raise Stop(
            "ValueError",
            "Currently DFLASH speculative decoding does not support dp attention.",
            handler,
            ("speculative_algorithm",),
        )
    # (or the dest `--pp-size` fills: server_checks.cli_copies)
    _refuse_pipeline(state, handler, ("pp_size", "pipeline_parallel_size"))


def _dflash_0_5_23_checks(state: ResolutionState, handler: str) -> None:
    """0.5.23 `_handle_dflash` refusals before the draft path check, in its order (each one
    seen in the oracle, tests/test_oracle_differential.py)."""
    device = state.get("device")
    if isinstance(device, str) and not (device.startswith("cuda") or device in ("npu", "xpu")):
        raise Stop(
            "ValueError",
            f"DFLASH speculative decoding is not supported by the platform on device {device!r}.",
            handler,
            ("device",),
        )
    if state.attention_dp() and device != "npu":
        if isinstance(device, str) and not device.startswith("cuda"):
            raise Stop("ValueError", "DFLASH with dp attention requires CUDA or NPU.", handler, ("device",))
        lm_head = state.config.value("enable_dp_lm_head", False)
        if state.config.known("enable_dp_lm_head") and lm_head is not True:
            raise Stop(
                "ValueError",
                "DFLASH with dp attention requires --enable-dp-lm-head.",
                handler,
                ("speculative_algorithm",),
            )
    _refuse_pipeline(state, handler, ("pp_size",))


def _refuse_pipeline(state: ResolutionState, handler: str, fields: tuple[str, ...]) -> None:
    """Every DFLASH release's last refusal of `_handle_dflash`'s opening checks: pp_size != 1."""
    pp_size = state.get("pp_size")
    if isinstance(pp_size, int) and pp_size != 1:
        raise Stop(
            "ValueError", "Currently DFLASH speculative decoding only supports pp_size == 1.", handler, fields
        )
