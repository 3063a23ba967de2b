"""FLG008 deprecated-flag: a flag the chosen SGLang release still accepts but rewrites or drops
(or keeps only to refuse it with its own message)."""

from __future__ import annotations

from speclint.core.findings import Severity
from speclint.rules.base import NO_FIX, Example, Rule

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from speclint.core.findings import Finding
    from speclint.rules.base import LaunchContext


class DeprecatedFlag(Rule):
    """## What it does
Finds flags that the checked SGLang release still accepts but has deprecated, and says
what replaces them.

## Why it matters
SGLang rewrites a deprecated flag to another setting (or ignores it) and prints one line
at startup. The next release may remove it, and the rewrite may not be what you meant.
A flag SGLang keeps registered only to explain its retirement (a `DeprecatedAction` with
an `error_message`, 0.5.18-0.5.19's `--enable-expert-distribution-metrics`) stops the
launch in argparse: an error.

## Example
```bash
# SGLang 0.5.23
python -m sglang.launch_server --model-path /models/llama --disable-cuda-graph
```

## Use instead
```bash
# SGLang 0.5.23
python -m sglang.launch_server --model-path /models/llama \
  --cuda-graph-backend-decode disabled --cuda-graph-backend-prefill disabled
```
"""

    code = "FLG008"
    gates = ("deprecated-flag",)
    stage = "parse"
    name = "deprecated-flag"
    severity = Severity.WARNING
    summary = "A deprecated flag: SGLang rewrites it to another setting, or ignores it."
    defers_to = ("PAR003",)  # says what SGLang makes of `--enable-dp-attention`
    invalid = (
        Example(
            "python -m sglang.launch_server --model-path m --disable-cuda-graph",
            "0.5.23",
            at="1:47",
            says="`--disable-cuda-graph` is deprecated in SGLang 0.5.23",
            fixed=NO_FIX,
        ),
    )
    valid = (
        Example(
            "python -m sglang.launch_server --model-path m --cuda-graph-backend-decode disabled", "0.5.23"
        ),
    )

    def check(self, ctx: LaunchContext) -> Iterator[Finding]:
        for use in ctx.parsed.uses:
            if (
                use.spec is None
                or not use.spec.deprecated
                or use.matched is None
                or use.how in ("ambiguous", "unknown")
            ):
                continue
            if use.spec.error_message and use.spec.action_class == "DeprecatedAction":
                # argparse_actions.py `DeprecatedAction.__call__`: `parser.error(self.error_message)`
                yield self.report(
                    ctx.path,
                    use.span,
                    f"`{use.matched}` is retired in SGLang {ctx.version.version}: argparse stops the "
                    f'launch with "error: {use.spec.error_message}"',
                    "remove it and follow SGLang's message",
                    severity=Severity.ERROR,
                )
                continue
            message, hint = _wording(use.matched, ctx.version.version, use.spec.deprecated)
            yield self.report(ctx.path, use.span, message, hint)


def _wording(flag: str, version: str, deprecated: str) -> tuple[str, str]:
    """(message, help) from what the schema read: a replacement flag, SGLang's own note, or
    that SGLang names no replacement."""
    head = f"`{flag}` is deprecated in SGLang {version}"
    replacement = deprecated.strip().strip("'")
    if replacement.startswith("--"):
        return (
            f"{head}: argparse still takes it, and SGLang names `{replacement}` as its replacement",
            f"write `{replacement}` instead",
        )
    if deprecated.startswith("deprecated (no replacement named)"):
        return (
            f"{head}, and SGLang names no replacement",
            f"remove `{flag}` (check that the launch does not rely on it)",
        )
    return f'{head}; SGLang\'s help says: "{deprecated}"', "follow SGLang's note above"
