"""--moe-a2a-backend deepep_v2's decode CUDA-graph budget (0.5.19+): after resolution,
`validate_deepep_v2_dispatch_token_budget` refuses a server whose largest decode CUDA graph
dispatches more tokens per rank than SGLANG_DEEPEP_V2_NUM_MAX_DISPATCH_TOKENS_PER_RANK holds
(read per release: moe_a2a_facts.deepep_v2_decode, tools/sglang_deepep_v2_decode.py).

The graph's batch size is `cuda_graph_max_bs` as resolved (beside --moe-a2a-backend:
a2a_decode_graph.py), lowered to --max-running-requests over the attention-DP size where that
is given. Not judged: a prefill server, decode CUDA graphs off (--disable-cuda-graph, an
attention backend given that turns them off), a speculative algorithm (its tokens per
request), or any term speclint cannot read. Oracle (record.py --generator a2a, seeds 20002 and
20004, 0.5.19, 0.5.20 and 0.5.23, fake H100): DeepSeek-V3 with --dp-size 4 or 2 on a decode
server (512 requests, capacity 128) refused so."""

from __future__ import annotations

import re

from speclint.sglang.resolve.result import is_known
from speclint.sglang.resolve.state import Stop, given

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.resolve.state import ResolutionState

_GRAPHS_OFF = ("torch_native", "flex_attention")
"""Attention backends `_handle_attention_backend_compatibility` turns CUDA graphs off for."""
_LOWER = re.compile(r"lower (--[\w-]+)")


def check_deepep_v2_decode(state: ResolutionState) -> None:
    from speclint.sglang.moe_a2a_facts import deepep_v2_decode

    read = deepep_v2_decode(state.checked_version)
    if read is None:
        return
    mode = state.get("disaggregation_mode")
    if mode is None:
        mode = given(state, "disaggregation_mode")
    if not is_known(mode) or mode == "prefill" or given(state, "speculative_algorithm") is not None:
        return
    if given(state, "disable_cuda_graph") not in (None, False):
        return
    for name in ("attention_backend", "decode_attention_backend", "prefill_attention_backend"):
        backend = given(state, name)
        if backend is not None and (not isinstance(backend, str) or backend in _GRAPHS_OFF):
            return
    graph_bs = state.get("cuda_graph_max_bs")
    if not _plain(graph_bs):
        return
    assert isinstance(graph_bs, int)
    how = f"cuda_graph_max_bs {graph_bs}"
    running = state.get("max_running_requests")
    if running is not None:
        ranks = _attention_dp(state, read.attention_dp)
        if not _plain(running) or ranks is None:
            return
        assert isinstance(running, int)
        pool = max(1, running // ranks)
        if pool < graph_bs:
            graph_bs = pool
            how += f", lowered to --max-running-requests {running} // {ranks} attention-DP ranks"
    capacity = read.capacity(state.env)
    if capacity is None or graph_bs <= capacity[0]:
        return
    limit, source = capacity
    lower = _LOWER.search(read.message)
    fix = f", or pass {lower.group(1)} {limit} or lower" if lower else ""
    server = "a decode server" if mode == "decode" else "a server without disaggregation"
    raise Stop(
        "ValueError",
        read.message.format(required=graph_bs, capacity=limit, requests=graph_bs, tokens=1)
        + f" (--moe-a2a-backend deepep_v2 on {server} captures decode CUDA graphs of up to "
        f"{graph_bs} requests, 1 token each: {how}; > {source}; set {read.variable} to at least "
        f"{graph_bs}{fix})",
        read.where,
        ("cuda_graph_max_bs_decode", "max_running_requests", "moe_a2a_backend"),
    )


def _plain(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _attention_dp(state: ResolutionState, form: str) -> int | None:
    """The attention-DP size the check divides --max-running-requests by (None: unread)."""
    if form == "attn_dp_size":
        size = state.get("attn_dp_size")
        return size if _plain(size) and isinstance(size, int) and size >= 1 else None
    if form != "dp_size_if_enabled":
        return None
    enabled, size = state.get("enable_dp_attention"), state.get("dp_size")
    if enabled is False or enabled is None:
        return 1
    if enabled is True and _plain(size) and isinstance(size, int) and size >= 1:
        return size
    return None
