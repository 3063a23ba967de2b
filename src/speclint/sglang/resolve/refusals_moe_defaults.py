"""MoE refusals that rest on a value SGLang picks itself (found missing in session 9): the
FlashInfer-Cutlass and Cutlass MoE runners' asserts on the quantization DeepSeek-V3 takes
from its checkpoint on Blackwell (SM100). Each release's defaults and asserts were read from
its wheel (tools/gen_sglang_moe_defaults.py, `speclint.sglang.moe_defaults`) and confirmed
with tools/oracle on 0.5.9, 0.5.14, 0.5.18, 0.5.21 and 0.5.23 (fake H100, B200, GB200, L40S,
A100 40 GB, RTX 5090). MoRI's dispatch buffer against the chunked prefill size SGLang defaults
to for the GPU's memory is refusals_a2a_budget's MoRI check, fed `chunk_at_handler` (the GPU's
default for the `PLAIN_TEXT` targets, split by `_attention_dp`). Where an input is not read
(no GPU given, an AMD GPU, a model whose config.json is not on disk, a model handler that may
turn chunked prefill off) the checks say nothing."""

from __future__ import annotations

from speclint.sglang.moe_readings import moe_kernel_handler
from speclint.sglang.resolve.moe_refusal import moe_kernel_stop
from speclint.sglang.resolve.refusals_moe_runner import (
    DEEPSEEK_V3,
    moe_quantization,
)
from speclint.sglang.resolve.state import Stop, given

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.resolve.state import ResolutionState

PLAIN_TEXT = frozenset({"LlamaForCausalLM", "Qwen3ForCausalLM", "DeepseekV3ForCausalLM"})
"""Text models no model handler turns chunked prefill off for (the oracle recorded their
default chunked prefill, release by release: refusals_features.PLAIN_TEXT_ARCHITECTURES)."""
DEFAULT_CHUNK = PLAIN_TEXT | {"KimiK25ForConditionalGeneration"}
"""Targets that keep the GPU's default chunked prefill size (split by attention DP) up to the
all-to-all handlers: the text models, and Kimi-K2.5 (multimodal; the oracle recorded its
chunked prefill size as the GPU's default over attention DP on 0.4.4-0.5.23, fake H100 and
B200, in every recording that resolved it: 27 releases, with and without an all-to-all backend)."""


def check_moe_defaults(state: ResolutionState) -> None:
    _sm100_only_quantization(state)
    _int4_trtllm_runner(state)
    _flashinfer_cutlass(state)
    _cutlass_deepseek_blackwell(state)


def _sm100_only_quantization(state: ResolutionState) -> None:
    """`if quantization == "nvfp4_online": if not is_sm100_supported(): raise ValueError(...)`
    (0.5.14+, `_handle_moe_kernel_config`; 0.5.18+ `_moe_runner_backend_quant_constraints`,
    first among the MoE runner resolutions): refused on an NVIDIA GPU whose SM is not 10.x.
    Without --gpu, or on another vendor's GPU, nothing is said."""
    from speclint.sglang.moe_defaults import sm100_only_quantization

    quantization, gpu = given(state, "quantization"), state.gpu
    refused = sm100_only_quantization(state.checked_version)
    if not isinstance(quantization, str) or quantization not in refused or gpu is None:
        return
    if gpu.vendor != "nvidia" or gpu.sm is None or gpu.sm // 10 == 10:
        return
    message, where = refused[quantization]
    raise Stop(
        "ValueError",
        f"{message} (--quantization {quantization} on the {gpu.name}, SM {gpu.sm // 10}.{gpu.sm % 10}; "
        "use a GPU with SM 10.x, or pick another --quantization)",
        where,
        ("quantization",),
    )


_RUNNER_SWITCHES = (
    "enable_triton_kernel_moe",
    "enable_flashinfer_cutlass_moe",
    "enable_flashinfer_trtllm_moe",
    "enable_flashinfer_mxfp4_moe",
)


