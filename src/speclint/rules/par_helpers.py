"""Shared by the parallelism rules: a field's flag whatever dest the release parses it into
(`tensor_parallel_size` in 0.4.10.post2 and 0.5.6.post2, `tp_size` later)."""

from __future__ import annotations

from speclint.resolve.parallel import cli_dest
from speclint.rules.base import LaunchContext, Note


def setting(ctx: LaunchContext, field: str):
    dest = cli_dest(ctx.config, field)
    return ctx.config.get(dest) if dest is not None else None


def given(ctx: LaunchContext, field: str) -> bool:
    found = setting(ctx, field)
    return found is not None and found.given


def known(ctx: LaunchContext, field: str) -> bool:
    """Statically known: given literally, or left at its default with nothing unreadable."""
    dest = cli_dest(ctx.config, field)
    return dest is not None and ctx.config.known(dest)


def span(ctx: LaunchContext, field: str):
    """The value (else the flag) that set `field`, or None when it is not given."""
    found = setting(ctx, field)
    return found.span if found is not None else None


def written(ctx: LaunchContext, field: str, value: object = None) -> str:
    """`--tp-size 8` as the launch wrote it, or as SGLang's flag with `value` when not given."""
    found = setting(ctx, field)
    if found is not None and found.use is not None:
        use = found.use
        values = " ".join(w.text or "?" for w in use.value_words)
        return f"{use.written} {values}".strip()
    flag = "--" + field.replace("_", "-")
    return f"{flag} {value}" if value is not None else flag


def note(ctx: LaunchContext, field: str, message: str) -> list[Note]:
    where = span(ctx, field)
    return [Note(where, message)] if where is not None else []
