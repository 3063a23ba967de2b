"""0.5.20+ `validate_flashinfer_megamoe_model`: beside --moe-a2a-backend flashinfer_megamoe
the target's architectures must include one the release validates (`moe_defaults.
megamoe_architectures`, read from its source), whatever the MoE runner."""

from __future__ import annotations

from speclint.sglang.resolve.state import Stop, given

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.resolve.state import ResolutionState


def check_megamoe_model(state: ResolutionState) -> None:
    """Judged where the all-to-all backend is known to be flashinfer_megamoe and the target's
    config.json is on disk (no --json-model-override-args, which may change it). Oracle
    (resolve_cases.py, 0.5.23, fake B200): Qwen3ForCausalLM with that backend, the
    flashinfer_megamoe runner, nvfp4_online and its W4A16 switch on is refused so."""
    from speclint.sglang.moe_defaults import megamoe_architectures

    read = megamoe_architectures(state.checked_version)
    target = state.target_config
    if (
        read is None
        or target is None
        or state.get("moe_a2a_backend") != "flashinfer_megamoe"
        or given(state, "json_model_override_args") not in (None, "", "{}")
    ):
        return
    architectures = target.raw.get("architectures") or []
    validated, message, where = read
    if not isinstance(architectures, list) or any(a in validated for a in architectures):
        return
    raise Stop(
        "ValueError",
        message.format(architectures=str(architectures), supported=str(sorted(validated)))
        + f" (--moe-a2a-backend flashinfer_megamoe on {architectures[0] if architectures else 'this model'};"
        " pick another --moe-a2a-backend, or a model of an architecture it validates)",
        where,
        ("moe_a2a_backend",),
    )
