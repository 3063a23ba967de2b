"""SGLang's NGRAM speculative decoding resolution (`_handle_ngram`, 0.5.6.post2 on), per release."""

from __future__ import annotations

from speclint.sglang.resolve.result import TREE_DRAFT_BACKEND, is_known
from speclint.sglang.resolve.speculative_common import (
    as_int,
    max_running_requests,
    read_backend,
    resolved_page_size,
)
from speclint.sglang.resolve.state import Stop

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.release_traits import ReleaseTraits
    from speclint.sglang.resolve.state import ResolutionState


def resolve_ngram(state: ResolutionState, traits: ReleaseTraits) -> None:
    handler = "_handle_ngram"
    device = state.get("device")
    if (
        isinstance(device, str)
        and not any(device.startswith(d) for d in traits.ngram_devices)
        and device != "auto"
    ):
        raise Stop("ValueError", traits.ngram_device_error, handler, ("device",))
    if traits.cpu_disables_overlap and device == "cpu":
        state.set(
            "disable_overlap_schedule",
            True,
            "no overlap scheduler for speculative decoding on CPU",
            "_disable_overlap_schedule_for_cpu",
        )
    max_running_requests(state, handler, True)
    if traits.ngram_disables_overlap:
        state.set(
            "disable_overlap_schedule",
            True,
            "NGRAM disables the overlap scheduler",
            handler,
            "The overlap scheduler and mixed chunked prefill are disabled "
            "because of using ngram speculative decoding.",
        )
    if state.get("enable_mixed_chunk") is True:
        state.set(
            "enable_mixed_chunk",
            False,
            "NGRAM does not support mixed chunked prefill",
            handler,
            "The mixed chunked prefill are disabled because of using ngram speculative decoding.",
        )
    breadth = state.get("speculative_ngram_max_bfs_breadth")
    state.set(
        "speculative_eagle_topk",
        breadth,
        "NGRAM always sets topk to --speculative-ngram-max-bfs-breadth; --speculative-eagle-topk is ignored",
        handler,
    )
    if state.get("speculative_num_draft_tokens") is None:
        flag = traits.ngram_default_draft_tokens_flag
        default = state.get(flag) if flag else 12
        state.set(
            "speculative_num_draft_tokens",
            default,
            "NGRAM's default draft tokens",
            handler,
            "speculative_num_draft_tokens is set to 12 by default for ngram speculative decoding."
            if not flag
            else None,
        )
    draft = state.get("speculative_num_draft_tokens")
    topk = state.get("speculative_eagle_topk")
    if (
        traits.ngram_sets_steps
        and state.get("speculative_num_steps") is None
        and topk == 0
        and is_known(draft)
    ):
        raise Stop(
            "ZeroDivisionError",
            "integer division or modulo by zero "
            "(speculative_num_draft_tokens // speculative_eagle_topk, and NGRAM takes "
            "topk from --speculative-ngram-max-bfs-breadth 0)",
            handler,
            ("speculative_ngram_max_bfs_breadth",),
        )
    if (
        traits.ngram_sets_steps
        and state.get("speculative_num_steps") is None
        and is_known(draft)
        and is_known(topk)
        and topk
    ):
        state.set(
            "speculative_num_steps",
            as_int(draft) // as_int(topk),
            "NGRAM's default steps are draft tokens // topk",
            handler,
        )
    page_size = resolved_page_size(state, traits)
    backend = state.get("attention_backend")
    if (
        is_known(topk)
        and topk
        and as_int(topk) > 1
        and isinstance(page_size, int)
        and page_size > 1
        and read_backend(state, backend)
        and backend != "flashinfer"
    ):
        raise Stop(
            "ValueError",
            f"speculative_eagle_topk({topk}) > 1 with page_size({page_size})"
            " > 1 is unstable and produces incorrect results for paged attention backends. "
            "This combination is only supported for the 'flashinfer' backend.",
            handler,
            # the page size SGLang set for the backend (trtllm_mla's 64) is not the one asked
            ("page_size", "attention_backend")
            if page_size == state.asked.get("page_size")
            else ("attention_backend", "speculative_algorithm"),
            TREE_DRAFT_BACKEND,
        )
    if state.attention_dp():
        raise Stop(
            "ValueError",
            "Currently ngram speculative decoding does not support dp attention.",
            handler,
            ("speculative_algorithm",),
        )
