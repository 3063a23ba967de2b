"""0.5.21+ `validate_mega_moe_token_budget` (hook `validate_mega_moe_token_budget_for_model`):
under --moe-a2a-backend megamoe (or the --moe-runner-backend megamoe alias), for a model with no
fused-MoE fallback or NVFP4 experts, each rank's prefill tokens (the chunked prefill size,
aligned up to the TP size) must fit SGLANG_OPT_DEEPGEMM_MEGA_MOE_NUM_MAX_TOKENS_PER_RANK. The
variable, its `EnvInt` default, the message and the models are read per release
(`moe_defaults.megamoe_token_budget`). Judged only where the launch takes the check's plain-TP
branch (no DP attention, by --enable-dp-attention or 0.5.22+'s --attn-dp-size, no context
parallelism; pipeline parallelism without dynamic chunking and a prefill-only disaggregation
server take it too, as the release's early returns read), a chunked prefill size given or
SGLang's default for the GPU's memory, and the variable unset or readable; else nothing. The
attention-DP branch: refusals_megamoe_dp.py."""

from __future__ import annotations

import os

from speclint.sglang.resolve.result import is_known
from speclint.sglang.resolve.state import Stop, given

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from speclint.sglang.resolve.state import ResolutionState

_PLAIN = {
    "enable_dp_attention": (None, False),
    "enable_prefill_cp": (None, False),
    "enable_mis": (None, False),
    "enable_cp_decode_attn_tp": (None, False),
    "encoder_only": (None, False),
    "json_model_override_args": (None, "", "{}"),
}
_ONE = ("attn_cp_size", "dp_size")


def _plain(state: ResolutionState, read: dict[str, Any]) -> bool:
    """The launch takes the budget's last branch (no context-parallel prefill, no attention
    DP: `partitions`, read) and reaches it: a prefill-only disaggregation server (the check
    returns only for decode: `returns`, read) and pipeline parallelism without dynamic chunking
    (its return needs both) too."""
    from speclint.sglang.resolve.ep_join import ep_scale_joiner
    from speclint.sglang.resolve.refusals_megamoe_dp import reaches_partition

    attn = state.get("attn_dp_size")
    if (
        any(given(state, name) not in allowed for name, allowed in _PLAIN.items())
        or any(given(state, name) not in (None, 1) for name in _ONE if not _replicas(state, name, attn))
        or (attn is not None and attn != 1)  # 0.5.22+: DP attention by --attn-dp-size
        or ep_scale_joiner(state) is not False
    ):
        return False
    return reaches_partition(state, read)


def _replicas(state: ResolutionState, name: str, attn: object) -> bool:
    """0.5.22+ --dp-size without attention DP (attention-DP size resolved to 1): data-parallel
    replicas, each taking the plain-TP branch. Oracle (seed a2a-16105, 0.5.22-0.5.23, B200):
    Qwen3-8B modelopt_fp4 megamoe TP 8 --dp-size 8 PP 2 with 131072 refused with
    token_partition=none, required_per_rank=131072."""
    return name == "dp_size" and state.traits.separate_attn_dp_size and attn == 1


def check_megamoe_budget(state: ResolutionState) -> None:
    """Oracle (record_release.py 0.5.21, resolve_cases.py 0.5.23, fake B200; seed moe-15004):
    DeepSeek-V3 with --quantization modelopt_fp4 and --moe-runner-backend megamoe at TP 8 is
    refused (chunked prefill 16384 > 8192); accepted with the variable at 65536, with
    --chunked-prefill-size 4096, and on the H100 (default 8192)."""
    from speclint.sglang.moe_defaults import megamoe_token_budget

    read = megamoe_token_budget(state.checked_version)
    gpu, target = state.gpu, state.target_config
    if (
        read is None
        or gpu is None
        or gpu.vendor != "nvidia"
        or target is None
        or state.get("moe_a2a_backend") != read["a2a"]
    ):
        return
    architectures = target.raw.get("architectures")
    if (
        not isinstance(architectures, list)
        or not architectures
        or given(state, "json_model_override_args") not in (None, "", "{}")
        or not _needs(state, read["needs"], architectures[0])
    ):
        return
    raw = (
        state.env.get(read["env"], str(read["default"])) if read["env"] in state.env else str(read["default"])
    )
    readable = raw is not None and raw.strip().lstrip("-").isdigit()
    limit = int(raw) if raw is not None and readable else 0
    how = f"{read['env']}={limit}" if read["env"] in state.env else f"{read['env']} unset (default {limit})"
    if readable and isinstance(read.get("decode"), dict):
        from speclint.sglang.resolve.refusals_megamoe_decode import check_decode_budget

        check_decode_budget(state, read, architectures[0], limit, how)
    _disabled(state, read, architectures[0])
    if not readable:
        return
    fields = (
        ("moe_a2a_backend",) if given(state, "moe_a2a_backend") == read["a2a"] else ("moe_runner_backend",)
    )
    if not _plain(state, read):
        from speclint.sglang.resolve.refusals_megamoe_dp import attention_dp_budget

        attention_dp_budget(state, read, architectures[0], limit, how, fields)
        return
    chunk, source = _chunk(state)
    tp = state.get("tp_size")
    if chunk is None or chunk <= 0 or not isinstance(tp, int) or tp < 1:
        return
    alignment = tp
    required = (chunk + alignment - 1) // alignment * alignment
    if limit >= required:
        return
    message = str(read["message"]).format(
        label=architectures[0],
        chunk=chunk,
        partition="none",
        partition_size=1,
        alignment=alignment,
        required=required,
        limit=limit,
    )
    raise Stop(
        "ValueError",
        f"{message} (--moe-a2a-backend megamoe: chunked prefill {chunk} from {source}, aligned up to "
        f"TP {tp}, needs {required} tokens per rank, {how}; set {read['env']}={required} or more, "
        f"or pass --chunked-prefill-size {limit // alignment * alignment} or lower)",
        str(read["where"]),
        fields,
    )


