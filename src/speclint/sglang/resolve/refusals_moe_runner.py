"""An explicit --moe-runner-backend against its quantization assert in
`_handle_moe_kernel_config` (0.5.7+): `assert ....quantization in [...]` under
`if ....moe_runner_backend == "R"` for the FlashInfer runners (flashinfer_trtllm,
flashinfer_trtllm_routed, flashinfer_cutedsl, ...), read per release from its wheel
(tools/sglang_moe_runner_asserts.py, `speclint.sglang.moe_defaults.moe_runner_quantization`).
flashinfer_cutlass is checked by refusals_moe_defaults.py (with its expert-parallel assert),
0.4.10-0.5.6 by refusals_moe.py (`ReleaseTraits.flashinfer_moe_quantization`).

The value the assert reads is the --quantization given, or the checkpoint's where SGLang
takes it for a DeepSeek-family model on an SM100 GPU (refusals_moe_defaults._quantization).
Nothing is said where resolution may change either before the assert: `unquant` (None from
0.5.11: judged as None only where no --quantization would be, `_unquant_reads_none`), `modelopt` on a checkpoint with a quantization config (canonicalized from it), a quantization under which the release
replaces a runner it does not keep (0.5.10+ `mxfp8`: `moe_defaults.moe_runner_overrides`,
`replaced_runner`), `nvfp4_online` (refused with a ValueError first for other runners), a GGUF
model, NemotronH (its override sets the quantization from the checkpoint), no quantization
where one may still be taken (a checkpoint not read or stating one, an hf_quant_config.json,
an architecture that adopts or probes the checkpoint's: `_states_none`), a deprecated runner switch given,
or an `or` term of the assert that is not read."""

from __future__ import annotations

from speclint.sglang.resolve.moe_refusal import moe_kernel_stop
from speclint.sglang.resolve.result import is_known
from speclint.sglang.resolve.state import Stop, given

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.moe_defaults import RunnerQuantization
    from speclint.sglang.resolve.state import ResolutionState

_REWRITTEN = frozenset({"unquant", "nvfp4_online"})
_CHECKED_ELSEWHERE = frozenset({"flashinfer_cutlass", "auto"})
_SWITCHES = (
    "enable_triton_kernel_moe",
    "enable_flashinfer_cutlass_moe",
    "enable_flashinfer_trtllm_moe",
    "enable_flashinfer_mxfp4_moe",
)
_NVFP4_META = "nvfp4_moe_meta is not None"
"""0.5.15+ flashinfer_cutedsl's `or model_config.nvfp4_moe_meta is not None`."""


def check_runner_quantization(state: ResolutionState) -> None:
    """0.5.18+'s `--moe-runner-backend megamoe` (`moe_readings.moe_runner_alias`, parallel.py
    `_moe_runner_alias`) is an alias: SGLang sets the runner to auto and the all-to-all
    backend to megamoe (`handle_moe_runner_backend_alias`), so no runner is judged."""
    from speclint.sglang.moe_readings import moe_runner_alias

    runner = given(state, "moe_runner_backend")
    if (
        state.traits.flashinfer_moe_quantization
        or not isinstance(runner, str)
        or runner == "auto"
        or runner == (moe_runner_alias(state.checked_version) or ("",))[0]  # the auto runner
    ):
        return
    _lora_runner(state, runner)
    _runner_refused(state, runner)
    if runner in _CHECKED_ELSEWHERE:
        return
    from speclint.sglang.moe_defaults import moe_runner_quantization

    facts = moe_runner_quantization(state.checked_version).get(runner)
    if facts is None or any(given(state, s) not in (None, False) for s in _SWITCHES):
        return
    quantization = given(state, "quantization")
    if not is_known(quantization):
        return
    source = f"--quantization {quantization}"
    if quantization is None:
        quantization, source = moe_quantization(state)
    none = quantization is None and None not in facts.quantizations and _states_none(state)
    if none:
        source = "no --quantization, and a checkpoint whose config.json states none"
    elif quantization is None and None not in facts.quantizations and _not_adopted(state):
        none = True
        source = (
            f"no --quantization, and SGLang {state.checked_version} does not take the checkpoint's "
            f"quantization_config into it for {state.target_architecture}"
            + ("" if state.gpu is None else f" on the {state.gpu.name}")
        )
    elif quantization == "unquant" and None not in facts.quantizations and _unquant_reads_none(state):
        quantization, none = None, True
        source = f"--quantization unquant, which SGLang {state.checked_version} sets to None"
    model, arch = state.get("model_path"), state.target_architecture or ""
    if (
        not (isinstance(quantization, str) or none)
        or str(quantization).lower() in _REWRITTEN
        or (quantization == "modelopt" and _modelopt_may_change(state))
        or quantization in facts.quantizations
        or (isinstance(quantization, str) and replaced_runner(state, quantization, runner))
        or not isinstance(model, str)
        or model.lower().endswith(".gguf")
        or given(state, "load_format") == "gguf"
        or arch.startswith("NemotronH")
        or (facts.alternative is not None and not _alternative_false(state, facts))
    ):
        return
    listed = ", ".join(q for q in facts.quantizations if q)
    field = "quantization" if source.startswith("--") else "moe_runner_backend"
    raise moe_kernel_stop(
        facts.message,
        quantization,
        f"quantization {quantization} from {source}, with --moe-runner-backend {runner}; "
        f"use a checkpoint in {listed} with that --quantization, or another --moe-runner-backend",
        ("moe_runner_backend", field),
        state.checked_version,
    )


