"""Which releases speclint resolves the GPU-dependent fields for (resolve/hardware.py), and the
numbers it resolves them with, read from each release's wheel by
tools/gen_sglang_gpu_resolution.py (`data/sglang_gpu_resolution.json`).

A release's `shape` is the digest of each function the GPU-dependent resolution is made of
(`handle_gpu_memory_settings`, the CUDA-graph, attention-backend and page-size handlers,
`handle_data_parallelism`), with the numbers read below cut out. speclint states the
GPU-dependent values of a release whose shape is that of a release in `CHECKED`; any other
release leaves them Unknown, "unverified for SGLang X"."""

from __future__ import annotations

import os
from functools import lru_cache

from speclint.core.records import dataclass
from speclint.sglang.linedata import LineData

_FILE = LineData(
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "sglang_gpu_resolution.json")
)

CHECKED = (
    "0.5.3.post1",
    "0.5.4",
    "0.5.4.post1",
    "0.5.5",
    "0.5.6.post2",
    "0.5.7",
    "0.5.8.post1",
    "0.5.9",
    "0.5.10.post1",
    "0.5.12.post1",
    "0.5.13.post1",
    "0.5.14",
    "0.5.15.post1",
    "0.5.16",
    "0.5.17",
    "0.5.18",
    "0.5.19",
    "0.5.20",
    "0.5.21",
    "0.5.22",
    "0.5.23",
)
"""Releases whose GPU-dependent values speclint states were compared with their recordings
(tests/data/oracle/<release>.json.gz, fake H100 and B200; tests/test_oracle_recordings.py)
and agree."""


@dataclass(frozen=True, slots=True)
class MemoryTier:
    """One `if gpu_mem < bound` branch of `handle_gpu_memory_settings`."""

    bound: int | None
    """Upper bound of the GPU's memory in MiB, exclusive (None: the rest)."""
    chunked_prefill_size: int
    max_bs_small_tp: int
    """The decode CUDA-graph max_bs when tp_size < tp_bound."""
    max_bs: int
    """The decode CUDA-graph max_bs otherwise."""


@dataclass(frozen=True, slots=True)
class GpuLogic:
    """The numbers of one release's `handle_gpu_memory_settings`."""

    tiers: tuple[MemoryTier, ...]
    tp_bound: int | None
    mla_prefill_fixed: int | None
    """The MLA prefill CUDA-graph max_bs when none is given (0.5.22: 2048), or None ..."""
    mla_prefill_cap: int | None
    """... the chunked prefill size, at most this (0.5.23: 8192); both None: the chunked
    prefill size, as for other models (0.5.7)."""
    running_cap: bool
    """A default decode max_bs above --max-running-requests is lowered to it (0.5.22+)."""
    pp_disables_breakable: bool
    """`apply_cuda_graph_compatibility` turns breakable prefill CUDA graphs off for --pp-size
    above 1 (0.5.19+)."""
    multimodal_piecewise: bool
    """Multimodal models SGLang lists get tc_piecewise prefill graphs (0.5.15-0.5.16), which
    speclint does not model."""
    context_clamp: bool
    """A given --context-length caps the prefill CUDA-graph max_bs (0.5.15-0.5.16)."""
    breakable_rules: tuple[str, ...]
    """The names of `disable_breakable_cudagraph_if_incompatible`'s rules (0.5.14-0.5.16:
    "MLA attention" and "DP attention" among them)."""
    release: str
    """The release in CHECKED whose logic this is."""
    prefill_default: str
    """The prefill CUDA-graph backend on CUDA before any rule (0.5.14: "tc_piecewise",
    0.5.15+: "breakable"; `cuda_graph_config.py`)."""
    tc_piecewise_rules: tuple[str, ...]
    """The names of `disable_tc_piecewise_cudagraph_if_incompatible`'s rules."""
    piecewise_disabled_archs: tuple[str, ...]
    """`piecewise_cuda_graph_disabled_model_archs` (the "model-arch blacklist" rule)."""
    decode_reserve_unguarded: bool
    """The decode CUDA graphs' memory is reserved with decode graphs off too (0.5.14)."""
    trtllm_mla_prefill_off: bool
    """`disable_prefill_cuda_graph_for_deepseek_trtllm_mla` is there (0.5.15+)."""
    prefill_graph_flag: str
    """What turns prefill CUDA graphs on and off: "cuda_graph_config" (0.5.14+; --disable-cuda-graph
    turns them off too), "disable_piecewise_cuda_graph" (0.5.10-0.5.13.post1: a flag of their
    own), "enable_piecewise_cuda_graph" (0.5.9: off unless given) or "none" (0.5.3.post1 and
    older: no prefill CUDA graphs, `prefill_default` "disabled")."""
    speculative_reserve: tuple[tuple[str, int], ...]
    """MiB reserved for a speculative algorithm ("STANDALONE", "NGRAM", "other"; 0.5.13.post1),
    empty where the release reserves none."""
    prefill_total_clamp: bool
    """A given --max-total-tokens caps the default prefill CUDA-graph size (0.5.10+)."""
    prefill_llama2_cap: int | None
    """The prefill CUDA-graph size's cap for a model path naming "llama-2" (0.5.10+: 4096)."""
    decode_appends_max_bs: bool
    """The decode CUDA-graph batch sizes end with max_bs where the list does not (0.5.10+)."""
    prefill_constant: int | None
    """The prefill CUDA-graph size of every model, `ServerArgs`' default, where the memory
    settings do not set it (0.5.6.x: 4096); None where they do."""
    decode_ranges: tuple[tuple[str, tuple[tuple[int, int | None, int], ...]], ...]
    """The decode CUDA-graph batch sizes, `range`s as `prefill_ranges`, for "padding"
    (--disable-cuda-graph-padding), "plain" and "speculative" (0.5.4.post1: 40-60 by 4 with a
    draft, 0.5.5+: 40-64)."""
    prefill_ranges: tuple[tuple[int, int | None, int], ...]
    """The prefill CUDA-graph token counts, `list(range(a, b, c)) + ...` as (a, b, c), b None
    for `max_bs + 1` (0.5.8.post1: 640, 1025, 64 where 0.5.9+ has 576)."""
    draft_moe_auto: tuple[str, ...]
    """The target's MoE runners a draft does not follow when none is given for it: it takes
    "auto" (0.5.11: flashinfer_trtllm, flashinfer_trtllm_routed)."""
    mm_feature_transport: tuple[tuple[str, str | None], ...]
    """What an unset --mm-feature-transport resolves to on CUDA
    (`handle_multimodal_feature_transport`): ("text" / "multimodal", on one node; "..._nodes",
    on several) -> value, None where not read (0.5.17: "cuda_ipc" on one node); empty where
    the release has no such function."""

    def tier(self, memory_mib: int) -> MemoryTier:
        return next(t for t in self.tiers if t.bound is None or memory_mib < t.bound)

    def decode_max_bs(self, memory_mib: int, tp_size: int) -> int:
        tier = self.tier(memory_mib)
        small = self.tp_bound is not None and tp_size < self.tp_bound
        return tier.max_bs_small_tp if small else tier.max_bs


