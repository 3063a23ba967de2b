"""GPU memory and CUDA-graph sizing of SGLang's resolution (`_handle_gpu_memory_settings`, in
the releases speclint.sglang.gpu_resolution names): the static memory fraction, chunked
prefill, the CUDA-graph batch sizes, from the GPU's memory and the model's architecture. Split
from `hardware`, which calls it."""

from __future__ import annotations

from speclint.sglang.resolve.hardware_flags import (
    MLA_ARCHITECTURES,
    VLM_ARCHITECTURES,
    attention_dp_groups,
    plain_int,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.resolve.gpu_profiles import GpuProfile
    from speclint.sglang.resolve.state import ResolutionState

HANDLER_MEM = "_handle_gpu_memory_settings"


def as_int(value: object) -> int:
    """An effective value the resolution has made a concrete int by this point."""
    assert isinstance(value, int), value
    return value


def as_number(value: object) -> int | float:
    """An effective value the resolution has made a concrete number by this point."""
    assert isinstance(value, (int, float)), value
    return value


def is_mla(state: ResolutionState) -> bool:
    """The target gets MLA attention: as the release's `ModelConfig` says where read
    (`attention_kind`: Kimi-K2.5 is MHA up to 0.5.8.post1), else by MLA_ARCHITECTURES."""
    from speclint.sglang.model_config_facts import attention_kind

    kind = attention_kind(state.checked_version, state.target_architecture)
    return kind == "mla" if kind is not None else state.target_architecture in MLA_ARCHITECTURES


def _breakable_rule(state: ResolutionState, rules: tuple[str, ...]) -> str | None:
    """The first of the release's breakable-prefill rules (names read from its source) the
    launch meets: "MLA attention" (`use_mla_backend()`), "MLA attention (non-DSA)" (0.5.17:
    and not `is_deepseek_dsa`), "DP attention" (--enable-dp-attention as given). The other
    rules test flags hardware_flags leaves outside the model."""
    for rule in rules:
        if rule == "MLA attention" and is_mla(state):
            return rule
        if rule == "MLA attention (non-DSA)" and is_mla(state):
            from speclint.sglang.resolve.deepseek_blackwell import is_dsa

            if not is_dsa(state):
                return rule
        if rule == "DP attention" and state.asked.get("enable_dp_attention") is True:
            return rule
    return None


def _tc_piecewise_rule(state: ResolutionState, rules: tuple[str, ...], archs: tuple[str, ...]) -> str | None:
    """The first of `disable_tc_piecewise_cudagraph_if_incompatible`'s rules (names read from
    the release) the launch meets: "model-arch blacklist" (the target in the release's
    `piecewise_cuda_graph_disabled_model_archs`), "DP attention" (--enable-dp-attention as
    given), "pipeline parallelism (pp_size > 1)", "GGUF quantization" (--quantization gguf).
    The other rules test flags hardware_flags leaves outside the model, or a GPU that is not
    NVIDIA's (resolved elsewhere); a multimodal target is `piecewise_problem`'s."""
    for rule in rules:
        kind = _PIECEWISE_CONDITIONS.get(rule, rule)  # 0.5.13.post1: the condition as written
        if kind == "model-arch blacklist" and state.target_architecture in archs:
            return rule
        if kind == "DP attention" and state.asked.get("enable_dp_attention") is True:
            return rule
        if kind.startswith("pipeline parallelism") and as_int(state.get("pp_size")) > 1:
            return rule
        if kind == "GGUF quantization" and "gguf" in (
            state.config.value("quantization"),
            state.config.value("load_format"),
        ):
            return rule  # as given (the effective field is not resolved yet here: seed moe-14003)
        if kind == "speculative decoding" and state.asked.get("speculative_algorithm") is not None:
            return rule
    return None


_PIECEWISE_CONDITIONS = {
    "self.get_model_config().is_piecewise_cuda_graph_disabled_model": "model-arch blacklist",
    "self.enable_dp_attention": "DP attention",
    "self.pp_size > 1": "pipeline parallelism",
    "self.speculative_algorithm is not None": "speculative decoding",  # 0.5.10.post1
    "self.load_format == 'gguf' or self.quantization == 'gguf' or check_gguf_file(self.model_path)": (
        "GGUF quantization"
    ),
}
"""`_handle_piecewise_cuda_graph`'s conditions (0.5.10.post1-0.5.13.post1, read as written) that
test the modelled flags, as the rule names 0.5.14 gives them."""


def piecewise_problem(state: ResolutionState) -> str | None:
    """0.5.15-0.5.16 `apply_cuda_graph_compatibility`: a multimodal model SGLang lists gets
    tc_piecewise prefill CUDA graphs (0.5.14: every model starts with them), and the hooks
    after it what speclint does not model."""
    arch = state.target_architecture
    if arch not in VLM_ARCHITECTURES:
        return None
    return (
        f"SGLang {state.checked_version} may capture {arch}'s prefill with tc_piecewise CUDA "
        "graphs (apply_cuda_graph_compatibility), which speclint does not model"
    )


def memory_settings(state: ResolutionState, gpu: GpuProfile) -> None:
    """The tiers, the MLA prefill size and whether --max-running-requests caps the decode
    batch sizes: read from the release's `handle_gpu_memory_settings` (gpu_resolution.py)."""
    logic = state.gpu_logic
    assert logic is not None  # hardware.py resolves these only where it was read
    mem = gpu.memory_mib
    tp = as_int(state.get("tp_size"))
    chunk, max_bs = logic.tier(mem).chunked_prefill_size, logic.decode_max_bs(mem, tp)
    tier = f"{gpu.name} has {mem} MiB"
    if state.get("chunked_prefill_size") is None:
        state.set("chunked_prefill_size", chunk, f"the default for the GPU's memory ({tier})", HANDLER_MEM)
    decode_backend = "disabled" if state.config.value("disable_cuda_graph") else "full"
    default = logic.prefill_default  # `CudaGraphConfig`'s, on CUDA
    own_flag = logic.prefill_graph_flag != "cuda_graph_config"  # 0.5.13.post1: not --disable-cuda-graph
    prefill_backend = "disabled" if state.config.value("disable_cuda_graph") and not own_flag else default
    # `handle_attention_backend_compatibility`, after the memory reserve was computed:
    # torch_native and flex_attention turn both CUDA graphs off (attention_hook.py)
    backend = state.get("attention_backend")
    no_graphs = prefill_backend == "disabled" or (
        not own_flag and backend in ("torch_native", "flex_attention")
    )
    pp_size = as_int(state.get("pp_size"))
    rule = (
        _breakable_rule(state, logic.breakable_rules)
        if prefill_backend == "breakable"
        else _tc_piecewise_rule(state, logic.tc_piecewise_rules, logic.piecewise_disabled_archs)
        if prefill_backend == "tc_piecewise"
        else None
    )
    if rule is not None:  # `disable_<backend>_cudagraph_if_incompatible`, before the reserve
        prefill_backend = "disabled"
    if prefill_backend == "breakable" and pp_size > 1 and logic.pp_disables_breakable:
        prefill_backend = "disabled"  # `apply_cuda_graph_compatibility`
    explicit_max = state.config.value("cuda_graph_max_bs_decode")
    if explicit_max is not None:
        max_bs = as_int(explicit_max)
    elif logic.running_cap:
        running = state.get("max_running_requests")
        if isinstance(running, int) and max_bs > running:
            max_bs = running
    state.set(
        "cuda_graph_max_bs",
        max_bs,
        f"decode CUDA-graph batch sizes for the GPU's memory ({tier}) and --tp-size {tp}",
        HANDLER_MEM,
    )
    state.set(
        "cuda_graph_bs",
        decode_batch_sizes(state, max_bs),
        f"decode CUDA-graph batch sizes up to {max_bs}",
        HANDLER_MEM,
    )
    state.set(
        "cuda_graph_backend_prefill",
        "disabled" if no_graphs else prefill_backend,
        f"the {backend} attention backend disables CUDA graphs"
        if no_graphs and not state.config.value("disable_cuda_graph")
        else f"{default} prefill CUDA graphs are incompatible with {rule}"
        if rule is not None
        else "pipeline parallelism disables breakable prefill CUDA graphs"
        if pp_size > 1 and logic.pp_disables_breakable and default == "breakable"
        else f"prefill CUDA graphs are {default} by default",
        "_parse_cuda_graph_config",
    )
    chunked = as_int(state.get("chunked_prefill_size"))
    prefill_max = prefill_sizes(state, chunked)
    if state.get("mem_fraction_static") is None:
        _memory_fraction(state, gpu, chunked, max_bs, decode_backend, prefill_backend, prefill_max)


def prefill_sizes(state: ResolutionState, chunked: int) -> int:
    """The prefill CUDA graphs' largest size and token counts for the chunked prefill size the
    memory handler reads (`chunked`); returns the largest (a2a_decode_graph.py: beside
    --moe-a2a-backend too)."""
    logic = state.gpu_logic
    assert logic is not None  # hardware.py sizes them only where it was read
    prefill_max: int
    explicit_prefill = state.config.value("cuda_graph_max_bs_prefill")
    mla_fixed, mla_cap = logic.mla_prefill_fixed, logic.mla_prefill_cap
    if explicit_prefill is not None:
        prefill_max = as_int(explicit_prefill)
    elif logic.prefill_constant is not None:  # 0.5.6.x: ServerArgs' default, for every model
        prefill_max = logic.prefill_constant
    else:
        prefill_max = (
            chunked
            if not is_mla(state) or (mla_fixed is None and mla_cap is None)  # 0.5.7: one size
            else mla_fixed
            if mla_fixed is not None
            else min(as_int(mla_cap), chunked)
        )
        total = plain_int(state.config.value("max_total_tokens")) if logic.prefill_total_clamp else None
        if total is not None:
            prefill_max = min(prefill_max, total)
        model, llama2 = state.get("model_path"), logic.prefill_llama2_cap
        if llama2 is not None and isinstance(model, str) and "llama-2" in model.lower():
            prefill_max = min(prefill_max, llama2)
    context = plain_int(state.config.value("context_length")) if logic.context_clamp else None
    if context is not None:
        prefill_max = min(prefill_max, context)
    if logic.prefill_constant is not None and explicit_prefill is None:
        state.values["cuda_graph_max_bs_prefill"] = prefill_max  # the default: SGLang sets nothing
    else:
        _prefill_size(state, prefill_max, mla_fixed, mla_cap)
    state.set(
        "cuda_graph_bs_prefill",
        prefill_batch_sizes(state, prefill_max),
        f"prefill CUDA-graph token counts up to {prefill_max}",
        HANDLER_MEM,
    )
    return prefill_max


def _prefill_size(
    state: ResolutionState, prefill_max: int, mla_fixed: int | None, mla_cap: int | None
) -> None:
    state.set(
        "cuda_graph_max_bs_prefill",
        prefill_max,
        "prefill CUDA graphs capture up to the chunked prefill size"
        + (
            ""
            if not is_mla(state) or (mla_fixed is None and mla_cap is None)
            else f" ({mla_fixed} for MLA)"
            if mla_fixed is not None
            else f" ({mla_cap} at most for MLA)"
        ),
        HANDLER_MEM,
    )


def _memory_fraction(
    state: ResolutionState,
    gpu: GpuProfile,
    chunked: int,
    max_bs: int,
    decode_backend: str,
    prefill_backend: str,
    prefill_max: int,
) -> None:
    """`handle_gpu_memory_settings`' mem_fraction_static (with `adjust_mem_fraction_for_vlm`)."""
    mem = gpu.memory_mib
    reserved = _reserved_mib(state, mem, chunked, max_bs, decode_backend, prefill_backend, prefill_max)
    fraction = round((mem - reserved) / mem, 3)
    why = f"({mem} MiB - {reserved:g} MiB reserved for activations and CUDA graphs) / GPU memory"
    if state.target_architecture in VLM_ARCHITECTURES:
        factor = _vlm_factor(state)
        if factor is None:
            state.set_unknown(
                "mem_fraction_static", "the vision encoder's size is not in the target's config.json"
            )
            return
        fraction *= factor
        why += f" × {factor:.4f} for the vision encoder"
    state.set("mem_fraction_static", fraction, why, HANDLER_MEM)


def _vlm_factor(state: ResolutionState) -> float | None:
    """`adjust_mem_fraction_for_vlm`: 0.95 × (1 - 0.1 × (ViT size / ViT-L/14 size - 1)),
    the second factor kept within [0.8, 1.05]."""
    config = state.target_config
    vision = config.raw.get("vision_config") if config is not None else None
    if not isinstance(vision, dict):
        return None
    layers, hidden = vision.get("num_hidden_layers", 24), vision.get("hidden_size", 1024)
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (layers, hidden)):
        return None
    ratio: float = layers * hidden**2 / (24 * 1024**2)
    return 0.95 * max(0.8, min(1.05, 1.0 - 0.1 * (ratio - 1.0)))