def _lora_runner(state: ResolutionState, runner: str) -> None:
    """0.5.23 `check_lora_moe_runner_args`: a LoRA MoE runner (`lora_*`) without LoRA on
    (--enable-lora, or --lora-paths, which turns it on; `moe_defaults.moe_runner_lora`)."""
    from speclint.sglang.moe_defaults import moe_runner_lora

    read = moe_runner_lora(state.checked_version)
    if read is None or not runner.startswith(read[0]):
        return
    if given(state, "enable_lora") not in (None, False) or given(state, "lora_paths") is not None:
        return
    raise Stop(
        "ValueError",
        read[1].format(runner=runner) + " (LoRA is off in this launch; add --enable-lora and "
        "--lora-paths, or pick a --moe-runner-backend that is not a LoRA one)",
        read[2],
        ("moe_runner_backend",),
    )


def _runner_refused(state: ResolutionState, runner: str) -> None:
    """`if ....quantization == "V": ... elif moe_runner_backend not in [...]: raise
    ValueError(...)` (0.5.14+ nvfp4_online; `moe_defaults.moe_runner_refusals`), before the
    runners' asserts. A runner the test's other terms name (0.5.23: flashinfer_megamoe with
    its all-to-all backend and environment switch) is judged where that all-to-all backend is
    known not to be the one they ask for, or is and the switch is known off (its default, read
    from the release's environ.py, where the launch does not set it; a value speclint cannot
    read is unknown: not judged); on a GPU known not to be an SM100 one the SM100-only refusal
    (refusals_moe_defaults) comes first and is left to it."""
    from speclint.sglang.moe_defaults import moe_runner_refusals, sm100_only_quantization

    quantization = given(state, "quantization")
    if not isinstance(quantization, str):
        return
    read = moe_runner_refusals(state.checked_version).get(quantization)
    if read is None:
        return
    runners, message, unless, where, beside = read
    gpu = state.gpu
    off_sm100 = gpu is not None and (gpu.vendor != "nvidia" or (gpu.sm or 0) // 10 != 10)
    a2a = state.get("moe_a2a_backend")
    named = beside is not None and runner == beside.runner and isinstance(a2a, str)
    without = named and beside is not None and a2a != beside.a2a
    switch = beside.env if named and not without and beside is not None else None
    off = switch is not None and switch.value(state.env) is False
    if (
        runner in runners
        or (unless is not None and repr(runner) in unless and not (without or off))
        or (off_sm100 and quantization in sm100_only_quantization(state.checked_version))
    ):
        return
    also = ""
    if without and beside is not None:
        also = f"; {runner} is taken only with --moe-a2a-backend {beside.a2a}, here {a2a}"
    elif off and switch is not None:
        how = (
            f"{switch.name}={state.env[switch.name]}"
            if switch.name in state.env
            else f"{switch.name} is not set (SGLang {state.checked_version}'s default: {switch.default})"
        )
        also = (
            f"; with --moe-a2a-backend {a2a} {runner} is taken only where {switch.name} is true, here {how}"
        )
    raise Stop(
        "ValueError",
        f"{message} (--quantization {quantization} with --moe-runner-backend {runner}{also}; use "
        f"--moe-runner-backend {' or '.join(runners)}, or leave it auto)",
        where,
        ("moe_runner_backend", "quantization"),
    )


def _states_none(state: ResolutionState) -> bool:
    """No --quantization, and none is taken while resolving: the target's config.json is read
    and states no quantization_config (nor its text_config), no hf_quant_config.json is beside
    it, and the architecture is not one whose SM100 branch probes or adopts the checkpoint's
    (`adopts_checkpoint_quantization`): the assert then reads None (oracle: 0.5.14 refused
    Llama 3.1 with --moe-runner-backend flashinfer_cutedsl, "Invalid quantization 'None'")."""
    if given(state, "quantization") is not None or adopts_checkpoint_quantization(state):
        return False
    return not _modelopt_may_change(state)


def _not_adopted(state: ResolutionState) -> bool:
    """No --quantization, a checkpoint whose config.json is read (it may state a quantization),
    no hf_quant_config.json beside it, and no statement of the release's resolution that sets the
    quantization from the checkpoint is written for the target's architecture on this GPU
    (`moe_defaults.quantization_adopters`: one gated by an SM100/Blackwell test counts unless
    the GPU is known to be another): the assert reads None (oracle: DeepSeek-V3's FP8 checkpoint
    with flashinfer_cutedsl on a fake H100 refused on 0.5.11-0.5.21, seeds moe-14005/14010; a
    GPTQ Qwen3 checkpoint on a B200 on 0.5.12, seed moe-14010)."""
    import os

    from speclint.sglang.moe_defaults import quantization_adopters

    target, arch, gpu = state.target_config, state.target_architecture, state.gpu
    sites = quantization_adopters(state.checked_version)
    if given(state, "quantization") is not None or target is None or arch is None or sites is None:
        return False
    if os.path.exists(os.path.join(os.path.dirname(target.path), "hf_quant_config.json")):
        return False
    blackwell = gpu is None or gpu.vendor != "nvidia" or (gpu.sm or 0) // 10 in (10, 12)
    return not any(arch in names and (blackwell or not gated) for names, gated, _ in sites)


def _unquant_reads_none(state: ResolutionState) -> bool:
    """--quantization unquant where the release turns it into None before the asserts and takes
    no quantization from the checkpoint afterwards (`model_config_facts.unquant_unset`, 0.5.11+),
    judged as `_states_none` judges no --quantization: a config.json read stating none, no
    hf_quant_config.json, an architecture that neither probes nor adopts the checkpoint's
    (oracle: 0.5.16 refused Llama 3.1 with --quantization unquant --moe-runner-backend
    flashinfer_cutedsl, "Invalid quantization 'None'", seed moe-14003)."""
    from speclint.sglang.model_config_facts import unquant_unset

    if not unquant_unset(state.checked_version):
        return False
    if not adopts_checkpoint_quantization(state) and not _modelopt_may_change(state):
        return True
    return _adopters_skip_unquant(state)


def _adopters_skip_unquant(state: ResolutionState) -> bool:
    """Every statement of the release's resolution that sets the quantization from the
    checkpoint for the target's architecture asks `not ..._quantization_explicitly_unset`
    (`moe_defaults.quantization_adopters`), on a config.json read with no hf_quant_config.json
    beside it (oracle: DeepSeek-V3's FP8 checkpoint with --quantization unquant and
    flashinfer_cutedsl refused on a fake B200 on 0.5.17-0.5.19, seed moe-14005)."""
    import os

    from speclint.sglang.moe_defaults import quantization_adopters

    target, arch, sites = state.target_config, state.target_architecture, None
    sites = quantization_adopters(state.checked_version)
    if target is None or arch is None or sites is None:
        return False
    if os.path.exists(os.path.join(os.path.dirname(target.path), "hf_quant_config.json")):
        return False
    return all(unset for names, _, unset in sites if arch in names)


def _modelopt_may_change(state: ResolutionState) -> bool:
    """`--quantization modelopt` is canonicalized from the checkpoint's quantization config
    (0.5.19+) or its hf_quant_config.json: kept as given (and so asserted on, as the oracle
    recorded on 0.5.8.post1, 0.5.14 and 0.5.23) only where config.json is read and states
    none and no hf_quant_config.json is beside it."""
    import os

    from speclint.sglang.resolve.quantization import _quantization_config

    target = state.target_config
    if target is None or _quantization_config(state) is not None:
        return True
    return os.path.exists(os.path.join(os.path.dirname(target.path), "hf_quant_config.json"))


def replaced_runner(state: ResolutionState, quantization: str, runner: str) -> bool:
    """Under this quantization the release replaces this explicit runner before its assert
    (`--quantization mxfp8 --moe-runner-backend flashinfer_cutlass` runs flashinfer_trtllm,
    0.5.10+, with a warning)."""
    from speclint.sglang.moe_defaults import moe_runner_overrides

    kept = moe_runner_overrides(state.checked_version).get(quantization)
    return kept is not None and runner not in kept


def _alternative_false(state: ResolutionState, facts: RunnerQuantization) -> bool:
    """The assert's other term is known false: the hybrid-NVFP4 test (`nvfp4_moe_meta`, set by
    the release's ModelConfig only when the checkpoint's quantization_config has each key and
    upper-cased value read, `hybrid_nvfp4`) on a config.json that is read, where neither its
    top level's nor its text_config's quantization_config has them all."""
    tests = facts.hybrid_nvfp4
    if not (facts.alternative or "").endswith(_NVFP4_META) or not tests or state.target_config is None:
        return False
    raw = state.target_config.raw
    text = raw.get("text_config")
    for holder in (raw, text if isinstance(text, dict) else {}):
        quant = holder.get("quantization_config")
        if quant is not None and (
            not isinstance(quant, dict) or all(str(quant.get(k, "")).upper() == v for k, v in tests.items())
        ):
            return False
    return True


DEEPSEEK_V3 = "DeepseekV3ForCausalLM"


def moe_quantization(state: ResolutionState) -> tuple[object, str]:
    """The quantization the MoE runners' asserts read, and where it comes from: --quantization,
    or DeepSeek-V3's checkpoint `quant_method` on an SM100 GPU in the releases that adopt it."""
    from speclint.sglang.moe_defaults import sm100_adopts_checkpoint_quantization
    from speclint.sglang.resolve.deepseek_blackwell import checkpoint_quantization

    quantization = given(state, "quantization")
    if quantization == "unquant":
        return None, ""  # explicitly none: nothing adopted
    if quantization is not None:
        return quantization, f"--quantization {quantization}"
    gpu, arch = state.gpu, state.target_architecture
    if (
        adopts_checkpoint_quantization(state)
        and gpu is not None
        and gpu.vendor == "nvidia"
        and (gpu.sm or 0) // 10 == 10
        and sm100_adopts_checkpoint_quantization(state.checked_version)
    ):
        method = checkpoint_quantization(state)
        if method is not None:
            return method, (
                f"the checkpoint's quantization_config ({method}), which SGLang takes for "
                f"{'DeepSeek-V3' if arch == DEEPSEEK_V3 else arch} on the {gpu.name} (SM100)"
            )
    return None, ""


def adopts_checkpoint_quantization(state: ResolutionState) -> bool:
    """DeepSeek-V3, any architecture `_deepseek_moe_quant_resolution` takes
    (`speclint.sglang.moe_defaults.deepseek_family`, read per release from 0.5.22: Kimi-K2.5
    among them), or one whose own SM100 branch takes the checkpoint's quantization
    (`sm100_adopting_architectures`, read per release: Kimi-K2.5 in 0.5.9-0.5.14, Qwen3-MoE)."""
    from speclint.sglang.moe_defaults import deepseek_family, sm100_adopting_architectures

    family = deepseek_family(state.checked_version)
    arch = state.target_architecture
    return (
        arch == DEEPSEEK_V3
        or (family is not None and arch in family.moe)
        or arch in sm100_adopting_architectures(state.checked_version)
    )
