"""The MoE runners' own refusals (0.4.10 `__post_init__`, 0.5.3+ `_handle_moe_kernel_config`):
the FlashInfer runners' quantization asserts and the cutlass runner's ep_size == 1, as each
release words them (`ReleaseTraits.flashinfer_moe_quantization`, `cutlass_moe_quantizations`)."""

from __future__ import annotations

from speclint.sglang.moe_readings import moe_kernel_handler
from speclint.sglang.resolve.moe_refusal import moe_kernel_stop
from speclint.sglang.resolve.result import is_known
from speclint.sglang.resolve.state import Stop, given

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.resolve.state import ResolutionState


def deterministic_inference(state: ResolutionState) -> bool:
    """--enable-deterministic-inference given, or turned on while resolving
    (--rl-on-policy-target: deterministic.resolve_rl_on_policy)."""
    return (
        given(state, "enable_deterministic_inference") is True
        or state.get("enable_deterministic_inference") is True
    )


def check_moe_kernel(state: ResolutionState) -> None:
    _flashinfer_moe_quantization(state)
    _cutlass_moe_expert_parallel(state)
    if given(state, "moe_runner_backend") not in (None, "auto"):  # (imported only then)
        from speclint.sglang.resolve.refusals_moe_runner import check_runner_quantization

        check_runner_quantization(state)


_FP4 = ("modelopt_fp4",)
_FP4_FP8 = ("modelopt_fp4", "fp8")
_TRTLLM_0_5_4 = ("modelopt_fp4", "modelopt_fp8", "fp8")
_CUTLASS_MOE = "modelopt_fp4 quantization is required for Flashinfer MOE"
_TRTLLM_THREE = "modelopt_fp4, modelopt_fp8 or fp8 quantization is required for Flashinfer TRTLLM MoE"
_MOE_QUANTIZATION: dict[str, dict[str, tuple[tuple[str | None, ...], str]]] = {
    # 0.4.10.post2 `__post_init__` "# MoE kernel": --enable-flashinfer-cutlass-moe
    "flags": {"flashinfer_cutlass": (_FP4, _CUTLASS_MOE)},
    # 0.5.1: the flags became --moe-runner-backend values
    "runner_0_5_1": {"flashinfer_cutlass": (_FP4, _CUTLASS_MOE)},
    "runner_0_5_2": {
        "flashinfer_cutlass": (_FP4, _CUTLASS_MOE),
        "flashinfer_trtllm": (_FP4_FP8, "modelopt_fp4 quantization is required for Flashinfer TRTLLM MoE"),
    },
    # `_handle_moe_kernel_config`
    "runner_0_5_3": {
        "flashinfer_cutlass": (_FP4, _CUTLASS_MOE),
        "flashinfer_trtllm": (
            _FP4_FP8,
            "modelopt_fp4 or fp8 quantization is required for Flashinfer TRTLLM MoE",
        ),
    },
    # 0.5.4.post1: 0.5.4.post2's kernel config with 0.5.3's TRTLLM assert (no modelopt_fp8)
    "runner_0_5_4_post1": {
        "flashinfer_cutlass": (_FP4, _CUTLASS_MOE),
        "flashinfer_trtllm": (
            _FP4_FP8,
            "modelopt_fp4 or fp8 quantization is required for Flashinfer TRTLLM MoE",
        ),
    },
    "runner_0_5_4": {
        "flashinfer_cutlass": (_FP4, _CUTLASS_MOE),
        "flashinfer_trtllm": (_TRTLLM_0_5_4, _TRTLLM_THREE),
    },
    "runner_0_5_5": {
        "flashinfer_cutlass": (_FP4, "modelopt_fp4 quantization is required for Flashinfer Cutlass MOE"),
        "flashinfer_trtllm": (_TRTLLM_0_5_4, _TRTLLM_THREE),
    },
    "runner_0_5_6": {
        "flashinfer_cutlass": (
            ("modelopt_fp4", "modelopt_fp8", None),
            "Invalid quantization '{quantization}'. \nFlashInfer Cutlass MOE supports only: "
            "'modelopt_fp4', 'modelopt_fp8', or bfloat16 (None).",
        ),
        "flashinfer_trtllm": (_TRTLLM_0_5_4, _TRTLLM_THREE),
    },
}
"""`ReleaseTraits.flashinfer_moe_quantization` -> {MoE runner: (quantizations it takes, SGLang's
message)}; 0.4.10 ('flags_ep') is 'flags' plus the EP assert below."""
_QUANTIZATION_ADOPTERS = (
    "DeepseekV3ForCausalLM",
    "MistralLarge3ForCausalLM",
    "PixtralForConditionalGeneration",
    "NemotronHForCausalLM",
    "Qwen3MoeForCausalLM",
    "Qwen3VLMoeForConditionalGeneration",
    "Qwen3NextForCausalLM",
)
"""0.5.4-0.5.6 `_handle_model_specific_adjustments`: the architectures whose branches set
--quantization from the checkpoint (or fp8 for DeepSeek-V3) when it is not given; all but
NemotronH's only on an SM100 GPU (`is_sm100_supported()`)."""


