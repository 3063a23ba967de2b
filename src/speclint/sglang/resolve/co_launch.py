"""sglang-router's co-launcher (`python -m sglang_router.launch_server`): each data-parallel
worker runs SGLang on a copy of the parsed ServerArgs with the fields the co-launcher's
`launch_server_process` sets (`speclint.sglang.router.worker_sets`, read from every
sglang-router release). Of them only `dp_size` is a field resolution models (`base_gpu_id`
and `port` are not): each worker gets `dp_size = 1`, so it starts no data-parallel controller
of its own, and `--dp-size` only counts the workers.

When that happens against SGLang's resolution is the release's (`sglang_resolution`): 0.5.19
on resolve the copy in the worker (`resolve_once` in `_launch_subprocesses`), so every step
sees `dp_size = 1`; before, `__post_init__` resolved the co-launcher's own `ServerArgs` with
the value written, and only the worker's `check_server_args()` sees the copy's."""

from __future__ import annotations

from speclint.sglang.router import sglang_resolution, worker_sets

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.resolve.state import ResolutionState

HANDLER = "sglang_router.launch_server.launch_server_process"


def worker_resolution(state: ResolutionState) -> str | None:
    """Where SGLang resolves the worker's copy: "worker", "parent", or None (not read for
    this SGLang release: dp_size is marked unknown)."""
    where = sglang_resolution(state.checked_version)
    if where is None:
        state.mark_unknown(
            "dp_size",
            "sglang-router's co-launcher sets each worker's dp_size to 1; whether SGLang "
            f"resolves before or after it is unverified for SGLang {state.checked_version}",
        )
    return where


def set_worker_fields(state: ResolutionState, where: str) -> None:
    """The co-launcher's assignments on the worker's copy, for the fields resolution models."""
    workers = state.asked.get("dp_size")
    count = f"{workers} workers" if isinstance(workers, int) else "one worker per --dp-size"
    when = (
        "before SGLang resolves it in the worker"
        if where == "worker"
        else "after SGLang resolved the whole launch in __post_init__ (the worker's check_server_args sees it)"
    )
    for field, source in worker_sets():
        if field not in state.values or not source.isdigit():
            continue
        state.set(
            field,
            int(source),
            f"sglang_router.launch_server starts {count}, each with a copy of the server "
            f"arguments where {field} = {source}, {when}",
            HANDLER,
            None,
        )