def _reading(version: str, name: str) -> object:
    row = _FILE.row(version)
    index = (row or {}).get(name)
    return None if index is None else _FILE.shared(index)


@lru_cache(maxsize=16)
def gpu_logic(version: str) -> GpuLogic | None:
    """`version`'s GPU-memory numbers when its logic is that of a release in CHECKED, else
    None (its GPU-dependent resolution is unverified)."""
    row = _FILE.row(version)
    if row is None or "memory" not in row:
        return None
    same = next((c for c in CHECKED if (_FILE.row(c) or {}).get("shape") == row["shape"]), None)
    raw = _reading(version, "memory")
    if (
        same is None
        or not isinstance(raw, dict)
        or raw.get("prefill_default") is None
        or not (raw.get("prefill_ranges") or raw.get("prefill_graph_flag") == "none")
        or not raw.get("decode_ranges")
    ):
        return None
    mla = raw["mla_prefill"]
    clamps = raw.get("prefill_clamps") or {}
    defaults = _reading(version, "defaults")
    transport = defaults.get("mm_feature_transport") if isinstance(defaults, dict) else None
    return GpuLogic(
        tuple(MemoryTier(*t) for t in raw["tiers"]),
        raw["tp_bound"],
        mla.get("fixed"),
        mla.get("cap"),
        raw["running_cap"] is True,
        raw["pp_disables_breakable"] is True,
        raw["multimodal_piecewise"] is True,
        raw["context_clamp"] is True,
        tuple(raw["breakable_rules"]),
        same,
        str(raw["prefill_default"]),
        tuple(raw["tc_piecewise_rules"]),
        tuple(raw["piecewise_disabled_archs"] or ()),
        raw["decode_reserve_unguarded"] is True,
        raw["trtllm_mla_prefill_off"] is True,
        str(raw["prefill_graph_flag"]),
        tuple(sorted((raw.get("speculative_reserve") or {}).items())),
        clamps.get("total_tokens") is True,
        clamps.get("llama2") if isinstance(clamps.get("llama2"), int) else None,
        raw.get("decode_appends_max_bs") is True,
        mla.get("constant"),
        tuple((k, tuple((a, b, c) for a, b, c in v)) for k, v in sorted(raw["decode_ranges"].items())),
        tuple((a, b, c) for a, b, c in raw["prefill_ranges"]),
        tuple(defaults.get("speculative_moe_auto") or ()) if isinstance(defaults, dict) else (),
        tuple(sorted(transport.items())) if isinstance(transport, dict) else (),
    )


def prefill_fields(version: str) -> tuple[dict[str, str], list[dict[str, object]]] | None:
    """Before `cuda_graph_config` (0.5.13.post1 and older): the release's `ServerArgs` fields
    its prefill (piecewise) CUDA graphs are resolved into, read from its wheel ("backend": the
    switch, disable_ or enable_piecewise_cuda_graph; "max_bs", "bs"), and the rules that turn
    the switch off after the memory settings (tools/sglang_piecewise_flag.py
    `late_piecewise_rules`); None where not read."""
    defaults = _reading(version, "defaults")
    fields = defaults.get("prefill_fields") if isinstance(defaults, dict) else None
    if not isinstance(fields, dict) or not isinstance(defaults, dict):
        return None
    return fields, list(defaults.get("late_piecewise_rules") or [])


def deepseek_runner_quantization(version: str) -> str | None:
    """The one quantization `version`'s DeepSeek-V3 SM100 branch takes the flashinfer_trtllm
    MoE runner for (0.5.3.post2-0.5.4: "modelopt_fp4", and no FP8 default beside it), which
    resolve/deepseek_blackwell.py does not model; None where its test names no single one."""
    defaults = _reading(version, "defaults")
    value = defaults.get("deepseek_runner_quantization") if isinstance(defaults, dict) else None
    return value if isinstance(value, str) else None
