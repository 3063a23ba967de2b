"""Which flags the GPU-dependent resolution model (hardware.py) covers for SGLang 0.5.23.

Any other flag may feed a hook speclint has not read (LoRA, HiCache, disaggregation, ...),
so with one of them the GPU-dependent fields are reported unknown instead of guessed.

Here too what hardware.py asks of every launch and `hardware_memory` (the memory settings,
imported only where a GPU is known) shares: the MLA and multimodal architectures, the
attention-DP groups.
"""

from __future__ import annotations

from speclint.sglang.flags.own_dests import OWN_DESTS  # (router's or bench script's: every flag)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.flags.launch_config import LaunchConfig
    from speclint.sglang.resolve.state import ResolutionState

MLA_ARCHITECTURES = ("DeepseekV3ForCausalLM", "KimiK25ForConditionalGeneration")
"""`use_mla_backend`: the text model's attention is MLA (`kv_lora_rank` in its config)."""
VLM_ARCHITECTURES = ("KimiK25ForConditionalGeneration",)
MODELLED_ARCHITECTURES = (
    "LlamaForCausalLM",
    "Qwen3ForCausalLM",
    "DeepseekV3ForCausalLM",
    "KimiK25ForConditionalGeneration",
)
"""The targets hardware.py resolves the GPU-dependent fields for (a2a_decode_graph.py too)."""

SERVING_ONLY = frozenset(("host", "port", "log_level", "api_key", "enable_metrics", "random_seed"))
"""Serving only: no resolution hook reads them for the GPU-dependent fields, so their value,
even one speclint cannot read (`--port $PORT`), changes none of those fields."""
MODELLED_FLAGS = (
    frozenset(
        (
            # what the model reads
            "model_path",
            "tokenizer_path",
            "revision",
            "served_model_name",
            "trust_remote_code",
            "device",
            "tp_size",
            "tensor_parallel_size",  # --tp-size before 0.5.14 (parallel.py: tp_size from it)
            "pp_size",
            "dp_size",
            "data_parallel_size",  # --dp-size before 0.5.14 (parallel.py: dp_size from it)
            "attn_dp_size",
            "enable_dp_attention",
            "nnodes",
            "node_rank",
            "base_gpu_id",
            "gpu_id_step",
            "dist_init_addr",
            "chunked_prefill_size",
            "mem_fraction_static",
            "max_running_requests",
            "max_total_tokens",
            "max_prefill_tokens",
            "context_length",
            "page_size",
            "attention_backend",
            "prefill_attention_backend",
            "decode_attention_backend",
            "kv_cache_dtype",
            "disable_cuda_graph",
            "disable_cuda_graph_padding",
            "cuda_graph_max_bs_decode",
            "cuda_graph_max_bs_prefill",
            "schedule_conservativeness",
            "sampling_backend",
            "enable_mixed_chunk",
            "disable_overlap_schedule",
            "quantization",
            "disable_radix_cache",
            "speculative_algorithm",
            "speculative_draft_model_path",
            "speculative_draft_model_revision",
            "speculative_num_steps",
            "speculative_eagle_topk",
            "speculative_num_draft_tokens",
            "speculative_ngram_max_bfs_breadth",
        )
    )
    | SERVING_ONLY
)


