"""Which GPUs a resolved launch opens, and the layouts SGLang refuses after resolution:
the attention-DP size, the split of tp x pp over nodes, the CUDA ordinals each node's
workers select (each release's `entrypoints/engine.py` / `data_parallel_controller.py`), and
CUDA_VISIBLE_DEVICES entries. Read by rules and by `speclint run`; split from `parallel`."""

from __future__ import annotations

from functools import cache, lru_cache

from speclint.core import patterns
from speclint.sglang.resolve.parallel import int_or_none, own_traits

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from collections.abc import Mapping

    from speclint.sglang.flags.launch_config import LaunchConfig
    from speclint.sglang.resolve.gpu_workers import GpuUse as GpuUse  # (re-exported for rules)
    from speclint.sglang.resolve.rejection import Rejection


def attention_dp_size(effective: Mapping[str, object], version: str) -> int | None:
    """How many attention-DP groups split the TP ranks: `attn_dp_size` in 0.5.23, `dp_size`
    with `enable_dp_attention` before. None when not an int (unknown)."""
    traits = own_traits(version)
    if traits is not None and traits.separate_attn_dp_size:
        return int_or_none(effective.get("attn_dp_size"))
    enabled = effective.get("enable_dp_attention")
    if enabled is False:
        return 1
    return int_or_none(effective.get("dp_size")) if enabled is True else None


def node_split_rejection(effective: Mapping[str, object], config: LaunchConfig) -> Rejection | None:
    """`check_server_args` (every release): `(tp_size * pp_size) % nnodes == 0`, skipped in
    0.5.23 for `--elastic-ep-join-mode scale`. It runs after resolution, so it is reported here
    rather than stopping the resolver."""
    tp, pp, nnodes = (int_or_none(effective.get(n)) for n in ("tp_size", "pp_size", "nnodes"))
    if pp is None and not config.knows("pp_size"):
        pp = 1  # a release without pipeline parallelism (0.4.6): `tp_size % nnodes == 0`
    if tp is None or pp is None or not nnodes or (tp * pp) % nnodes == 0:
        return None
    if config.knows("ep_join_mode") and config.value("ep_join_mode") == "scale":
        return None
    from speclint.sglang.resolve.rejection import Rejection

    return Rejection(
        "AssertionError",
        "tp_size must be divisible by number of nodes",
        "check_server_args",
        ("tp_size", "pp_size", "nnodes"),
    )


def gpu_use(
    effective: Mapping[str, object], config: LaunchConfig, version: str, co_launched: bool = False
) -> GpuUse | None:
    """Each worker's `gpu_id` (engine.py `_launch_subprocesses` / `_calculate_rank_ranges`,
    data_parallel_controller.py): `base_gpu_id + replica_offset + (pp_rank % pp_per_node) *
    tp_per_node + (tp_rank % tp_per_node) * gpu_id_step`. None when a size is unknown or
    SGLang rejects the split first. `co_launched`: sglang-router's co-launcher, whose
    `--dp-size` (as written) counts its workers, worker i given `base_gpu_id = i * tp_size`
    (`speclint.sglang.router.worker_sets`) over the written one, each its own dp_size 1."""
    get = effective.get  # (no generator expressions: a rule asks this of every launch)
    tp, pp, nnodes, dp = (
        int_or_none(get("tp_size")),
        int_or_none(get("pp_size")),
        int_or_none(get("nnodes")),
        int_or_none(get("dp_size")),
    )
    launched = _co_launch_workers(config, tp) if co_launched else 1
    if launched is None:
        return None
    base = int_or_none(config.value("base_gpu_id")) if config.known("base_gpu_id") else None
    if co_launched:
        base = 0
    step = int_or_none(config.value("gpu_id_step")) if config.known("gpu_id_step") else None
    if (
        tp is None
        or pp is None
        or nnodes is None
        or dp is None
        or base is None
        or step is None
        or min(tp, pp, nnodes, dp, step) < 1
        or base < 0
    ):
        return None
    if (tp * pp) % nnodes or (config.knows("ep_join_mode") and config.value("ep_join_mode")):
        return None
    attn = attention_dp_size(effective, version)
    if attn is None:
        return None
    traits = own_traits(version)
    separate = traits is not None and traits.separate_attn_dp_size
    # Without attention DP, dp_size > 1 starts that many TP groups (the DP controller);
    # with it, the attention-DP groups live inside the TP group.
    if separate and attn > 1 and dp > 1:
        return None  # handle_data_parallelism rejects replicas with attention DP
    replicas = dp if (separate or attn == 1) else 1
    if replicas > 1 and nnodes > 1:
        return None  # check_server_args rejects multi-node replicas
    pp_per_node = max(pp // nnodes, 1)
    tp_per_node = tp // max(nnodes // pp, 1)
    # 0.4.10.post2 moves each replica by tp * step; later releases by tp * pp * step
    offset = tp * step * (pp if traits is None or traits.replica_offset_spans_pp else 1)
    if co_launched:  # each worker dp_size 1; worker i from base_gpu_id i * tp_size
        replicas, offset = launched, tp
    indices = tuple(
        base + replica * offset + pp_rank * tp_per_node + tp_rank * step
        for replica in range(replicas)
        for pp_rank in range(pp_per_node)
        for tp_rank in range(tp_per_node)
    )
    import speclint.sglang.resolve.gpu_workers as workers  # (when the sizes are known; a module:
    # `from M import name` here costs a failed lookup on each call)

    return workers.GpuUse(indices, replicas)


def _co_launch_workers(config: LaunchConfig, tp: int | None) -> int | None:
    """How many workers sglang-router's co-launcher starts (`--dp-size` as written), when each
    worker's base_gpu_id is `dp_id * tp_size` as the co-launcher read sets it; else None."""
    from speclint.sglang.router import worker_sets

    if dict(worker_sets()).get("base_gpu_id") != "dp_id * server_args.tp_size" or tp is None:
        return None
    count = int_or_none(config.value("dp_size")) if config.known("dp_size") else None
    return count if count is not None and count >= 1 else None


@cache  # compiled on first use: only for a launch with CUDA_VISIBLE_DEVICES
def _cuda_entry() -> re.Pattern[str]:
    return patterns.compile(r"\d+|GPU-[0-9A-Za-z-]+|MIG-[0-9A-Za-z/-]+")


@lru_cache(maxsize=256)  # a batch repeats a few values
def visible_gpu_count(value: str) -> int | None:
    """GPUs `CUDA_VISIBLE_DEVICES=value` leaves visible (CUDA Programming Guide: an empty
    value hides every GPU; entries are indices, `GPU-` UUIDs or `MIG-` ids; an invalid entry
    hides itself and every entry after it). None when speclint cannot tell (blanks,
    repeated entries)."""
    if value == "":
        return 0
    entries = value.split(",")
    count = 0
    for entry in entries:
        if entry != entry.strip():
            return None
        if not _cuda_entry().fullmatch(entry):
            break
        count += 1
    seen = entries[:count]  # duplicates: CUDA's handling is not documented
    if len(set(seen)) != len(seen):
        return None
    return count


@lru_cache(maxsize=256)
def hidden_cuda_entry(value: str) -> str | None:
    """The first entry of `CUDA_VISIBLE_DEVICES` that CUDA rejects (it hides the rest)."""
    for entry in value.split(",") if value else ():
        if not _cuda_entry().fullmatch(entry):
            return entry
    return None
