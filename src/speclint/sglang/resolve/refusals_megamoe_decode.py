"""MegaMoE's decode token budget (0.5.21+ `validate_mega_moe_token_budget`, before its
disaggregation returns): on a server that decodes (no --disaggregation-mode prefill) the largest
decode / verify forward on one rank, the decode CUDA graph's largest batch times the tokens per
request (a speculative algorithm's draft tokens, else 1), must fit the budget's variable
(SGLANG_OPT_DEEPGEMM_MEGA_MOE_NUM_MAX_TOKENS_PER_RANK). 0.5.23 first caps the batch at the
per-rank requests (--max-running-requests over the attention-DP size, aligned up to the
attention-TP size). The test, the message and the cap's expression are read per release
(`megamoe_token_budget.decode`, tools/sglang_megamoe_decode.py). Judged where every term is
known: the disaggregation mode, the decode CUDA graph's max batch as resolved
(a2a_decode_graph.py), the speculative algorithm and its draft tokens, and for the cap the
resolved --max-running-requests, attention-DP and TP sizes; else nothing."""

from __future__ import annotations

from speclint.sglang.resolve.result import is_known
from speclint.sglang.resolve.state import Stop, given

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from speclint.sglang.resolve.state import ResolutionState


def check_decode_budget(
    state: ResolutionState, read: dict[str, Any], label: str, limit: int, how: str
) -> None:
    from speclint.sglang.resolve.refusals_megamoe_dp import _evaluate, _integer

    decode = read["decode"]
    mode = state.get("disaggregation_mode")
    if mode is None:
        mode = given(state, "disaggregation_mode")
    if (
        not is_known(mode)
        or mode == "prefill"
        or decode.get("test") != "cfg.disaggregation_mode != 'prefill'"
        or given(state, "encoder_only") not in (None, False)
    ):
        return
    graph_bs = _integer(state.get("cuda_graph_max_bs"))
    if graph_bs is None:
        return
    batch, how_batch = graph_bs, f"decode CUDA-graph max batch {graph_bs}"
    running = state.get("max_running_requests")
    requests = decode.get("requests")
    if isinstance(requests, str) and running is not None:
        values = {
            "cfg.max_running_requests": _integer(running),
            "cfg.attn_dp_size": _integer(state.get("attn_dp_size")),
            "cfg.tp_size": _integer(state.get("tp_size")),
        }
        cap = _evaluate(requests, values)
        if cap is None:
            return
        if cap < batch:
            batch = cap
            source = (
                f"--max-running-requests {running}"
                if given(state, "max_running_requests") == running
                else f"max_running_requests {running} as SGLang resolves it"
            )
            how_batch += f", capped at {cap} requests per rank ({source})"
    algorithm = state.get("speculative_algorithm")
    if not is_known(algorithm):
        return
    tokens = 1
    if algorithm:
        drafted = state.get("speculative_num_draft_tokens")
        if not is_known(drafted) or (drafted is not None and _integer(drafted) is None):
            return
        tokens = _integer(drafted) or 1
    required = batch * tokens
    if limit >= required:
        return
    per = f" x {tokens} draft tokens per request ({algorithm})" if algorithm else ", 1 token per request"
    raise Stop(
        "ValueError",
        str(decode["message"]).format(label=label, tokens=required, limit=limit)
        + f" (--moe-a2a-backend megamoe on a server that decodes: {how_batch}{per} = {required} "
        f"tokens per rank, {how}; set {read['env']}={required} or more, or lower "
        "--cuda-graph-max-bs-decode / --max-running-requests)",
        str(read["where"]),
        ("cuda_graph_max_bs_decode", "max_running_requests", "moe_a2a_backend"),
    )