def _fp8_only_for_auto(state: ResolutionState, architecture: str | None) -> bool:
    """0.5.4.post1-0.5.4.post3 set fp8 for DeepSeek-V3 on SM100 only where the MoE runner is
    auto (`if self.moe_runner_backend == "auto": ... if self.quantization is None: ... = "fp8"`;
    `sm100_adopts_checkpoint_quantization` false): an explicit runner's assert reads None
    (oracle, moe seed 15004: 0.5.4.post1 refuses flashinfer_trtllm on a fake B200; the
    flashinfer_cutlass runner's is refusals_moe_defaults' `_flashinfer_cutlass_early_deepseek`)."""
    from speclint.sglang.moe_defaults import sm100_adopts_checkpoint_quantization

    return architecture == "DeepseekV3ForCausalLM" and not sm100_adopts_checkpoint_quantization(
        state.checked_version
    )


def _maybe_sm100(state: ResolutionState) -> bool:
    """The GPU is unknown or an SM100 (compute capability 10.x) NVIDIA one."""
    gpu = state.gpu
    return gpu is None or (gpu.vendor == "nvidia" and (gpu.sm or 0) // 10 == 10)


def _flashinfer_moe_quantization(state: ResolutionState) -> None:
    """The FlashInfer MoE runners' quantization asserts (0.4.10 `__post_init__`, 0.5.3+
    `_handle_moe_kernel_config`; `ReleaseTraits.flashinfer_moe_quantization`), on the
    quantization the launch gives. Without --quantization, the value SGLang checks is None
    unless a model branch adopts the checkpoint's (0.5.4+: read for the architectures above;
    an unknown architecture says nothing) or the model is a GGUF file."""
    variant = state.traits.flashinfer_moe_quantization
    if not variant:
        return
    flags = variant.startswith("flags")
    runner = _moe_runner(state, variant)
    rule = _MOE_QUANTIZATION["flags" if flags else variant].get(str(runner))
    quantization = given(state, "quantization")
    model = state.get("model_path")
    if (
        rule is not None
        and is_known(quantization)
        and isinstance(model, str)
        and not model.lower().endswith(".gguf")
    ):
        architecture = state.target_architecture
        auto_only = (
            runner == "flashinfer_trtllm" and _fp8_only_for_auto(state, architecture) and _maybe_sm100(state)
        )
        adopted = (
            quantization is None
            and not flags
            and (
                architecture in (None, "GptOssForCausalLM")  # GPT-OSS's branch picks the runner itself
                or (
                    variant in ("runner_0_5_4_post1", "runner_0_5_4", "runner_0_5_5", "runner_0_5_6")
                    and architecture in _QUANTIZATION_ADOPTERS
                    and (architecture == "NemotronHForCausalLM" or _maybe_sm100(state))
                    and not auto_only
                )
            )
        )
        allowed, message = rule
        if not adopted and quantization not in allowed:
            raise moe_kernel_stop(
                message,
                quantization,
                (
                    f"no --quantization: SGLang {state.checked_version} sets fp8 for DeepSeek-V3 on SM100 "
                    f"only with the auto MoE runner; name the checkpoint's quantization "
                    f"({' or '.join(q for q in allowed if q)}) with --quantization, or leave the runner auto"
                    if auto_only and quantization is None
                    else f"--quantization {quantization or 'not given'} with the {runner} MoE runner; use "
                    f"--quantization {allowed[0]} with a checkpoint of that format, or another MoE runner"
                ),
                (
                    "moe_runner_backend",
                    "enable_flashinfer_cutlass_moe",
                    "enable_flashinfer_moe",
                    "enable_flashinfer_trtllm_moe",
                ),
                state.checked_version,
                "__post_init__" if variant in ("flags", "flags_ep", "runner_0_5_1", "runner_0_5_2") else None,
            )
    if variant == "flags_ep" and given(state, "enable_flashinfer_trtllm_moe") is True:
        if given(state, "enable_ep_moe") is False:
            raise Stop(
                "AssertionError",
                "EP MoE is required for Flashinfer TRTLLM MOE (--enable-flashinfer-trtllm-moe "
                "without --enable-ep-moe; add --enable-ep-moe)",
                "__post_init__",
                ("enable_flashinfer_trtllm_moe",),
            )


_RUNNER_FLAGS = (
    ("enable_triton_kernel_moe", "triton_kernel"),
    ("enable_flashinfer_cutlass_moe", "flashinfer_cutlass"),
    ("enable_flashinfer_trtllm_moe", "flashinfer_trtllm"),
    ("enable_flashinfer_mxfp4_moe", "flashinfer_mxfp4"),
)
"""0.5.1-0.5.2 `__post_init__`: each deprecated flag sets the MoE runner, in this order."""


def _moe_runner(state: ResolutionState, variant: str) -> object:
    """The MoE runner the assert reads: the flag (0.4.10), or --moe-runner-backend after the
    deprecated flags (0.5.1-0.5.2; None: a flag is dynamic)."""
    if variant.startswith("flags"):
        # 0.4.8-0.4.9.post4 name the flag --enable-flashinfer-moe (the same assert)
        flags = ("enable_flashinfer_cutlass_moe", "enable_flashinfer_moe")
        return "flashinfer_cutlass" if any(given(state, flag) is True for flag in flags) else None
    runner = given(state, "moe_runner_backend")
    for flag, value in _RUNNER_FLAGS:
        on = given(state, flag)
        if not is_known(on):
            return None
        if on is True:
            runner = value
    return runner


def _cutlass_moe_expert_parallel(state: ResolutionState) -> None:
    """`_handle_moe_kernel_config` (0.5.4+, `ReleaseTraits.cutlass_moe_quantizations`): the
    cutlass MoE runner on an fp8 (0.5.9+: or mxfp8) model asserts ep_size == 1. Read for an
    explicit --moe-runner-backend cutlass, the quantization speclint resolved (given, or
    DeepSeek-V3's on Blackwell in 0.5.23), and no all-to-all backend (which moves ep_size)."""
    quantizations = state.traits.cutlass_moe_quantizations
    quantization, ep = state.get("quantization") or given(state, "quantization"), state.get("ep_size")
    if (
        not quantizations
        or given(state, "moe_runner_backend") != "cutlass"
        or quantization not in quantizations
        or not isinstance(ep, int)
        or ep == 1
        or state.get("moe_a2a_backend") not in ("none", None)
        or given(state, "enable_ep_moe") not in (None, False)  # it sets ep_size = tp_size
    ):
        return
    wording = "/".join(q.upper() for q in quantizations)
    raise Stop(
        "AssertionError",
        f"{wording} Cutlass MoE is only supported with ep_size == 1 (--moe-runner-backend cutlass "
        f"on a {quantization} model with ep_size {ep}; drop --ep-size or pick another MoE runner)",
        moe_kernel_handler(state.checked_version),
        ("ep_size", "expert_parallel_size", "moe_runner_backend"),
    )