BESIDE = frozenset(
    (
        "enable_mis",
        "enable_deterministic_inference",
        "moe_runner_backend",
        "dtype",
        "moe_a2a_backend",
        "enable_prefill_cp",
        "enable_prefill_context_parallel",
        "cp_strategy",
        "attn_cp_size",
        "attention_context_parallel_size",
        "ep_size",
        "disaggregation_mode",
    )
)
"""Flags outside MODELLED_FLAGS that leave 0.5.22+'s attention backend pick readable (per
release: beside_reads.beside_for, from where each release's pickers name them, read by
tools/gen_sglang_backend_reads.py; the reasons below were first audited by hand):
--enable-mis changes nothing before it (`_handle_multi_item_scoring` runs after
`_attention_backend_default`, attention_hook.py, and reads the backend it picked);
--enable-deterministic-inference's fallback is modelled in deterministic.py (kept here, not
there: hardware.py asks every launch whether one is given, without importing the fallback's
modules). Confirmed with tools/oracle on 0.5.23 (Llama 3.1, Qwen3, DeepSeek-V3 on an H100
and a B200). --moe-runner-backend and --dtype: no function that picks the attention backend reads them in 0.5.15-0.5.23
(`_get_default_attn_backend` / `get_default_attn_backend`, `_attention_backend_default`,
`_handle_attention_backend_compatibility`, `_deepseek_family_overrides`, whose only
moe_runner_backend read, 0.5.20+, sets HYV4's MoE runner), so DeepSeek-V3 and Kimi-K2.5 get
trtllm_mla on Blackwell with them too (oracle: 0.5.23 refused `--moe-runner-backend intel_xpu`
and `--dtype float16` launches for trtllm_mla's KV-cache dtype check, seeds 12022 and 13021).
--moe-a2a-backend: those functions and the page-size ones (`_handle_page_size`,
`_page_size_default`, `_mla_backend_page_constraints`) test it in 0.5.4.post1-0.5.23 only to
pick the MoE runner (`moe_a2a_backend == "none" and moe_runner_backend == "auto"`) or the
all-reduce fusion, and write it (MLA context parallelism), so the backend and its page size are
the GPU's with it too (oracle: seed a2a-16005, 0.5.18-0.5.23, the page size recorded on every
launch agrees, and its chunked-prefill/page refusals are found). --enable-prefill-cp (0.5.10-0.5.13
--enable-prefill-context-parallel), --cp-strategy and --attn-cp-size (0.5.13
attention_context_parallel_size): those functions do not read them, nor a field
the DeepSeek override's MLA prefill-CP block writes (attention DP/CP sizes, --dp-size,
enable_dp_attention, ep_size, the all-to-all backend, moe_dense_tp_size), in 0.5.10-0.5.23; that
block runs after the override's Blackwell trtllm_mla fill, which it leaves as it is (DSA targets,
whose CP block does test the switch, are outside `deepseek_blackwell.applies`); 0.5.19+
`handle_attention_backend_compatibility` tests the CP switch and attn_cp_size only to refuse a
trtllm_mha prefill backend off SM100, which leaves the pick as it is. --ep-size and
--disaggregation-mode: no function that picks the backend or its page size reads them, and the
DeepSeek trtllm_mla fill does not test them (0.5.3-0.5.23; the fields those functions read are the backends, page size, KV-cache dtype,
speculative algorithm and top-k, radix cache, mixed chunk, memory fraction, CUDA-graph config,
TP and CP sizes). Oracle: prefill_cp seeds 25002
(0.5.13-0.5.23) and 26001 (0.5.15.post1, 0.5.18, 0.5.21-0.5.23), H100/H200/B200: the backend and
page size recorded agree, and 0.5.23's EAGLE top-k > 1 refusal under trtllm_mla on a B200 is
found (with --ep-size and --disaggregation-mode decode too); seed 26004 (DeepSeek-V3, Qwen3,
Llama 3.1 with --disaggregation-mode and --ep-size on 0.5.5, 0.5.9, 0.5.12, 0.5.14, H100 and
B200): the backend and page size recorded agree."""


def modelled_flags_problem(config: LaunchConfig, beside: frozenset[str] = frozenset()) -> str | None:
    """Why the GPU-dependent fields cannot be predicted from the flags given (None: they can);
    the flags in `beside` count as modelled (for the one field a caller models them for)."""
    if config.uncertain:
        return "the launch has words speclint cannot read"
    for use in config.parsed.uses:
        spec = use.spec
        if spec is None or use.how in ("ambiguous", "unknown") or OWN_DESTS[spec.dest]:
            continue  # sglang_router.launch_server's or a benchmark script's own option
        if spec.dest not in MODELLED_FLAGS and spec.dest not in beside:
            return f"{use.matched or use.written} feeds SGLang hooks speclint does not model"
        if use.dynamic and spec.dest not in SERVING_ONLY:
            return f"{use.matched or use.written} is set from a value speclint cannot read"
        if spec.dest in HUMAN_INTS and plain_int(use.value) is None:
            return f"{use.matched or use.written} {use.value} is not a plain integer"
    return None