def _reserved_mib(
    state: ResolutionState,
    mem: int,
    chunked: int,
    max_bs: int,
    decode_backend: str,
    prefill_backend: str,
    prefill_max: int,
) -> float:
    """`handle_gpu_memory_settings`' reserve: activations, parallel slack, CUDA graphs."""
    tp, pp = as_int(state.get("tp_size")), as_int(state.get("pp_size"))
    activation = (
        max(chunked, 2048)
        if chunked > 0
        else max(plain_int(state.config.value("max_prefill_tokens")) or 16384, 2048)
    )
    reserved: float = 512 + activation * 1.5 + tp * pp / 8 * 1024
    graph = 0.0
    logic = state.gpu_logic
    if decode_backend != "disabled" or (logic is not None and logic.decode_reserve_unguarded):
        graph += max_bs * 2
    attn = as_int(attention_dp_groups(state, given=True))
    if attn:
        graph += max_bs * attn * 3
        if max_bs > 300:
            graph += max_bs * attn * 1.5
    if prefill_backend != "disabled":  # never in 0.5.7-0.5.9 (--enable-piecewise-cuda-graph: not modelled)
        graph += 1.5 * 1024 if is_mla(state) else len(prefill_batch_sizes(state, prefill_max)) * 8
    reserved += graph
    if mem > 60 * 1024:
        reserved = max(reserved, 10 * 1024)
    algorithm = state.asked.get("speculative_algorithm")
    if logic is not None and logic.speculative_reserve and algorithm is not None:
        reserve = dict(logic.speculative_reserve)  # 0.5.13.post1, the name as given
        reserved += reserve.get(str(algorithm), reserve["other"])
    return reserved