def _int4_trtllm_runner(state: ResolutionState) -> None:
    """An int4 (Kimi K2 / K2.5 thinking) checkpoint of a DeepSeek-family architecture on an
    SM100 GPU gets the flashinfer_trtllm MoE runner whatever --quantization says (no
    all-to-all backend, runner auto; `moe_defaults.int4_trtllm_runner`, read per release
    0.5.10+), and `_handle_moe_kernel_config` then asserts the --quantization given against
    that runner's list. Checked here too where the GPU-dependent resolution
    (deepseek_blackwell.moe_overrides) is not modelled: 0.5.10-0.5.14 and 0.5.17, or a flag
    beside it (--dtype). Oracle: 0.5.14 refused w8a8_fp8 and w8a8_int8, 0.5.23 humming with
    --dtype float16, on a fake B200 (seeds 12021 and 13021)."""
    from speclint.sglang.moe_defaults import flashinfer_trtllm, int4_trtllm_runner
    from speclint.sglang.resolve.deepseek_blackwell import int4_checkpoint, trtllm_quantization_stop

    quantization, gpu, arch = given(state, "quantization"), state.gpu, state.target_architecture or ""
    read, facts = int4_trtllm_runner(state.checked_version), flashinfer_trtllm(state.checked_version)
    if (
        read is None
        or facts is None
        or not isinstance(quantization, str)
        or quantization in facts[0]
        or quantization in ("unquant", "modelopt")  # rewritten while resolving
        or gpu is None
        or gpu.vendor != "nvidia"
        or (gpu.sm or 0) // 10 != 10
        or arch not in read[0]
        or any(arch.startswith(p) for p in read[2])
        or state.get("moe_a2a_backend") != "none"
        or given(state, "moe_runner_backend") not in (None, "auto")
        or any(given(state, s) not in (None, False) for s in _RUNNER_SWITCHES)
        or not int4_checkpoint(state, read[1])
    ):
        return
    raise trtllm_quantization_stop(
        facts, quantization, f"{arch}, whose int4 checkpoint", ("quantization",), state.checked_version
    )


def _attention_dp(state: ResolutionState) -> int | None:
    """What `_handle_data_parallelism` divides the chunked prefill size by (None: not read)."""
    if state.traits.separate_attn_dp_size:
        size = state.get("attn_dp_size")
        return size if isinstance(size, int) and size > 0 else None
    dp, on = state.get("dp_size"), state.get("enable_dp_attention")
    if not isinstance(dp, int) or dp < 1 or on not in (True, False):
        return None
    return dp if on and dp > 1 else 1


def _flashinfer_cutlass(state: ResolutionState) -> None:
    """`_handle_moe_kernel_config` (0.5.6+) under --moe-runner-backend flashinfer_cutlass:
    the quantization must be one the release lists, and ep_size 1 or tp_size. Read where the
    check of refusals_moe.py (`flashinfer_moe_quantization`, the releases before) does not."""
    if given(state, "moe_runner_backend") != "flashinfer_cutlass":
        return
    if state.traits.flashinfer_moe_quantization:
        _flashinfer_cutlass_early_deepseek(state)
        return
    from speclint.sglang.moe_defaults import flashinfer_cutlass

    facts = flashinfer_cutlass(state.checked_version)
    if facts is None:
        return
    from speclint.sglang.resolve.refusals_moe_runner import replaced_runner

    quantization, source = moe_quantization(state)
    if isinstance(quantization, str) and replaced_runner(state, quantization, "flashinfer_cutlass"):
        return  # 0.5.10+ mxfp8: SGLang runs flashinfer_trtllm instead, with a warning
    if isinstance(quantization, str) and quantization not in facts.quantizations:
        field = "quantization" if source.startswith("--") else "moe_runner_backend"
        listed = ", ".join(q for q in facts.quantizations if q)
        raise moe_kernel_stop(
            facts.message,
            quantization,
            f"quantization {quantization} from {source}, with the flashinfer_cutlass MoE "
            f"runner; use a checkpoint in {listed}, or another --moe-runner-backend",
            (field, "moe_runner_backend"),
            state.checked_version,
        )
    ep, tp = _ep_at_kernel_config(state), state.get("tp_size")
    if facts.ep_message and isinstance(ep, int) and isinstance(tp, int) and ep not in (1, tp):
        raise Stop(
            "AssertionError",
            f"{facts.ep_message} (--ep-size {ep} with --tp-size {tp} and the flashinfer_cutlass "
            f"MoE runner; use --ep-size 1 or --ep-size {tp})",
            moe_kernel_handler(state.checked_version),
            ("ep_size", "expert_parallel_size", "moe_runner_backend"),
        )


