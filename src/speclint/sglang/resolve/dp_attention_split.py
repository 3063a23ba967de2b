"""SGLang's `handle_data_parallelism` with attention DP (0.5.23's `parallel_hook.py`; the
releases speclint.sglang.gpu_resolution names): a third of the conservativeness, the chunked
prefill and the prefill CUDA graphs split among the attention-DP groups (after the memory
settings, `hardware`)."""

from __future__ import annotations

from speclint.sglang.resolve.hardware_flags import attention_dp_groups
from speclint.sglang.resolve.hardware_memory import as_int, as_number, prefill_batch_sizes

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.resolve.state import ResolutionState


def split_for_dp_attention(state: ResolutionState) -> None:
    """`handle_data_parallelism` with attention DP: a third of the conservativeness and the
    chunked prefill split among the attention-DP groups."""
    attn = as_int(attention_dp_groups(state))
    if not attn:
        return
    handler = "_handle_data_parallelism"
    state.set(
        "schedule_conservativeness",
        as_number(state.config.value("schedule_conservativeness")) * 0.3,
        "DP attention schedules less conservatively",
        handler,
    )
    chunked = as_int(state.get("chunked_prefill_size"))
    split = chunked // attn
    state.set(
        "chunked_prefill_size",
        split,
        f"DP attention splits the chunked prefill among {attn} groups",
        handler,
        f"DP attention is enabled. chunked prefill size is adjusted from {chunked} to {split}.",
    )
    prefill_max = state.get("cuda_graph_max_bs_prefill")
    if (
        state.get("cuda_graph_backend_prefill") != "disabled"
        and state.config.value("cuda_graph_max_bs_prefill") is None
        and as_int(prefill_max) > split
    ):
        state.set(
            "cuda_graph_max_bs_prefill",
            split,
            "prefill CUDA graphs follow the split chunked prefill",
            handler,
        )
        state.set(
            "cuda_graph_bs_prefill",
            prefill_batch_sizes(state, split),
            f"prefill CUDA-graph token counts up to {split}",
            handler,
        )