def outside_dests(config: LaunchConfig) -> dict[str, str]:
    """The dests `modelled_flags_problem` finds outside the model: flags outside MODELLED_FLAGS,
    modelled ones set from a value speclint cannot read or (HUMAN_INTS) not a plain integer;
    empty where the launch has words speclint cannot read (nothing can be said then). Each dest ->
    the flag as the launch spells it."""
    if config.uncertain:
        return {}
    out: dict[str, str] = {}
    for use in config.parsed.uses:
        spec = use.spec
        if spec is None or use.how in ("ambiguous", "unknown") or OWN_DESTS[spec.dest]:
            continue
        if (
            spec.dest not in MODELLED_FLAGS
            or (use.dynamic and spec.dest not in SERVING_ONLY)
            or (spec.dest in HUMAN_INTS and plain_int(use.value) is None)
        ):
            out.setdefault(spec.dest, str(use.matched or use.written))
    return out


HUMAN_INTS = ("max_total_tokens", "max_prefill_tokens", "context_length")
"""Flags SGLang parses with `human_readable_int` (`4k`, `1Mi`); speclint reads digits only."""


def plain_int(value: object) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    return None


def attention_dp_groups(state: ResolutionState, given: bool = False) -> int | None:
    """The attention-DP groups `handle_gpu_memory_settings` and `handle_data_parallelism`
    adjust for, 0 when they adjust nothing, None when unknown: `attn_dp_size` above 1
    (0.5.22+), else `dp_size` while --enable-dp-attention is on (before 0.5.22; as given when
    `given`: the memory reserve runs before `_data_parallelism_defaults` turns it off for
    --dp-size 1)."""
    if state.traits.separate_attn_dp_size:
        size = state.get("attn_dp_size")
        return (size if size > 1 else 0) if isinstance(size, int) else None
    enabled = state.asked.get("enable_dp_attention") if given else state.get("enable_dp_attention")
    if enabled is not True:
        return 0 if enabled in (False, None) else None
    size = state.get("dp_size")
    return size if isinstance(size, int) else None


def json_graph_views(state: ResolutionState) -> None:
    """0.5.14+ `--cuda-graph-config '{"prefill": {"backend": "breakable"}}'`: the release's
    `parse_cuda_graph_config` sets the JSON's (phase, key) pairs after every flag it reads, and
    locks them, so the prefill backend resolution starts from is the JSON's, as
    `--cuda-graph-backend-prefill`'s would be (`json_prefill_backend`)."""
    backend = json_prefill_backend(state)
    if backend is not None:
        state.set(
            "cuda_graph_backend_prefill",
            backend,
            "--cuda-graph-config's prefill backend, set over the per-phase flags",
            "_parse_cuda_graph_config",
        )


def json_prefill_backend(state: ResolutionState) -> str | None:
    """The prefill backend `--cuda-graph-config`'s JSON gives, where the release sets the JSON
    over the flags (`json_over_flags`, read per release by tools/gen_sglang_value_types.py) and
    its parser converted the value (`value_types.cuda_graph_config`); else None."""
    if not state.config.given("cuda_graph_config"):
        return None
    import speclint.sglang.flags.value_types as value_types

    given = state.config.value("cuda_graph_config")
    schema = value_types.config_schema(state.checked_version)
    if not isinstance(given, dict) or schema is None or not schema.get("json_over_flags"):
        return None
    prefill = given.get("prefill")
    backend = prefill.get("backend") if isinstance(prefill, dict) else None
    return backend if isinstance(backend, str) else None