_EARLY_VARIANTS = ("runner_0_5_4_post1", "runner_0_5_4", "runner_0_5_5", "runner_0_5_6")


def _flashinfer_cutlass_early_deepseek(state: ResolutionState) -> None:
    """0.5.4-0.5.6, DeepSeek-V3 on SM100 without --quantization (refusals_moe.py says nothing
    there): 0.5.4 sets fp8 only for the auto runner, so the assert reads None; 0.5.5-0.5.6
    take the checkpoint's quantization first (confirmed by tools/oracle on 0.5.4.post3 and
    0.5.6.post2, fake B200)."""
    from speclint.sglang.moe_defaults import sm100_adopts_checkpoint_quantization
    from speclint.sglang.resolve.refusals_moe import _MOE_QUANTIZATION

    variant = state.traits.flashinfer_moe_quantization
    gpu = state.gpu
    if (
        variant not in _EARLY_VARIANTS
        or given(state, "quantization") is not None
        or state.target_architecture != DEEPSEEK_V3
        or gpu is None
        or gpu.vendor != "nvidia"
        or (gpu.sm or 0) // 10 != 10
    ):
        return
    quantization, source = moe_quantization(state)
    if quantization is None:
        if sm100_adopts_checkpoint_quantization(state.checked_version):
            return  # no quantization_config: SGLang sets fp8 (not read here)
        source = "no --quantization (this release sets one for DeepSeek-V3 only with the auto MoE runner)"
    allowed, message = _MOE_QUANTIZATION[variant]["flashinfer_cutlass"]
    if quantization in allowed:
        return
    raise moe_kernel_stop(
        message,
        quantization,
        f"quantization {quantization} from {source}, with the flashinfer_cutlass MoE runner; "
        f"use a checkpoint in {allowed[0]}, or another --moe-runner-backend",
        ("moe_runner_backend",),
        state.checked_version,
    )


def _ep_at_kernel_config(state: ResolutionState) -> int | None:
    """The ep_size `_handle_moe_kernel_config` reads: it runs before `_handle_a2a_moe` (in
    every release read, 0.5.9-0.5.23), so with an all-to-all backend it is the one given
    (default 1), not the tp_size the backend sets after (confirmed by tools/oracle on 0.5.14
    and 0.5.23 with --moe-a2a-backend deepep). None: not read (--enable-ep-moe sets it too)."""
    if given(state, "enable_ep_moe") not in (None, False):
        return None
    if state.get("moe_a2a_backend") in ("none", None):
        ep = state.get("ep_size")
    else:
        ep = (
            given(state, "ep_size") if state.config.knows("ep_size") else given(state, "expert_parallel_size")
        )
        ep = 1 if ep is None else ep
    return ep if isinstance(ep, int) and not isinstance(ep, bool) else None


def _cutlass_deepseek_blackwell(state: ResolutionState) -> None:
    """`_handle_moe_kernel_config` (0.5.4+): the cutlass MoE runner on an fp8 (0.5.9+: or
    mxfp8) model asserts ep_size == 1; here the quantization DeepSeek-V3 takes from its
    checkpoint on SM100 (refusals_moe.py reads --quantization given)."""
    quantizations = state.traits.cutlass_moe_quantizations
    if (
        not quantizations
        or given(state, "moe_runner_backend") != "cutlass"
        or given(state, "quantization") is not None
    ):
        return
    quantization, source = moe_quantization(state)
    ep = _ep_at_kernel_config(state)
    if quantization not in quantizations or ep is None or ep == 1:
        return
    wording = "/".join(q.upper() for q in quantizations)
    raise Stop(
        "AssertionError",
        f"{wording} Cutlass MoE is only supported with ep_size == 1 (--moe-runner-backend cutlass "
        f"with ep_size {ep} and quantization {quantization} from {source}; drop --ep-size or "
        "pick another MoE runner)",
        moe_kernel_handler(state.checked_version),
        ("ep_size", "expert_parallel_size", "moe_runner_backend"),
    )
