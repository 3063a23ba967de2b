"""A `sglang serve` launch that runs SGLang's diffusion server, not the language-model server
speclint models (`speclint.sglang.diffusion_serve`, read from each release): from 0.5.5
`sglang serve` hands a diffusion model (`model_index.json`) to that server, and from 0.5.12
`--model-type diffusion` picks it whatever the model. Such a launch is said not read (SLM004,
once, at the word that shows it), never checked against the language-model server's flags:
`sglang serve --model-path black-forest-labs/FLUX.1-dev --num-gpus 2` was a false FLG001.

It is the diffusion server's when `--model-type diffusion` is given, when the model's folder on
disk holds a diffusers pipeline index with the key the release asks for (`model_index.json`
with `_diffusers_version`: `speclint.sglang.checkpoints.diffusers`), or when a flag the
language-model server does not take is one of the diffusion server's and the model's
`config.json` is not on disk (a language model's would say it is one: then the flag stays an
error, FLG001).
"""

from __future__ import annotations

from speclint.core.findings import Finding, Severity

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.spans import Span
    from speclint.rules.base import LaunchContext


def diffusion_reason(ctx: LaunchContext) -> tuple[Span, str, str] | None:
    """(where, why, how to fix) when the launch runs the diffusion server; None otherwise."""
    from speclint.sglang.diffusion_serve import diffusion_serve

    facts = diffusion_serve(ctx.version.version)
    if facts is None:
        return None
    reads_model_type, flags = facts
    release = f"SGLang {ctx.version.version}"
    if reads_model_type:
        from speclint.sglang.flags.entry import model_type_override

        chosen = model_type_override(ctx.launch.args)
        if chosen is not None:
            word, value = chosen
            if value == "diffusion":
                return (
                    word.span,
                    f"`--model-type diffusion` makes `sglang serve` of {release} run its diffusion server",
                    "",
                )
            if value != "auto":
                return None  # the language-model server (or a plugin's, or unknown): as read
    if ctx.target is not None and ctx.target.config is not None:
        return None  # the model's config.json is on disk: a language model
    index = ctx.target.diffusers_index if ctx.target is not None else None
    if index is not None:
        found = ctx.config.get("model_path") if ctx.config.knows("model_path") else None
        span = found.span if found is not None and found.span is not None else ctx.launch.span
        return (
            span,
            f"the model's folder holds `{index.rsplit('/', 1)[-1]}` ({index}), a diffusers pipeline: "
            f"`sglang serve` of {release} runs its diffusion server for it",
            "",
        )
    for use in ctx.parsed.uses:
        if use.how in ("unknown", "ambiguous") and use.written in flags:
            return (
                use.option_span or ctx.launch.span,
                f"`{use.written}` is not a flag of {release}'s language-model server but of its "
                "diffusion server, which `sglang serve` runs when the model is a diffusion model "
                "(`model_index.json`)",
                f"if the model is a language model, `{use.written}` is not one of its flags: remove it",
            )
    return None


def diffusion_findings(ctx: LaunchContext, found: list[Finding]) -> list[Finding]:
    """`found`, or for a launch the diffusion server runs only SLM004 saying it was not read."""
    reason = diffusion_reason(ctx)
    if reason is None:
        return found
    span, why, fix = reason
    ctx.memo["unread"] = why
    return [
        Finding(
            "SLM004",
            "launch-partly-read",
            Severity.INFO,
            ctx.path,
            span,
            f"launch not read: {why}; speclint does not model that server, so nothing in this "
            "launch was checked",
            fix_hint=fix or "check it with SGLang's diffusion server itself",
            launch_span=ctx.launch.span,
        )
    ]
