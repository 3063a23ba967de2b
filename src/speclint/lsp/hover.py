"""What the editor shows over a flag or keyword: what SGLang does with it for the release."""

from __future__ import annotations

from speclint.lsp.convert import span_contains

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

    from speclint.rules.base import LaunchContext
    from speclint.sglang.flags.argv import FlagUse
    from speclint.sglang.flags.schema import FlagSpec


def _shown(value: object) -> str:
    from speclint.sglang.resolve.result import Unknown

    if isinstance(value, Unknown):
        return f"unknown ({value.reason})"
    return value if isinstance(value, str) else repr(value)


def _use_at(ctx: LaunchContext, line: int, column: int) -> FlagUse | None:
    """The flag use (or keyword) of `ctx` written at (line, column), if any."""
    for use in ctx.parsed.uses:
        spans = [use.span, *(w.span for w in use.value_words)]
        if any(span_contains(span, line, column) for span in spans):
            return use
    return None


def hover_markdown(contexts: Iterable[LaunchContext], line: int, column: int) -> str | None:
    """Markdown for the flag at 1-based (line, column), or None when nothing is there."""
    for ctx in contexts:
        if not span_contains(ctx.launch.span, line, column):
            continue
        use = _use_at(ctx, line, column)
        if use is None or use.spec is None:
            continue
        return _describe(ctx, use, use.spec)
    return None


def _describe(ctx: LaunchContext, use: FlagUse, spec: FlagSpec) -> str:
    resolution = ctx.resolution
    dest = spec.dest
    version = ctx.version.version
    title = f"**{spec.canonical}** (`{dest}`), SGLang {version}"
    if use.matched and use.written != use.matched:
        title += f": `{use.written}` is read as `{use.matched}`"
    out = [title, ""]
    if resolution is not None and resolution.rejection is not None:
        rejection = resolution.rejection
        out.append(f"SGLang stops this launch: {rejection.exception}: {rejection.message}")
        out.append("")
    asked = use.value if not use.dynamic else None
    adjustment = resolution.adjustment(dest) if resolution is not None else None
    if adjustment is not None:
        logged = "SGLang logs a warning" if adjustment.logged else "silent"
        out.append(
            f"`{dest}: {_shown(adjustment.asked)} → {_shown(adjustment.effective)}`, "
            f"{adjustment.reason} ({logged})"
        )
    elif use.dynamic:
        out.append(f"`{dest}`: not known statically")
    elif resolution is not None and dest in resolution.effective:
        out.append(f"`{dest}: {_shown(resolution.effective[dest])}` (SGLang keeps it)")
    else:
        out.append(f"`{dest}: {_shown(asked)}`")
    if dest == "speculative_draft_model_path":
        out.extend(_drafter_lines(ctx))
    if spec.help:
        out += ["", spec.help]
    return "\n".join(out)


def _drafter_lines(ctx: LaunchContext) -> list[str]:
    draft = ctx.draft
    if draft is None or draft.reference is None:
        return []
    if draft.config is None:
        why = f"unreadable: {draft.problem}" if draft.problem else "not found on disk"
        return ["", f"drafter config.json {why} (map it with --model-config NAME=PATH)"]
    lines = ["", f"drafter architecture: {draft.architecture or 'none listed'}"]
    from speclint.sglang.checkpoints.aux_layers import capture_for_launch

    capture = capture_for_launch(ctx)
    if capture is not None:
        lines.append(f"aux hidden states captured from the target: {capture.describe()}")
    return lines