def prefill_batch_sizes(state: ResolutionState, max_bs: int) -> list[int]:
    """`generate_prefill_cuda_graph_batch_sizes` (`_generate_piecewise_cuda_graph_tokens`
    before 0.5.14): the release's `list(range(a, b, c)) + ...` (read: `GpuLogic.prefill_ranges`,
    b None for `max_bs + 1`), up to max_bs."""
    logic = state.gpu_logic
    assert logic is not None  # hardware.py sizes them only where it was read
    sizes = [s for a, b, c in logic.prefill_ranges for s in range(a, max_bs + 1 if b is None else b, c)]
    return [s for s in sizes if s <= max_bs]


def decode_batch_sizes(state: ResolutionState, max_bs: int) -> list[int]:
    """`generate_decode_cuda_graph_batch_sizes` (reads the algorithm as given): the release's
    lists (`GpuLogic.decode_ranges`, read), up to max_bs, and max_bs where it appends it."""
    logic = state.gpu_logic
    assert logic is not None  # hardware.py sizes them only where it was read
    if state.config.value("disable_cuda_graph_padding"):
        case = "padding"
    else:
        case = "plain" if state.asked.get("speculative_algorithm") is None else "speculative"
    ranges = dict(logic.decode_ranges)[case]
    sizes = [s for a, b, c in ranges for s in range(a, max_bs + 1 if b is None else b, c)]
    sizes = [s for s in sizes if s <= max_bs]
    if max_bs not in sizes and logic.decode_appends_max_bs:
        sizes.append(max_bs)
    return sizes
