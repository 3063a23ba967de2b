"""`check_server_args`'s "chunked_prefill_size must be divisible by page_size" (0.4.9.post4+),
with the guard each release puts around it, as tools/gen_sglang_server_checks.py read it from
the release's wheel (`data/sglang_server_checks.json`): none in 0.4.9.post4-0.4.10.post2, so
--chunked-prefill-size -1 (chunked prefill off) fails with any page size above 1; later only a
positive size is checked (0.5.3+: not on a decode server of a disaggregated pair). Read with
both sizes known (a given -1 stays -1), after the page size the attention backend forces.
0.4.4-0.4.9.post3 assert it earlier, with no message, in `__post_init__` ("post_init"):
right after the chunked prefill default, on the sizes as given (before DP attention splits
the chunk and before an attention backend forces a page size); a size left to SGLang's
GPU-dependent default is not read there."""

from __future__ import annotations

from functools import lru_cache

from speclint.sglang.resolve.state import Stop, given
from speclint.sglang.server_checks import SERVER_CHECKS as _FILE
from speclint.sglang.server_checks import server_check as server_check

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.resolve.state import ResolutionState

_CHECKED = ("always", "positive", "positive_not_decode", "post_init")


@lru_cache(maxsize=32)
def _guard(version: str) -> str:
    """The release's guard on the chunked-prefill/page check (one JSON row read per release)."""
    row = _FILE.row(version)
    if not isinstance(row, dict) or "chunked_prefill_page" not in row:
        return "none"
    return str(_FILE.shared(row["chunked_prefill_page"]))


def check_chunked_prefill_page(state: ResolutionState) -> None:
    guard = _guard(state.checked_version)
    if guard not in _CHECKED:
        return
    if guard == "post_init":
        _check_post_init(state)
        return
    chunk, page = state.get("chunked_prefill_size"), state.get("page_size")
    page = 1 if page is None else page
    if not isinstance(chunk, int) and given(state, "chunked_prefill_size") == -1:
        chunk = -1  # kept as given: the only rewrite, `// dp_size` for DP attention, keeps -1
    elif not isinstance(chunk, int) and isinstance(page, int):
        from speclint.sglang.resolve.refusals_a2a_budget import split_chunk

        chunk = split_chunk(state)  # the size given, split by attention DP, for a text target
    if not isinstance(chunk, int) or isinstance(chunk, bool) or not isinstance(page, int) or page < 1:
        return  # unknown (picked for the GPU, dynamic) or not set
    if guard != "always" and chunk <= 0:
        return
    mode = state.get("disaggregation_mode")
    if mode is None:  # a field the resolution does not track: the launch's own value
        mode = given(state, "disaggregation_mode")
    if guard == "positive_not_decode" and mode not in ("null", None, "prefill"):
        return  # a decode server skips it (the guard reads `!= "decode"`); a dynamic mode may be one
    if chunk % page == 0:
        return
    off = " (-1 turns chunked prefill off, and this release checks it all the same)" if chunk < 0 else ""
    raise Stop(
        "AssertionError",
        f"chunked_prefill_size must be divisible by page_size (--chunked-prefill-size {chunk} with "
        f"page size {page}{off}; use a multiple of {page}, or drop --page-size)",
        "check_server_args",
        ("chunked_prefill_size", "page_size"),
    )


def _check_post_init(state: ResolutionState) -> None:
    chunk, page = given(state, "chunked_prefill_size"), given(state, "page_size")
    page = 1 if page is None else page
    if not isinstance(chunk, int) or isinstance(chunk, bool) or not isinstance(page, int) or page < 1:
        return  # not given (SGLang's default for the GPU), unreadable, or not set
    if isinstance(page, bool) or chunk % page == 0:
        return
    off = " (-1 turns chunked prefill off, and this release checks it all the same)" if chunk < 0 else ""
    raise Stop(
        "AssertionError",
        f"assert chunked_prefill_size % page_size == 0 fails (--chunked-prefill-size {chunk} with "
        f"page size {page}{off}; use a multiple of {page}, or drop --page-size)",
        "__post_init__",
        ("chunked_prefill_size", "page_size"),
    )
