"""The decode CUDA-graph batch size (`cuda_graph_max_bs`) and the chunked prefill size beside
an MoE all-to-all backend.

--moe-a2a-backend feeds hooks speclint does not model, so it leaves the GPU-dependent fields
unknown (hardware_flags.modelled_flags_problem). The decode CUDA graph's largest batch is not
among what those hooks change: in the releases speclint.sglang.gpu_resolution names,
`handle_gpu_memory_settings` sets it from the GPU's memory and --tp-size alone (then lowers it
to --max-running-requests, 0.5.22+, `GpuLogic.running_cap`), and no resolution hook writes it
otherwise (0.5.19-0.5.23's arg_groups: `_handle_a2a_moe`, `apply_cuda_graph_disaggregation_roles`
and the kv-shard hook turn the decode graphs off, leaving max_bs; Qwen3-VL's override raises it,
an architecture not modelled here). The chunked prefill size is the one the all-to-all handlers
read (`refusals_a2a_budget.chunk_at_handler`: given or the GPU's default, split by attention
DP). The flags in `BESIDE` are those; any other keeps both unknown. Oracle (record.py
--generator a2a, seeds 20002, 20004 and 20005 on 0.5.1-0.5.23, and the kept a2a seeds, fake H100
and B200): every accepted launch's recorded value equals these (no value difference; 238
unknown decode sizes of seed 20002 -> 46, those on 0.5.7 and 0.5.13 where --dp-size is not
modelled).

DeepEP v2's decode CUDA-graph budget (`validate_deepep_v2_dispatch_token_budget`) reads the
graph's size (refusals_deepep_v2_decode.py)."""

from __future__ import annotations

from speclint.sglang.resolve.hardware_flags import MODELLED_ARCHITECTURES, modelled_flags_problem

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.resolve.gpu_profiles import GpuProfile
    from speclint.sglang.resolve.state import ResolutionState

BESIDE = frozenset(
    (
        "moe_a2a_backend",
        "moe_runner_backend",
        "disaggregation_mode",
        "enable_dynamic_chunking",
        # context parallelism (0.5.9+): `handle_gpu_memory_settings` reads none of them in
        # 0.5.9-0.5.23, and its CP hooks turn the prefill (breakable) graphs off, not the decode
        # max_bs; the MLA prefill-CP override rewrites the all-to-all backend and the ep/dp/cp
        # sizes, none of which that handler reads
        "enable_prefill_cp",
        "cp_strategy",
        "attn_cp_size",
    )
)
"""Flags outside hardware_flags.MODELLED_FLAGS that no function setting the decode CUDA-graph
max_bs reads (`handle_gpu_memory_settings`; the writers listed above)."""


def decode_max_bs_beside(state: ResolutionState, gpu: GpuProfile | None) -> None:
    """Set `cuda_graph_max_bs` where --moe-a2a-backend (with the other `BESIDE` flags) is what
    keeps the GPU-dependent resolution unknown; leave it alone otherwise."""
    logic = state.gpu_logic
    if logic is None or gpu is None or state.get("cuda_graph_max_bs") is not None or not _beside(state, gpu):
        return
    tp = state.get("tp_size")
    if not isinstance(tp, int) or isinstance(tp, bool):
        return
    mem = gpu.memory_mib
    max_bs = logic.decode_max_bs(mem, tp)
    why = f"decode CUDA-graph batch sizes for the GPU's memory ({gpu.name} has {mem} MiB) and --tp-size {tp}"
    explicit = state.config.value("cuda_graph_max_bs_decode")
    if explicit is not None:
        if not isinstance(explicit, int) or isinstance(explicit, bool):
            return
        max_bs, why = explicit, f"--cuda-graph-max-bs-decode {explicit}"
    elif logic.running_cap:
        running = state.get("max_running_requests")
        if running is not None and (not isinstance(running, int) or isinstance(running, bool)):
            return
        if running is not None and max_bs > running:
            max_bs, why = running, f"lowered to --max-running-requests {running}"
    state.set("cuda_graph_max_bs", max_bs, why, "_handle_gpu_memory_settings")
    from speclint.sglang.resolve.constants_beside import clear_beside

    if state.get("cuda_graph_bs") is None and clear_beside(state, "cuda_graph_bs"):
        # the release's influencers of the sizes (read) are the largest, the GPU and modelled flags
        from speclint.sglang.resolve.hardware_memory import decode_batch_sizes

        state.set(
            "cuda_graph_bs",
            decode_batch_sizes(state, max_bs),
            f"decode CUDA-graph batch sizes up to {max_bs}",
            "_handle_gpu_memory_settings",
        )
    _prefill_beside(state, gpu.memory_mib)


