"""--enable-flashinfer-allreduce-fusion turned on by the release itself (0.5.13.post1 and older,
`_handle_model_specific_adjustments`): the `if <conditions>:` read from its wheel by
tools/sglang_allreduce_fusion.py (`allreduce_fusion`), each condition as
written, evaluated here for the modelled flags; a condition this module does not know leaves
the field Unknown. Called by defaults.py for the releases before
--flashinfer-allreduce-fusion-backend."""

from __future__ import annotations

from speclint.core.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.resolve.gpu_profiles import GpuProfile
    from speclint.sglang.resolve.state import ResolutionState

FIELD = "enable_flashinfer_allreduce_fusion"
H20_TEST = "device_name and 'H20' in device_name and ('H200' not in device_name)"
"""`is_h20_device`'s value as written (`ast.unparse`) in 0.5.7-0.5.12.post1: the reading must be this."""


@dataclass(frozen=True, slots=True)
class AllreduceFusion:
    """When a release turns --enable-flashinfer-allreduce-fusion on by itself (0.5.13.post1 and
    older; tools/sglang_allreduce_fusion.py)."""

    conditions: tuple[str, ...]
    """The `if`'s `and`-ed operands, each as written, but the architecture list."""
    architectures: tuple[str, ...]
    is_h20_device: str | None
    """The test assigned to `is_h20_device`, as written (None: not there)."""
    before_data_parallelism: bool | None = None
    """`__post_init__` runs it before `_handle_data_parallelism` (0.5.7-0.5.13.post1): it reads
    --enable-dp-attention as given, before --dp-size 1 turns it off (None: not read)."""


def allreduce_fusion(version: str) -> AllreduceFusion | None:
    import speclint.sglang.gpu_resolution as gpu_resolution

    defaults = gpu_resolution._reading(version, "defaults")
    fusion = defaults.get("allreduce_fusion") if isinstance(defaults, dict) else None
    if not isinstance(fusion, dict):
        return None
    h20 = fusion.get("is_h20_device")
    before = fusion.get("before_data_parallelism")
    return AllreduceFusion(
        tuple(fusion["conditions"]),
        tuple(fusion["architectures"]),
        h20 if isinstance(h20, str) else None,
        before if isinstance(before, bool) else None,
    )


def _dp_attention(state: ResolutionState, before: bool | None) -> bool | None:
    """--enable-dp-attention as the `if` reads it (None: not known): as given where the release
    runs the `if` before `_handle_data_parallelism`, as resolved after it; where the order is not
    read, only a value both agree on."""
    resolved = state.get("enable_dp_attention")
    config = state.config
    asked = config.value("enable_dp_attention", False) if config.known("enable_dp_attention") else None
    if before is True:
        return asked if isinstance(asked, bool) else None
    if before is False or asked == resolved:
        return resolved if isinstance(resolved, bool) else None
    return None


def _holds(
    condition: str, state: ResolutionState, gpu: GpuProfile, h20_test: str | None, before: bool | None = None
) -> bool | None:
    """Whether one condition, as written, holds for the launch (None: not modelled)."""
    sm = gpu.sm or 0
    dp_attention = _dp_attention(state, before)
    values = {
        "not self.enable_flashinfer_allreduce_fusion": True,  # the caller returns when it is on
        "is_sm90_supported() or is_sm100_supported()": sm == 90 or sm // 10 == 10,
        "self.tp_size > 1": isinstance(tp := state.get("tp_size"), int) and tp > 1,
        "not self.enable_dp_attention": None if dp_attention is None else not dp_attention,
        "self.nnodes == 1": state.get("nnodes") == 1,
        "self.moe_a2a_backend == 'none'": state.get("moe_a2a_backend") == "none",
        # not a modelled flag (hardware_flags): given, the field is unknown before this
        "self.attn_cp_size <= 1": not state.config.given("attn_cp_size"),
    }
    if condition == "not is_h20_device" and h20_test == H20_TEST:
        return not ("H20" in gpu.name and "H200" not in gpu.name)
    return values.get(condition)


def fusion_flag(state: ResolutionState, gpu: GpuProfile | None) -> None:
    if state.get(FIELD) is True:
        return
    read = allreduce_fusion(state.checked_version)
    if read is None:
        state.set_unknown(FIELD, f"SGLang {state.checked_version}'s all-reduce fusion default was not read")
        return
    if state.target_architecture not in read.architectures:
        return
    if gpu is None:
        state.set_unknown(FIELD, "depends on the GPU: pass --gpu")
        return
    if not all(isinstance(state.get(n), int) for n in ("tp_size", "nnodes")) or not isinstance(
        state.get("enable_dp_attention"), bool
    ):
        state.set_unknown(FIELD, "the parallel sizes are not readable")
        return
    held = [_holds(c, state, gpu, read.is_h20_device, read.before_data_parallelism) for c in read.conditions]
    if None in held:
        condition = read.conditions[held.index(None)]
        state.set_unknown(FIELD, f"SGLang {state.checked_version}'s condition `{condition}` is not modelled")
    elif all(held):
        state.set(
            FIELD,
            True,
            f"SGLang {state.checked_version} turns FlashInfer all-reduce fusion on for "
            f"{state.target_architecture} on {gpu.name}: " + ", ".join(f"`{c}`" for c in read.conditions[1:]),
            "_handle_model_specific_adjustments",
        )
