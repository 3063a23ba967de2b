"""Shared by the drafter rules (DRF*): which launches they look at and what the configs say."""

from __future__ import annotations

from dataclasses import dataclass

from speclint.rules.base import LaunchContext
from speclint.rules.spd_helpers import flag_span, speculative_algorithm

EAGLE_FAMILY = ("EAGLE", "EAGLE3")


@dataclass(slots=True)
class DraftLaunch:
    """An EAGLE/EAGLE3 launch with an explicit drafter whose config.json was read."""

    algorithm: str
    """After SGLang's aliasing (NEXTN → EAGLE)."""
    draft: object
    """The drafter's `ModelConfig`."""
    target: object
    """The target's `ModelConfig`, or None when not on disk."""
    weights: object
    """`WeightsSummary` of the drafter's local safetensors, or None."""
    kind: object
    """`DrafterKind`."""
    draft_name: str


def draft_launch(ctx: LaunchContext) -> DraftLaunch | None:
    """The launch as the drafter rules see it, or None when they have nothing to read."""
    algorithm = speculative_algorithm(ctx)
    if algorithm not in EAGLE_FAMILY or ctx.resolution.rejection is not None:
        return None
    if ctx.draft is None or ctx.draft.config is None:
        return None
    from speclint.models.drafter import classify_drafter, drafter_weights

    weights = drafter_weights(ctx.draft)
    kind = classify_drafter(ctx.draft.config, weights)
    target = ctx.target.config if ctx.target is not None else None
    return DraftLaunch(algorithm, ctx.draft.config, target, weights, kind, ctx.draft.reference)


def algorithm_span(ctx: LaunchContext):
    return flag_span(ctx, "speculative_algorithm")


def draft_span(ctx: LaunchContext):
    return flag_span(ctx, "speculative_draft_model_path")


def written_algorithm(ctx: LaunchContext) -> str:
    """The algorithm as the launch wrote it (NEXTN stays NEXTN in messages)."""
    setting = ctx.config.get("speculative_algorithm")
    return setting.value if isinstance(setting.value, str) else str(setting.value)


def evidence_text(kind) -> str:
    return ", ".join(kind.evidence)