def _disabled(state: ResolutionState, read: dict[str, Any], label: str) -> None:
    """Before any partition: `if cfg.chunked_prefill_size is None or ... <= 0: raise` (message
    read, `disabled`), past the early returns (a decode server; PP with dynamic chunking) and
    the decode-token check (whose own refusal stops the launch too). Oracle (record.py
    --generator a2a, seed 16005, 0.5.21-0.5.23, fake B200): --chunked-prefill-size -1 refused."""
    chunk, message = given(state, "chunked_prefill_size"), read.get("disabled")
    mode, pp = given(state, "disaggregation_mode"), given(state, "pp_size")
    if (
        not isinstance(message, str)
        or not isinstance(chunk, int)
        or chunk > 0
        or mode not in (None, "null", "prefill")
        or not (
            pp in (None, 1)
            or (isinstance(pp, int) and given(state, "enable_dynamic_chunking") in (None, False))
        )
        or given(state, "encoder_only") not in (None, False)
    ):
        return
    raise Stop(
        "ValueError",
        message.format(label=label)
        + f" (--moe-a2a-backend megamoe with --chunked-prefill-size {chunk}; pass a positive size)",
        str(read["where"]),
        ("chunked_prefill_size",),
    )


def _needs(state: ResolutionState, needs: dict[str, Any], architecture: str) -> bool:
    """`mega_moe_needs_token_budget`: an architecture with no fused-MoE fallback, or NVFP4 experts
    (a quantization it names, or the substring in the checkpoint's quant_algo); False where the
    quantization is not read."""
    from speclint.sglang.resolve.refusals_moe_runner import moe_quantization

    if architecture in (needs.get("architectures") or []):
        return True
    quantization, _ = moe_quantization(state)
    if not is_known(quantization) or not is_known(given(state, "quantization")):
        return False
    if quantization in (needs.get("quantizations") or []):
        return True
    key, substring = needs.get("quant_algo") or ("", "")
    checkpoint = state.target_config.raw.get("quantization_config") if state.target_config else None
    return isinstance(checkpoint, dict) and str(substring) in str(checkpoint.get(str(key), ""))


def _chunk(state: ResolutionState) -> tuple[int | None, str]:
    """The chunked prefill size: given, or SGLang's default for the GPU's memory (read per
    release, `moe_defaults.chunk_defaults`) for a plain text model (no hf_quant_config.json,
    which some handlers read)."""
    given_size = given(state, "chunked_prefill_size")
    if given_size is not None:
        return (
            (given_size, f"--chunked-prefill-size {given_size}")
            if isinstance(given_size, int)
            else (None, "")
        )
    from speclint.sglang.moe_defaults import chunk_defaults
    from speclint.sglang.resolve.refusals_moe_defaults import PLAIN_TEXT

    target, gpu = state.target_config, state.gpu
    if (
        target is None
        or gpu is None
        or state.target_architecture not in PLAIN_TEXT
        or os.path.exists(os.path.join(os.path.dirname(target.path), "hf_quant_config.json"))
    ):
        return None, ""
    defaults = chunk_defaults(state.checked_version)
    size = defaults.for_memory(gpu.memory_mib) if defaults else None
    if size is None:
        return None, ""
    return size, f"SGLang's default for the {gpu.name}'s {gpu.memory_mib} MiB"