def _prefill_beside(state: ResolutionState, mem: int) -> None:
    """0.5.13.post1 and older: the piecewise (prefill) CUDA graphs' largest size and token counts,
    as the memory handler sets them (hardware_memory.prefill_sizes, from the chunked prefill size
    given or the GPU's), where the release's influencers of both fields (read, under its own
    names: prefill_names.py) name no flag the launch gives outside the model."""
    import speclint.sglang.gpu_resolution as gpu_resolution
    from speclint.sglang.resolve.constants_beside import clear_beside

    read = gpu_resolution.prefill_fields(state.checked_version)
    logic = state.gpu_logic
    if read is None or logic is None:
        return
    names = [read[0].get(part) for part in ("max_bs", "bs")]
    if any(
        name is None or not clear_beside(state, name) or state.config.given(name) for name in names
    ) or any(state.get(f) is not None for f in ("cuda_graph_max_bs_prefill", "cuda_graph_bs_prefill")):
        return
    chunk = state.get("chunked_prefill_size")
    if chunk is None:
        chunk = logic.tier(mem).chunked_prefill_size
    if not isinstance(chunk, int) or isinstance(chunk, bool):
        return
    from speclint.sglang.resolve.hardware_memory import prefill_sizes

    prefill_sizes(state, chunk)


def chunk_beside(state: ResolutionState, gpu: GpuProfile | None) -> None:
    """After the start-up checks (steps.py; they describe the chunk they read from the launch,
    `chunk_at_handler`): the chunked prefill size the all-to-all handlers read
    (`refusals_a2a_budget.chunk_at_handler`: given, or the GPU's default for the text targets
    and Kimi-K2.5, split by attention DP) as the resolved value, where the same flags as
    `decode_max_bs_beside` leave the rest unknown."""
    from speclint.sglang.resolve.result import is_known

    if is_known(state.get("chunked_prefill_size")) or not _beside(state, gpu):
        return
    from speclint.sglang.resolve.refusals_a2a_budget import chunk_at_handler
    from speclint.sglang.resolve.refusals_moe_defaults import _attention_dp

    split, divisor = chunk_at_handler(state), _attention_dp(state)
    if split is None or divisor is None:
        return
    given_size = (
        state.config.value("chunked_prefill_size") if state.config.given("chunked_prefill_size") else None
    )
    assert gpu is not None
    size = given_size if isinstance(given_size, int) else split[0] * divisor
    state.values["chunked_prefill_size"] = given_size
    if given_size is None:
        from speclint.sglang.resolve.hardware_memory import HANDLER_MEM

        tier = f"{gpu.name} has {gpu.memory_mib} MiB"
        state.set("chunked_prefill_size", size, f"the default for the GPU's memory ({tier})", HANDLER_MEM)
    if divisor > 1 and size > 0:
        state.set(
            "chunked_prefill_size",
            size // divisor,
            f"DP attention splits the chunked prefill among {divisor} groups",
            "_handle_data_parallelism",
            f"DP attention is enabled. chunked prefill size is adjusted from {size} to {size // divisor}.",
        )


def _beside(state: ResolutionState, gpu: GpuProfile | None) -> bool:
    """--moe-a2a-backend (with the other `BESIDE` flags) is what keeps the GPU-dependent
    resolution unknown: a CUDA GPU, a modelled architecture, every other flag modelled."""
    return (
        gpu is not None
        and gpu.vendor == "nvidia"
        and state.traits.gpu_resolution
        and state.config.given("moe_a2a_backend")
        and state.get("device") == "cuda"
        and state.target_architecture in MODELLED_ARCHITECTURES
        and modelled_flags_problem(state.config, BESIDE) is None
    )
