"""Shared by the drafter rules (DRF*): which launches they look at, what the configs say, and
the one edit they propose (the algorithm the drafter was trained for)."""

from __future__ import annotations

from speclint.core.records import dataclass
from speclint.rules.base import literal_word

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.edits import Edit
    from speclint.rules.base import LaunchContext
    from speclint.sglang.checkpoints.drafter import DrafterKind
    from speclint.sglang.checkpoints.model_config import ModelConfig
    from speclint.sglang.checkpoints.weights import WeightsSummary

EAGLE_FAMILY = ("EAGLE", "EAGLE3")
LONGER_CONTEXT_ENV = "SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN"
_TRUE = ("true", "1", "yes", "y")


@dataclass(slots=True)
class DraftLaunch:
    """An EAGLE/EAGLE3 launch with an explicit drafter whose config.json was read."""

    algorithm: str
    """After SGLang's aliasing (NEXTN → EAGLE)."""
    draft: ModelConfig
    """The drafter's config.json."""
    target: ModelConfig | None
    """The target's config.json, or None when not on disk."""
    weights: WeightsSummary | None
    """The drafter's local safetensors, or None."""
    kind: DrafterKind
    draft_name: str | None
    """The drafter as the launch names it."""


def draft_launch(ctx: LaunchContext) -> DraftLaunch | None:
    """The launch as the drafter rules see it, or None when they have nothing to read
    (worked out once per launch: a dozen rules ask)."""
    memo = ctx.memo
    if "draft_launch" not in memo:
        memo["draft_launch"] = _draft_launch(ctx)
    found: DraftLaunch | None = memo["draft_launch"]
    return found


def _draft_launch(ctx: LaunchContext) -> DraftLaunch | None:
    algorithm = ctx.speculative_algorithm
    if algorithm not in EAGLE_FAMILY or ctx.resolved.rejection is not None:
        return None
    if ctx.draft is None or ctx.draft.config is None:
        return None
    import speclint.sglang.checkpoints.drafter as drafters  # (a module: `from M import name` here costs a failed lookup each call)

    weights = drafters.drafter_weights(ctx.draft)
    kind = drafters.classify_drafter(ctx.draft.config, weights)
    target = ctx.target.config if ctx.target is not None else None
    return DraftLaunch(algorithm, ctx.draft.config, target, weights, kind, ctx.draft.reference)


def written_algorithm(ctx: LaunchContext) -> str:
    """The algorithm as the launch wrote it (NEXTN stays NEXTN in messages)."""
    setting = ctx.config.get("speculative_algorithm")
    return setting.value if isinstance(setting.value, str) else str(setting.value)


def evidence_text(kind: DrafterKind) -> str:
    return ", ".join(kind.evidence)


def eagle3_launch(ctx: LaunchContext) -> DraftLaunch | None:
    """The launch when both the algorithm and the drafter are EAGLE-3."""
    launch = draft_launch(ctx)
    if launch is None or launch.algorithm != "EAGLE3" or launch.kind.kind != "EAGLE3":
        return None
    return launch


def algorithm_edit(ctx: LaunchContext, algorithm: str) -> Edit | None:
    """Rewrite the algorithm value where it is written literally (certain: the drafter's own
    weights or config say which algorithm it was trained for)."""
    use = ctx.config.get("speculative_algorithm").use
    if (
        use is None
        or len(use.value_words) != 1
        or not literal_word(use.value_words[0])
        or not literal_word(use.word)
        or use.value_span is None
    ):
        return None
    from speclint.core.edits import Edit

    word = use.value_words[0]
    return Edit(use.value_span, algorithm, f"serve the drafter with {algorithm}", word.text)


def longer_context_allowed(ctx: LaunchContext) -> bool | None:
    """True/False from the launch's environment (SGLang's own default per release); None
    when the variable is set to a value speclint cannot read."""
    if ctx.launch.env_unread is not None and LONGER_CONTEXT_ENV not in ctx.launch.env:
        return None  # an env file speclint could not read may set it
    if LONGER_CONTEXT_ENV in ctx.launch.env:
        value = ctx.env_value(LONGER_CONTEXT_ENV)
        return None if value is None else value.strip().lower() in _TRUE
    return ctx.release.context_override_default  # read from the release's own source


def unread_model_configs(ctx: LaunchContext) -> list[tuple[str, str, str, str]]:
    """(role, model, flag dest, why) per model config.json of an EAGLE-family launch that
    could not be read: the drafter checks did not run for it. Also counted by `check`'s
    summary line when this opt-in rule is off, so a skipped check is never silent."""
    if ctx.speculative_algorithm not in EAGLE_FAMILY or ctx.resolved.rejection is not None:
        return []
    if ctx.parse_stop is not None:  # no drafter check would run after parsing
        return []
    missing = []
    for role, ref, dest in (
        ("target", ctx.target, "model_path"),
        ("drafter", ctx.draft, "speculative_draft_model_path"),
    ):
        if ref is None or ref.reference is None or ref.config is not None:
            continue
        if ref.problem:
            why = f"its config.json cannot be read: {ref.problem}"
        else:
            tried = getattr(ref.located, "tried", ()) if ref.located is not None else ()
            why = "config.json not found" + (f" (looked in: {'; '.join(tried)})" if tried else "")
        missing.append((role, ref.reference, dest, why))
    return missing
