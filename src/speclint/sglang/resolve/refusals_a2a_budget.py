"""Three all-to-all backends' start-up checks in `_handle_a2a_moe` / `handle_a2a_moe`, the
first two read per release by tools/sglang_a2a_budgets.py (`moe_a2a_facts`):

- --moe-a2a-backend pplx (0.5.17+): past its attention-DP assert, the MoE runner (deep_gemm or
  auto, `pplx_runner`, as a --quantization that picks its own leaves it: pplx_runner.py); then the per-rank
  dispatch tokens (the chunked prefill size as the handler sees it, after attention DP split
  it, or the larger of it and the fields the release takes the max with) must not exceed
  SGLANG_PPLX_NUM_MAX_DISPATCH_TOKENS_PER_RANK (`EnvInt` default read from environ.py); not
  checked with chunked prefill off or on a decode server.
- --moe-a2a-backend deepep_v2 (0.5.19+): the target's first architecture must be one the
  release takes (0.5.19-0.5.20 a list in the validator; 0.5.21+ configs/moe_model_registry.py's
  `_DEEPEP_V2_MODELS`), then a MoE runner other than auto and the one it takes is refused;
  after resolution `validate_deepep_v2_dispatch_token_budget`'s prefill check
  (`deepep_v2_budget`), then its decode CUDA-graph check (refusals_deepep_v2_decode.py).

- --moe-a2a-backend mori: the chunk (given, resolved, or the GPU's default) must fit the MoRI dispatch buffer
  (`ReleaseTraits.mori_dispatch_check`).

Judged only where every term is known; what speclint cannot read (the GPU's default chunk for
a model a hook may change, a dynamic value, a checkpoint not on disk) says nothing."""

from __future__ import annotations

from speclint.sglang.moe_readings import a2a_handler
from speclint.sglang.resolve.result import is_known
from speclint.sglang.resolve.state import Stop, given

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.resolve.state import ResolutionState


def check_a2a_budgets(state: ResolutionState) -> None:
    backend = state.get("moe_a2a_backend")
    if backend == "pplx":
        _pplx_dispatch(state)
    elif backend == "deepep_v2":
        _deepep_v2(state)
    elif backend == "mori":
        _mori_dispatch(state)


def _pplx_dispatch(state: ResolutionState) -> None:
    """Oracle (record.py --generator a2a, seed 16005, 0.5.20-0.5.23, fake H100/B200): pplx with
    --dp-size 8 --enable-dp-attention (the B200's default chunk / 8), --dp-size 2 with
    --chunked-prefill-size 8192, refused so (128 by default)."""
    from speclint.sglang.moe_a2a_facts import pplx_dispatch_budget
    from speclint.sglang.resolve.pplx_runner import pplx_runner_check

    read = pplx_dispatch_budget(state.checked_version)
    quantization = given(state, "quantization")
    if (
        given(state, "deepep_mode") not in (None, "auto", "low_latency")  # refused before
        or not is_known(quantization)
        or not pplx_runner_check(state, quantization)  # False: the runner it sees not read
        or read is None
    ):
        return
    mode = state.get("disaggregation_mode")
    if mode is None:
        mode = given(state, "disaggregation_mode")
    if not is_known(mode) or mode == "decode":
        return
    chunk = chunk_at_handler(state)
    if chunk is None or chunk[0] <= 0:
        return
    required, how = chunk
    capacity = read.capacity(state.env)
    if capacity is None:
        return
    limit, source = capacity
    for field in read.terms[1:]:
        if required > limit:
            break
        value = given(state, field)
        if value is None and not state.config.given(field):
            return  # a value SGLang may set itself before the check: not read
        if not isinstance(value, int) or isinstance(value, bool):
            return
        if value > required:
            required, how = value, f"--{field.replace('_', '-')} {value}"
    if required <= limit:
        return
    raise Stop(
        "AssertionError",
        f"{read.message} (--moe-a2a-backend pplx dispatches {required} tokens per rank: {how}, > "
        f"{source}; set {read.variable} to at least {required}, or lower --chunked-prefill-size)",
        read.where,
        ("chunked_prefill_size", "moe_a2a_backend"),
    )


def split_chunk(state: ResolutionState) -> object:
    """The resolved chunked prefill size, or where the resolution leaves it unknown the size
    given, split by attention DP (`chunk_at_handler`) where that is read."""
    chunk = state.get("chunked_prefill_size")
    if (isinstance(chunk, int) and not isinstance(chunk, bool)) or not state.config.given(
        "chunked_prefill_size"
    ):
        return chunk
    split = chunk_at_handler(state)
    return split[0] if split is not None else chunk


