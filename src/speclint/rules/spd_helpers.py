"""Shared by the speculative-decoding rules: where a field's flag is written, how to show it."""

from __future__ import annotations

from speclint.rules.base import LaunchContext, Note


def flag_span(ctx: LaunchContext, dest: str):
    """The span of the value (else the flag) that set `dest`, or the launch when unset."""
    if ctx.config.knows(dest):
        setting = ctx.config.get(dest)
        if setting.span is not None:
            return setting.span
    return ctx.launch.span


def flag_name(ctx: LaunchContext, dest: str) -> str:
    spec = ctx.config.schema.by_dest.get(dest)
    return spec.canonical if spec is not None else "--" + dest.replace("_", "-")


def written(ctx: LaunchContext, dest: str) -> str:
    """`--flag value` (or `field=value` for `Engine(...)` keywords) as the launch wrote it."""
    setting = ctx.config.get(dest)
    use = setting.use
    if use is None:
        return flag_name(ctx, dest)
    values = " ".join(w.text or "?" for w in use.value_words)
    if ctx.launch.kwargs_style:
        return f"{use.written}={values}"
    return f"{use.written} {values}".strip()


def setting_text(ctx: LaunchContext, dest: str, value: object) -> str:
    """How the launch's own syntax sets `dest` to `value`: `--flag 1` or `field=1`."""
    if ctx.launch.kwargs_style:
        return f"{dest}={value!r}"
    return f"{flag_name(ctx, dest)} {value}"


def given_note(ctx: LaunchContext, dest: str, message: str) -> list[Note]:
    if ctx.config.knows(dest) and ctx.config.get(dest).span is not None:
        return [Note(ctx.config.get(dest).span, message)]
    return []


def speculative_algorithm(ctx: LaunchContext) -> str | None:
    """The algorithm after SGLang's aliasing (NEXTN → EAGLE), or None."""
    value = ctx.resolution.effective.get("speculative_algorithm") if ctx.resolution else None
    return value if isinstance(value, str) else None


def picked_backend(ctx: LaunchContext) -> str:
    """' (no --attention-backend: SGLang X picks B on GPU)' when the refusal rests on the
    backend SGLang chose for the GPU, else ''."""
    resolution = ctx.resolution
    if resolution is None or ctx.config.given("attention_backend"):
        return ""
    chosen = resolution.adjustment("attention_backend")
    if chosen is None or not isinstance(chosen.effective, str):
        return ""
    gpu = f" on {ctx.gpu.name}" if ctx.gpu is not None else ""
    return (f" (no --attention-backend: SGLang {ctx.version.version} picks "
            f"{chosen.effective}{gpu})")
