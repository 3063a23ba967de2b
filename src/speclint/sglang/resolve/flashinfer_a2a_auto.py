"""The MoE runner `_handle_a2a_moe`'s FlashInfer all-to-all assert sees for a launch that leaves
it `auto` (the assert refuses `auto`), for releases whose resolution code rewrites the runner in
the functions tools/gen_sglang_server_checks.py lists (`runner_writers`, read per release with the
architectures each model override is registered for). Every writer must be known: a model
override registered for other architectures, or one of the functions below, judged on what its
code tests (read in 0.5.15.post1-0.5.23). `_moe_runner_backend_quant_constraints` gives the
runner the launch's --quantization puts in auto's place (`moe_defaults.runner_after_quantization`,
read per release: mxfp8 -> flashinfer_trtllm, 0.5.20+ flashinfer_megamoe beside that all-to-all
backend), which 0.5.15-0.5.18's assert refuses too (oracle: a2a seed 25003, 0.5.16 Qwen3
--quantization mxfp8 --moe-a2a-backend flashinfer). A writer not listed here (a new hook), or one
whose value is not read (nvfp4_online, modelopt_fp4 on SM120), stops the judgement: nothing is
said."""

from __future__ import annotations

from speclint.sglang.resolve.result import is_known
from speclint.sglang.resolve.state import given

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from speclint.sglang.resolve.state import ResolutionState

_A2A_QUIET = ("fp8", None)
"""Quantizations `_moe_runner_backend_quant_constraints` leaves the runner alone for on any
NVIDIA GPU (it rewrites `auto` for nvfp4_online and mxfp8, and modelopt_fp4 on SM110/SM120)."""


def _quant_constraints(state: ResolutionState) -> bool:
    read, quantization = _quantization(state)
    if not read:
        return False
    if quantization in _A2A_QUIET:
        return True
    gpu = state.gpu
    return quantization == "modelopt_fp4" and gpu is not None and (gpu.sm or 0) // 10 in (9, 10)


def _no_cutlass_env(state: ResolutionState) -> bool:
    """`if envs.SGLANG_CUTLASS_MOE.get(): ... return {"moe_runner_backend": "cutlass"}`."""
    return "SGLANG_CUTLASS_MOE" not in state.env


def _not_deepseek_v4(state: ResolutionState) -> bool:
    """`if hf_config.architectures[0] != "DeepseekV4ForCausalLM": return {}`."""
    return state.target_architecture != "DeepseekV4ForCausalLM"


def _always(state: ResolutionState) -> bool:
    return True


_QUIET: dict[str, Callable[[ResolutionState], bool]] = {
    # the all-to-all handler itself: its runner writes are other backends' (megamoe, pplx,
    # deepep_v2) and FlashInfer's flashinfer_trtllm -> flashinfer_trtllm_routed, never `auto`
    "arg_groups/moe_hook.py::handle_a2a_moe": _always,
    "server_args.py::_handle_a2a_moe": _always,
    # `if cfg.moe_runner_backend != "megamoe": return` (the runner here is auto)
    "arg_groups/mega_moe_hook.py::handle_moe_runner_backend_alias": _always,
    "server_args.py::_handle_moe_runner_backend_alias": _always,
    # writes the runner only under `view.moe_a2a_backend == "none"`
    "arg_groups/overrides.py::_deepseek_moe_quant_resolution": _always,
    "arg_groups/overrides.py::_cutlass_moe_env_override": _no_cutlass_env,
    "arg_groups/overrides.py::_deepseek_v4_sm120_moe": _not_deepseek_v4,
}


def _quantization(state: ResolutionState) -> tuple[bool, object]:
    """(read, the --quantization given, else the checkpoint's `quant_method`: what the
    DeepSeek-family resolution adopts on SM100); not read where neither can be."""
    quantization = given(state, "quantization")
    if quantization is not None:
        return is_known(quantization), quantization
    target = state.target_config
    if target is None:
        return False, None
    config = target.raw.get("quantization_config")
    method = config.get("quant_method") if isinstance(config, dict) else None
    return True, method if isinstance(method, str) else None


QUANT_CONSTRAINTS = "arg_groups/overrides.py::_moe_runner_backend_quant_constraints"


def _quant_runner(state: ResolutionState) -> str | None:
    """The runner `_moe_runner_backend_quant_constraints` leaves for `auto` under the launch's
    quantization on an NVIDIA GPU (the release's reading); None where not read."""
    from speclint.sglang.moe_defaults import runner_after_quantization

    read, quantization = _quantization(state)
    if not read:
        return None
    if _quant_constraints(state):
        return "auto"
    if quantization != "mxfp8":  # nvfp4_online (refused off SM100), modelopt_fp4 on SM120
        return None
    a2a = given(state, "moe_a2a_backend")
    return runner_after_quantization(state.checked_version, quantization, "auto", a2a)


def runner_at_assert(state: ResolutionState) -> str | None:
    """The runner the assert sees where the launch leaves it `auto`: `auto` where no writer the
    release has applies, the one a writer puts in its place where exactly that is read; None
    where a writer may apply and what it writes is not known."""
    from speclint.sglang.resolve.chunked_page import server_check

    writers = server_check(state.checked_version, "runner_writers")
    target = state.target_config
    if (
        not isinstance(writers, list)
        or target is None
        or not _quantization(state)[0]
        or state.gpu is None
        or state.gpu.vendor != "nvidia"
    ):
        return None
    architectures = target.raw.get("architectures")
    if not isinstance(architectures, list) or not architectures:
        return None
    runner = "auto"
    for writer in writers:
        archs = writer.get("archs") if isinstance(writer, dict) else None
        if isinstance(archs, list):
            if any(a in archs for a in architectures):
                return None
            continue
        where = str(writer.get("where")) if isinstance(writer, dict) else ""
        if where == QUANT_CONSTRAINTS:
            written = _quant_runner(state)
            if written is None:
                return None
            runner = written
            continue
        quiet = _QUIET.get(where)
        if quiet is None or not quiet(state):
            return None
    return runner


def auto_refused(state: ResolutionState, runners: tuple[str, ...]) -> tuple[str, str] | None:
    """Where the assert (which takes `runners`) refuses a launch that leaves the runner `auto`:
    (what the finding adds about the runner SGLang puts in auto's place, the runner to name in
    the fix: one the assert takes that the quantization keeps); None where it is not refused,
    or not known to be."""
    from speclint.sglang.moe_defaults import moe_runner_overrides

    seen = runner_at_assert(state)
    if seen is None or seen in runners:
        return None
    if seen == "auto":
        return "", runners[0]
    quantization = _quantization(state)[1]
    given_quantization = given(state, "quantization")
    named = (
        f"--quantization {given_quantization}"
        if given_quantization is not None
        else f"the checkpoint's {quantization} quantization"
    )
    kept = moe_runner_overrides(state.checked_version).get(str(quantization), ())
    fix = next((r for r in runners if r in kept), runners[0])
    return f", which SGLang replaces with {seen} under {named}", fix