def chunk_at_handler(state: ResolutionState, default_only: bool = False) -> tuple[int, str] | None:
    """The chunked prefill size the all-to-all handler reads (after `_handle_data_parallelism`
    divided it by the attention-DP size) and how it was had; None where not read: the value
    resolved, else the one given, else the release's default for the GPU's memory
    (`chunk_defaults`), for the targets no model hook turns chunked prefill off for (`DEFAULT_CHUNK`).
    `default_only`: that default alone (None where it is not the one read)."""
    from speclint.sglang.resolve.refusals_moe_defaults import DEFAULT_CHUNK, _attention_dp

    resolved = state.get("chunked_prefill_size")
    if not default_only and isinstance(resolved, int) and not isinstance(resolved, bool):
        written = state.config.given("chunked_prefill_size")
        return (
            resolved,
            f"--chunked-prefill-size {resolved}" if written else f"chunked_prefill_size {resolved}",
        )
    gpu = state.gpu
    if (
        state.target_architecture not in DEFAULT_CHUNK
        or given(state, "enable_mis") not in (None, False)
        or given(state, "enable_cp_decode_attn_tp") not in (None, False)
        # 0.5.22+ rounds it up to the page size; dynamic chunking never changes it (0.5.17-0.5.23:
        # only `max_prefill_buffer_tokens`' ceiling and some checks' early returns read it)
        or given(state, "enable_kv_cache_sharding") not in (None, False)
    ):
        return None
    divisor = _attention_dp(state)
    if divisor is None:
        return None
    split = f" / attention-DP size {divisor}" if divisor > 1 else ""
    if state.config.given("chunked_prefill_size"):
        if default_only:
            return None
        size = given(state, "chunked_prefill_size")
        if not isinstance(size, int) or isinstance(size, bool):
            return None
        return (size // divisor if size > 0 else size), f"--chunked-prefill-size {size}{split}"
    if gpu is None or gpu.vendor != "nvidia":
        return None
    from speclint.sglang.moe_defaults import chunk_defaults

    defaults = chunk_defaults(state.checked_version)
    size = defaults.for_memory(gpu.memory_mib) if defaults else None
    if size is None:
        return None
    return size // divisor, f"SGLang's default {size} for the {gpu.name}'s {gpu.memory_mib} MiB{split}"


def _deepep_v2(state: ResolutionState) -> None:
    """Oracle (record.py --generator a2a, seed 16005, 0.5.20-0.5.23, fake H100/B200): Qwen3-8B
    and Kimi-K2.5 refused for their architecture; DeepSeek-V3 with --moe-runner-backend
    flashinfer_megamoe refused for the runner."""
    from speclint.sglang.moe_a2a_facts import deepep_v2

    read = deepep_v2(state.checked_version)
    target = state.target_config
    if (
        read is None
        or target is None
        or given(state, "json_model_override_args") not in (None, "", "{}")
        # 0.5.23 models/registry.py imports such a package, which may register more
        or state.env.get("SGLANG_EXTERNAL_MODEL_PACKAGE", "") != ""
    ):
        return
    architectures = target.raw.get("architectures") or []
    if not isinstance(architectures, list):
        return
    first = architectures[0] if architectures else None
    if first not in read.architectures:
        raise Stop(
            "ValueError",
            read.architecture_message.format(architecture=repr(first))
            + f" (--moe-a2a-backend deepep_v2 on {first or 'a model without architectures'}; pick"
            " another --moe-a2a-backend, or a model of an architecture it takes)",
            read.where,
            ("moe_a2a_backend",),
        )
    _deepep_v2_runner(state, read.runner, read.runner_message, read.runner_after, read.where)
    _deepep_v2_prefill(state)
    from speclint.sglang.resolve.refusals_deepep_v2_decode import check_deepep_v2_decode

    check_deepep_v2_decode(state)


def _deepep_v2_runner(
    state: ResolutionState, taken: str, message: str, after: tuple[str, ...], where: str
) -> None:
    from speclint.sglang.moe_defaults import moe_runner_overrides

    runner, quantization = given(state, "moe_runner_backend"), given(state, "quantization")
    if (
        not isinstance(runner, str)
        or runner in ("auto", taken)
        or any(_on(state, field) is not False for field in after)  # refused before, or unread
        or not is_known(quantization)
        or quantization in moe_runner_overrides(state.checked_version)  # may replace the runner
    ):
        return
    raise Stop(
        "ValueError",
        message.format(runner=repr(runner))
        + f" (--moe-a2a-backend deepep_v2 with --moe-runner-backend {runner}; drop"
        f" --moe-runner-backend or pass {taken})",
        where,
        ("moe_runner_backend",),
    )


def _deepep_v2_prefill(state: ResolutionState) -> None:
    """`validate_deepep_v2_dispatch_token_budget`'s prefill check (after resolution; not on a
    decode server). Oracle (seed a2a-16005, 0.5.20-0.5.23, fake H100): DeepSeek-V3 TP 8 PP 2 with
    --enable-dynamic-chunking refused so (128 by default)."""
    from speclint.sglang.moe_a2a_facts import deepep_v2_budget

    read = deepep_v2_budget(state.checked_version)
    mode = state.get("disaggregation_mode")
    if mode is None:
        mode = given(state, "disaggregation_mode")
    chunk = chunk_at_handler(state) if read is not None else None
    pp, most = state.get("pp_size"), state.get("max_prefill_tokens")
    if most is None and state.config.known("max_prefill_tokens"):
        most = state.config.value("max_prefill_tokens")  # the release's default (the flag schema's)
    dynamic = _on(state, "enable_dynamic_chunking")
    if (
        read is None
        or chunk is None
        or not is_known(mode)
        or mode == "decode"
        or not isinstance(pp, int)
        or not isinstance(dynamic, bool)
        or (most is not None and (not isinstance(most, int) or isinstance(most, bool)))
    ):
        return
    tokens, how = max(chunk[0], 0), chunk[1]
    if dynamic and pp > 1 and tokens:
        import math

        grown = max(tokens, most or 0, math.ceil(tokens * read.growth))
        how += f", grown by dynamic chunking with PP {pp} to {grown}"
        tokens = grown
    if not tokens:
        tokens, how = most or 0, f"chunked prefill off, max_prefill_tokens {most}"
    if read.scatter:
        tp, attn = state.get("tp_size"), state.get("attn_dp_size")
        if not isinstance(tp, int) or not isinstance(attn, int) or attn < 1:
            return
        ranks = max(1, tp // attn)
        if ranks > 1:
            tokens = -(-tokens // ranks)
            how += f", over {ranks} ranks (tp_size // attn_dp_size)"
    capacity = read.capacity(state.env)
    if capacity is None or tokens <= capacity[0]:
        return
    limit, source = capacity
    raise Stop(
        "ValueError",
        read.message.format(required=tokens, capacity=limit)
        + f" (--moe-a2a-backend deepep_v2 dispatches {tokens} prefill tokens per rank: {how}; > {source})",
        read.where,
        ("chunked_prefill_size", "moe_a2a_backend"),
    )


def _on(state: ResolutionState, field: str) -> object:
    """A switch's value: resolved, else as given (False when not given)."""
    value = state.get(field)
    if value is None:
        value = given(state, field)
    return False if value is None else value


_MORI = {
    "any": "SGLANG_MORI_NUM_MAX_DISPATCH_TOKENS_PER_RANK (default 4096) must be larger or equal "
    "to chunked_prefill_size",
    "per_rank": "SGLANG_MORI_NUM_MAX_DISPATCH_TOKENS_PER_RANK (default 4096) must be >= the "
    "per-rank MoRI dispatch tokens (chunked_prefill_size by default)",
}
"""`_handle_a2a_moe`'s message by `ReleaseTraits.mori_dispatch_check` (traits_refusals.py)."""
_MORI_VARIABLE = "SGLANG_MORI_NUM_MAX_DISPATCH_TOKENS_PER_RANK"


def _mori_dispatch(state: ResolutionState) -> None:
    """`_handle_a2a_moe` with --moe-a2a-backend mori (`ReleaseTraits.mori_dispatch_check`):
    the chunk the handler reads must fit the MoRI dispatch buffer (the variable as the launch
    sets it; unset: its default, 4096). The chunk: without --chunked-prefill-size, SGLang's
    default for the GPU's memory (`_handle_gpu_memory_settings`) divided by the attention-DP
    size (`_handle_data_parallelism` runs first), for the text targets no model hook turns
    chunked prefill off for; else the one resolved, or the one given split by attention DP."""
    check = state.traits.mori_dispatch_check
    if not check or state.get("moe_a2a_backend") != "mori":
        return
    chunk, default = None, None
    if not (state.config.knows("chunked_prefill_size") and given(state, "chunked_prefill_size") is not None):
        default = chunk_at_handler(state, default_only=True)
    if default is not None:
        chunk = default[0]
    else:
        split = split_chunk(state)  # resolved, or the size given split by attention DP
        if isinstance(split, int) and not isinstance(split, bool):
            chunk = split
    if chunk is None:
        return
    mode = state.get("disaggregation_mode")
    if mode is None:  # a field the resolution does not track: the launch's own value
        mode = given(state, "disaggregation_mode")
    # 0.5.10+ skip decode nodes ("any": 0.5.9 checks them, with the size as given)
    if (check != "any" and (chunk <= 0 or mode == "decode")) or not is_known(mode):
        return
    raw = state.env.get(_MORI_VARIABLE, "4096")
    if raw is None or not raw.strip().lstrip("-").isdigit():
        return
    limit = int(raw)
    if chunk <= limit:
        return
    source = f"{_MORI_VARIABLE}={limit}" if _MORI_VARIABLE in state.env else "its default 4096"
    says = _MORI[check if check == "per_rank" else "any"]
    if default is not None:
        raise Stop(
            "AssertionError",
            f"{says} (chunked_prefill_size {chunk}: {default[1]}, > {source}; pass "
            f"--chunked-prefill-size {limit} or lower, or set {_MORI_VARIABLE} to at least {chunk})",
            a2a_handler(state.checked_version),
            ("moe_a2a_backend",),
        )
    raise Stop(
        "AssertionError",
        f"{says} (chunked_prefill_size {chunk} > {source}; set {_MORI_VARIABLE} to at least {chunk} "
        "or lower --chunked-prefill-size)",
        a2a_handler(state.checked_version),
        ("chunked_prefill_size", "moe_a2a_backend"),
    )
